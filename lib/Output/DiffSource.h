//===--- DiffSource.h - Where --diff reads its changes ----------*- C++ -*-===//
///
/// \file
/// `--diff=<rev>` runs `git diff -U0 <rev>` in the git work tree of the
/// inputs (git only reads the repository and the work tree: external diff
/// drivers and textconv filters are turned off); `--diff=-` reads a unified
/// diff from standard input. The diff's paths are resolved against the top
/// of the work tree, or the starting directory outside one. Files the diff
/// names outside that directory are reported and left out.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_DIFFSOURCE_H
#define GPUGUARD_OUTPUT_DIFFSOURCE_H

#include "Output/UnifiedDiff.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace gpuguard::output {

struct LoadedDiff {
  ChangedLines Lines;
  /// The directory the diff's relative paths were resolved against.
  std::string ProjectRoot;
  /// Paths of changed files outside ProjectRoot, as the diff names them.
  std::vector<std::string> OutsideFiles;
};

/// The top of the git work tree holding \p Directory; nullopt outside one or
/// without git.
std::optional<std::string> gitWorkTreeRoot(llvm::StringRef Directory);

/// Turns \p Files into changed lines under \p ProjectRoot; exposed for the
/// tests.
LoadedDiff resolveDiff(llvm::ArrayRef<FileDiff> Files,
                       llvm::StringRef ProjectRoot);

/// The files of the project under \p ProjectRoot, absolute: those git tracks
/// or would add (untracked and not ignored) in a git work tree, otherwise
/// every file below it outside hidden directories.
std::vector<std::string> projectFiles(llvm::StringRef ProjectRoot);

/// Reads the diff named by --diff's value \p Source ("-" for standard input,
/// otherwise a git revision), starting from \p Directory. The error is one
/// line saying what to fix.
llvm::Expected<LoadedDiff> loadDiff(llvm::StringRef Source,
                                    llvm::StringRef Directory);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_DIFFSOURCE_H
