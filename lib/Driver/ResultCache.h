//===--- ResultCache.h - Findings of unchanged files, kept ------*- C++ -*-===//
///
/// \file
/// A content-addressed cache of what checking a file produced, so that a
/// run re-checks only what changed. An entry is found by a key over what
/// decides the outcome besides the headers (gpuguard's own executable, the
/// file's bytes, its compile commands, its effective configuration and the
/// options that filter findings), and holds the path and content hash of
/// every file the parse read. It is used only while each of those still has
/// the same content, so an edit to any header read, a comment or a NOLINT
/// included, makes it a miss.
///
/// Entries live as one file each under the cache directory, written whole
/// and renamed into place, so that concurrent runs and workers never see a
/// partial entry. A corrupt or unreadable entry is a miss; a directory that
/// cannot be written costs one warning line, and the run goes on.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_RESULTCACHE_H
#define GPUGUARD_DRIVER_RESULTCACHE_H

#include "Driver/Messages.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gpuguard {

/// What checking one file produced that a later run can replay. Set-up
/// messages are not kept: they come from the file's compile commands, which
/// every run computes again, and may say what changed in the environment.
struct CachedCheck {
  std::vector<clang::tidy::ClangTidyError> Errors;
  bool Parsed = true;
  /// Findings left out (NOLINT, filters), for the run's summary.
  clang::tidy::ClangTidyStats Suppressed;
};

class ResultCache {
public:
  /// A cache in \p Directory that eviction keeps under \p MaxBytes. Nothing
  /// is created before the first store.
  ResultCache(std::string Directory, uint64_t MaxBytes);

  /// The key of an outcome: a hash over \p Parts, which must name all that
  /// decides it besides the files the parse reads.
  static std::string key(llvm::ArrayRef<std::string> Parts);

  /// The outcome stored under \p Key, if every file it read still has the
  /// content it had then.
  std::optional<CachedCheck> lookup(llvm::StringRef Key);

  /// Stores \p Check under \p Key with the content of \p Dependencies, the
  /// files its parse read.
  void store(llvm::StringRef Key, const CachedCheck &Check,
             llvm::ArrayRef<std::string> Dependencies);

  /// Deletes the least recently used entries while the cache is larger than
  /// its limit.
  void evict();

  /// Entries found and entries stored by this run.
  unsigned hits() const { return Hits; }
  unsigned stores() const { return Stores; }

  /// The cache directory to use by default: $XDG_CACHE_HOME/gpuguard/results
  /// or ~/.cache/gpuguard/results; empty when neither can be found.
  static std::string defaultDirectory();

  /// The content hash the entries record for a file's bytes.
  static std::string contentHash(llvm::StringRef Bytes);

private:
  std::string entryPath(llvm::StringRef Key) const;
  /// The content hash of \p File, read once per run: the files of a run
  /// share most headers, and a run does not edit them.
  std::optional<std::string> hashOfFile(llvm::StringRef File);
  /// Says once per run that the cache cannot be written, and stops storing.
  void giveUpStoring(const std::string &Why);

  std::string Directory;
  uint64_t MaxBytes;
  std::atomic<unsigned> Hits{0}, Stores{0};
  std::atomic<bool> StoringDisabled{false};
  std::once_flag Warned;
  std::mutex HashesMutex;
  llvm::StringMap<std::optional<std::string>> Hashes;
};

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_RESULTCACHE_H
