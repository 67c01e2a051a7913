//===--- OutcomePrinter.h - Prints what a run found -------------*- C++ -*-===//
///
/// \file
/// Prints the outcome of each file as the run reaches it in input order
/// (its set-up messages, findings and fixes, compile errors, instrumented
/// copy), and at the end what the run left out and the exit code it earns.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_OUTCOMEPRINTER_H
#define GPUGUARD_DRIVER_OUTCOMEPRINTER_H

#include "Driver/Driver.h"
#include "Driver/WorkerPool.h"
#include "Output/Reporter.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace gpuguard {

/// Prints what each file produced, and collects what the end of the run
/// reports about all of them. Called in input order, whatever order the
/// workers finish in, so that the output never depends on -j.
class OutcomePrinter {
public:
  OutcomePrinter(output::Reporter &Reporter,
                 clang::tidy::ClangTidyContext &Context,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                 bool Instrumenting);

  /// Prints what checking \p File produced.
  void print(const std::string &File, FileOutcome Outcome);

  /// Finishes the output (SARIF, baselines) and says what the run left out.
  void finish(const std::string &FirstPath,
              const clang::tidy::ClangTidyStats &Suppressed);

  /// The largest exit code that applies so far.
  int exitCode() const { return Exit; }
  void raise(int Code) { Exit = std::max(Exit, Code); }

private:
  output::Reporter &Reporter;
  clang::tidy::ClangTidyContext &Context;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  bool Instrumenting;
  /// What --fix, --fix-errors and --fix-notes ask for.
  clang::tidy::FixBehaviour Behaviour;
  llvm::StringSet<> SetupSaid;
  std::vector<clang::tidy::ClangTidyError> AllErrors;
  unsigned WarningsAsErrorsCount = 0;
  bool FixesHeldBack = false;
  int Exit = Success;
};

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_OUTCOMEPRINTER_H
