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
/// Entries are kept in one or more stores (CacheStores.h), searched in
/// order: a local directory, then a service a team's machines share. An
/// entry found in a later store is copied into the earlier ones. A corrupt
/// or unreadable entry is a miss; a directory that cannot be written, or a
/// shared store that fails, costs one warning line, and the run goes on.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_RESULTCACHE_H
#define GPUGUARD_DRIVER_RESULTCACHE_H

#include "Driver/CacheStores.h"
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

  /// A cache kept in \p Stores, searched in this order.
  explicit ResultCache(std::vector<std::unique_ptr<CacheStore>> Stores);

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
  unsigned stores() const { return Stored; }

  /// The cache directory to use by default: $XDG_CACHE_HOME/gpuguard/results
  /// or ~/.cache/gpuguard/results; empty when neither can be found.
  static std::string defaultDirectory();

private:
  /// A store and what this run learnt of it.
  struct Slot {
    std::unique_ptr<CacheStore> Store;
    /// A shared store that failed once is left alone for the rest of the
    /// run; a local one that cannot be written is still read.
    std::atomic<bool> Failed{false}, NotWritable{false};
    std::once_flag Warned;
  };

  /// The outcome an entry's \p Bytes hold, if it is well formed and every
  /// file it read still has the content it had then.
  std::optional<CachedCheck> decode(llvm::StringRef Bytes);
  /// Whether \p Into now keeps \p Bytes under \p Key.
  bool put(Slot &Into, llvm::StringRef Key, llvm::StringRef Bytes);
  /// Says once per run what failed in \p Where and leaves it alone.
  void giveUp(Slot &Where, const std::string &Why);
  /// The content hash of \p File, read once per run: the files of a run
  /// share most headers, and a run does not edit them.
  std::optional<std::string> hashOfFile(llvm::StringRef File);

  std::vector<std::unique_ptr<Slot>> Slots;
  std::atomic<unsigned> Hits{0}, Stored{0};
  std::mutex HashesMutex;
  llvm::StringMap<std::optional<std::string>> Hashes;
};

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_RESULTCACHE_H
