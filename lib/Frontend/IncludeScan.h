//===--- IncludeScan.h - Sources that include changed headers ---*- C++ -*-===//
///
/// \file
/// With --diff and no files named, a changed header is checked through the
/// translation units that include it. Finding them by parsing every
/// candidate would cost as much as checking it, so the `#include` lines are
/// scanned as text instead, erring on the side of checking more:
/// - conditional compilation and comments are ignored, so an include inside
///   `#if 0` counts;
/// - an include matches a changed header when the header's path ends with
///   the spelled path (leading `./` and `../` left out), wherever the
///   include would really resolve;
/// - the other includes are followed, transitively, when they resolve
///   against the including file's directory or the command's `-I`,
///   `-iquote` and nvcc `--include-path` directories. System directories
///   (`-isystem`, the compiler's own) are not followed.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_INCLUDESCAN_H
#define GPUGUARD_FRONTEND_INCLUDESCAN_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <string>
#include <vector>

namespace gpuguard::frontend {

/// Whether \p Path may be a header: a file other sources include.
bool isHeaderPath(llvm::StringRef Path);

/// The paths named by the `#include`, `#include_next` and `#import` lines of
/// \p Text, as spelled between the quotes or angle brackets.
std::vector<std::string> scanIncludes(llvm::StringRef Text);

/// The user include directories of \p Command (`-I`, `-iquote`, nvcc's
/// `--include-path`), absolute; with \p WithSystemDirs, `-isystem` and
/// `-idirafter` too.
std::vector<std::string>
includeSearchDirs(const clang::tooling::CompileCommand &Command,
                  bool WithSystemDirs = false);

/// Answers, for one run, which files include a header of interest, directly
/// or through the files they include.
class IncluderFinder {
public:
  /// Whether an include, as spelled, names a header of interest.
  using SpelledMatcher = std::function<bool(llvm::StringRef Spelled)>;

  /// Headers of interest are those \p Matches accepts.
  explicit IncluderFinder(SpelledMatcher Matches);
  /// Headers of interest are the changed ones, \p ChangedHeaders, whatever
  /// directory an include of theirs resolves against. Absolute paths.
  explicit IncluderFinder(std::vector<std::string> ChangedHeaders);

  /// Whether \p File includes a header of interest, directly or through
  /// the files it includes, searching \p SearchDirs.
  bool includesMatch(llvm::StringRef File,
                     llvm::ArrayRef<std::string> SearchDirs);

private:
  enum class State { Visiting, Includes, DoesNotInclude };
  bool visit(const std::string &File, llvm::ArrayRef<std::string> SearchDirs,
             bool &Incomplete);

  SpelledMatcher Matches;
  llvm::StringMap<State> States;
};

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_INCLUDESCAN_H
