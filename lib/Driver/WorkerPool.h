//===--- WorkerPool.h - Checks files on several threads ---------*- C++ -*-===//
///
/// \file
/// Checks the files of a run on worker threads, each with its own Clang and
/// clang-tidy state, and hands their outcomes back in input order, so that
/// the output never depends on the number of threads. In `gpuguard
/// instrument`, each worker also writes the instrumented copy of its files.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_WORKERPOOL_H
#define GPUGUARD_DRIVER_WORKERPOOL_H

#include "Driver/Driver.h"
#include "Driver/Messages.h"
#include "Frontend/PreambleCache.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpuguard {

/// What checking one file produced. Workers fill it in; the main thread
/// prints it, in input order.
struct FileOutcome {
  std::vector<clang::tidy::ClangTidyError> Errors;
  bool Parsed = true;
  /// Lines about the file's instrumented copy, printed after its findings.
  struct Message {
    bool IsError;
    std::string Text;
  };
  std::vector<Message> InstrumentMessages;
  /// Printed before the findings, each once per run: the first file in
  /// input order that has one names it, whatever the number of threads.
  std::vector<SetupMessage> Setup;
  /// Set when the file could not be checked (a crash, the time budget): why
  /// and what to do, in words. Nothing else of the file is kept.
  std::string NotChecked;
  int Exit = Success;
};

class Worker;
class ResultCache;

/// The result cache a run reads and fills, and the part of each key that
/// is the same for all its files (gpuguard itself, the run's options).
struct CacheUse {
  ResultCache *Cache = nullptr;
  std::string RunKey;
  /// Where the files' precompiled preambles are kept, if anywhere.
  frontend::PreambleCache *Preambles = nullptr;
};

/// The threads that check the files of a run.
class WorkerPool {
public:
  /// \p Jobs workers, or one per core when 0, and never more than
  /// \p FileCount nor fewer than one.
  WorkerPool(const clang::tooling::CompilationDatabase &Database,
             bool Instrumenting, unsigned Jobs, size_t FileCount,
             CacheUse UseCache = {});
  ~WorkerPool();

  /// Checks \p Files and calls \p Report with each one's outcome, in the
  /// order of \p Files, on the calling thread.
  void
  checkAll(const std::vector<std::string> &Files,
           llvm::function_ref<void(const std::string &, FileOutcome)> Report);

  /// Whether checking some file crashed.
  bool anyCrashed() const { return !Retired.empty(); }

  /// Findings left out by all workers so far (NOLINT, filters).
  clang::tidy::ClangTidyStats suppressed() const;

private:
  /// Checks \p File with the worker in \p Slot, replacing the worker when
  /// the file crashed it.
  FileOutcome checkWith(size_t Slot, const std::string &File);

  const clang::tooling::CompilationDatabase &Database;
  bool Instrumenting;
  CacheUse Cache;
  std::vector<std::unique_ptr<Worker>> Workers;
  /// Workers a crash left unusable: leaked on purpose, see checkWith.
  std::vector<Worker *> Retired;
  std::mutex RetiredMutex;
};

/// Lets a crash or a stack overflow while checking one file be caught, so
/// that the run goes on with the other files. Called once, before any file
/// is checked.
void enableCrashRecovery();

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_WORKERPOOL_H
