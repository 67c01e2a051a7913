//===--- CheckRunner.h - Runs the checks on one file ------------*- C++ -*-===//
///
/// \file
/// Parses one file with each of its compile commands (a CUDA file once per
/// side) and runs clang-tidy's checks on it, collecting the findings of all
/// its commands into one list.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_CHECKRUNNER_H
#define GPUGUARD_DRIVER_CHECKRUNNER_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace gpuguard {
namespace frontend {
class PreambleCache;
} // namespace frontend

/// Runs the checks on one file; one instance per run, reused across files.
class CheckRunner {
public:
  /// \p FixesFromNotes also takes the fixes attached to notes (--fix-notes);
  /// \p Preambles, when given, precompiles each file's preamble.
  CheckRunner(clang::tidy::ClangTidyContext &Context,
              const clang::tooling::CompilationDatabase &Database,
              llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
              bool FixesFromNotes, frontend::PreambleCache *Preambles = nullptr)
      : Context(Context), Database(Database), BaseFS(std::move(BaseFS)),
        Preambles(Preambles), FixesFromNotes(FixesFromNotes) {}

  /// Returns the findings of \p File (both CUDA sides merged) and whether it
  /// parsed without errors.
  std::vector<clang::tidy::ClangTidyError> run(const std::string &File,
                                               bool &Parsed);
  /// Findings left out so far (NOLINT, filters), each counted once.
  const clang::tidy::ClangTidyStats &suppressed() const { return Suppressed; }
  /// Counts findings a replayed outcome left out, as run() counts its own.
  void addReplayedSuppressed(const clang::tidy::ClangTidyStats &Stats);

  /// Of the last run(): the findings it left out, and every file its
  /// parses read (absolute paths, sorted), what its outcome depends on.
  const clang::tidy::ClangTidyStats &lastSuppressed() const {
    return LastSuppressed;
  }
  const std::vector<std::string> &lastDependencies() const {
    return LastDependencies;
  }

private:
  int runCommand(const std::string &File,
                 const clang::tooling::CompileCommand &Command,
                 clang::tidy::ClangTidyDiagnosticConsumer &Consumer);

  clang::tidy::ClangTidyContext &Context;
  const clang::tooling::CompilationDatabase &Database;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  frontend::PreambleCache *Preambles;
  // One set of diagnostic IDs for the whole run, as in clang-tidy: the
  // context maps each check's custom diagnostic ID to its name for the
  // whole run, so IDs restarting per file would give a later file's finding
  // an earlier file's check name.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> DiagIDs =
      clang::DiagnosticIDs::create();
  clang::tidy::ClangTidyStats Suppressed;
  clang::tidy::ClangTidyStats LastSuppressed;
  std::vector<std::string> LastDependencies;
  bool FixesFromNotes;
};

/// A file system over the real one whose working directory is its own, so
/// that a compile command's working directory never changes the process's.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> createOwnFileSystem();

/// Adds the suppressed findings counted in \p More to \p Total.
void addSuppressed(clang::tidy::ClangTidyStats &Total,
                   const clang::tidy::ClangTidyStats &More);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_CHECKRUNNER_H
