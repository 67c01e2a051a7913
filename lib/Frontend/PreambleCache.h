//===--- PreambleCache.h - Precompiled preambles kept on disk ---*- C++ -*-===//
///
/// \file
/// The preamble of a file is the run of `#include` lines at its top,
/// together with what the compiler includes before it (CUDA's wrapper
/// headers, `-include`). It is most of the parse and it rarely changes, so,
/// as clangd does, it is precompiled once and loaded by every later parse.
/// The precompiled preambles are kept on disk and shared by the workers of
/// a run, by later runs and by every file that starts with the same lines
/// and flags (in the same directory, where a quoted include is among
/// them).
///
/// Function bodies in system headers are skipped while a preamble is
/// built: no check looks into them. Bodies in the user's own headers are
/// kept, and their top-level declarations are listed in the entry so that
/// the checks traverse them as when the headers were parsed in full. What
/// building it said is kept too, and said again by each parse that loads
/// it. A preamble with an error is not used: the file is parsed in full,
/// and reports what it reported before.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_PREAMBLECACHE_H
#define GPUGUARD_FRONTEND_PREAMBLECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class CompilerInvocation;
class Decl;
class PCHContainerOperations;
} // namespace clang

namespace gpuguard::frontend {

/// A warning or note said while a preamble was built, at its file, line
/// and column (of the macro's expansion, where it is in one).
struct PreambleDiagnostic {
  unsigned Level = 0;
  unsigned ID = 0;
  std::string Message;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// What a parse took from a precompiled preamble.
struct PreambleUse {
  /// Every file the preamble read, absolute: a parse that loads it depends
  /// on them although it never opens them.
  std::vector<std::string> Dependencies;
  /// The preamble's top-level declarations outside system headers, as IDs
  /// local to its precompiled header.
  std::vector<uint64_t> UserDeclIDs;
  /// What building it said, to be said again by the parse.
  std::vector<PreambleDiagnostic> Diagnostics;
};

/// Precompiled preambles in one directory; safe to use from several
/// threads and processes at once (entries are written whole, then renamed).
class PreambleCache {
public:
  /// \p ToolKey names the build of the tool and its Clang: an entry is
  /// read back only by the same. \p SizeLimit bounds the directory in
  /// bytes; the least recently used entries go first.
  PreambleCache(std::string Directory, std::string ToolKey, uint64_t SizeLimit);

  /// `$XDG_CACHE_HOME/gpuguard/preambles`, or "" without a home.
  static std::string defaultDirectory();

  /// Makes \p Invocation load the precompiled preamble of its main file,
  /// building and storing it first when none is stored for this preamble,
  /// these flags and these headers. Leaves \p Invocation unchanged and
  /// returns nothing when the file has no preamble, already loads a
  /// precompiled header, or its preamble has an error; also when it warns
  /// and \p CompilerWarningsShown (a clang-diagnostic-* check enabled).
  std::optional<PreambleUse>
  attach(clang::CompilerInvocation &Invocation,
         llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
         std::shared_ptr<clang::PCHContainerOperations> PCHOperations,
         bool CompilerWarningsShown);

  /// Whether \p Path is one of this cache's files.
  bool holds(llvm::StringRef Path) const;

private:
  struct Entry;
  std::optional<Entry> lookup(llvm::StringRef Key, llvm::vfs::FileSystem &FS);
  std::optional<Entry>
  build(const clang::CompilerInvocation &Invocation, llvm::StringRef Key,
        const llvm::MemoryBuffer &MainFile, unsigned PreambleSize,
        bool EndsAtStartOfLine,
        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
        std::shared_ptr<clang::PCHContainerOperations> PCHOperations);
  /// Drops the least recently used entries but \p Keep while the
  /// directory is over its limit.
  void evict(llvm::StringRef Keep);

  std::string Directory;
  std::string ToolKey;
  uint64_t SizeLimit;
};

/// Says again, through \p Compiler's diagnostics, what building the
/// preamble it loaded said: the filters, NOLINT and the counts of what is
/// left out then treat them as a parse of the whole file would.
void sayPreambleDiagnostics(clang::CompilerInstance &Compiler,
                            llvm::ArrayRef<PreambleDiagnostic> Diagnostics);

/// The declarations \p UserDeclIDs names in the precompiled preamble that
/// \p Compiler loaded, deserialised.
std::vector<clang::Decl *> preambleDecls(clang::CompilerInstance &Compiler,
                                         llvm::ArrayRef<uint64_t> UserDeclIDs);

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_PREAMBLECACHE_H
