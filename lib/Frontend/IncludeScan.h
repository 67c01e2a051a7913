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
#include <string>
#include <vector>

namespace gpuguard::frontend {

/// Whether \p Path may be a header: a file other sources include.
bool isHeaderPath(llvm::StringRef Path);

/// The paths named by the `#include`, `#include_next` and `#import` lines of
/// \p Text, as spelled between the quotes or angle brackets.
std::vector<std::string> scanIncludes(llvm::StringRef Text);

/// The user include directories of \p Command (`-I`, `-iquote`, nvcc's
/// `--include-path`), absolute.
std::vector<std::string>
includeSearchDirs(const clang::tooling::CompileCommand &Command);

/// Answers, for one run, which files include a changed header.
class IncluderFinder {
public:
  /// \p ChangedHeaders are absolute paths.
  explicit IncluderFinder(std::vector<std::string> ChangedHeaders);

  /// Whether \p File includes one of the changed headers, directly or
  /// through the files it includes, searching \p SearchDirs.
  bool includesChanged(llvm::StringRef File,
                       llvm::ArrayRef<std::string> SearchDirs);

private:
  enum class State { Visiting, Includes, DoesNotInclude };
  bool visit(const std::string &File, llvm::ArrayRef<std::string> SearchDirs,
             bool &Incomplete);
  bool namesChangedHeader(llvm::StringRef Spelled) const;

  std::vector<std::string> Changed;
  llvm::StringMap<State> States;
};

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_INCLUDESCAN_H
