//===--- CacheStores.h - Where result cache entries are kept ----*- C++ -*-===//
///
/// \file
/// The places the result cache keeps its entries: a local directory, and
/// for a team's CI machines a service they all reach, Redis or any HTTP
/// server that answers GET and takes PUT by key (nginx with WebDAV,
/// bazel-remote, a cloud bucket's HTTP endpoint). A store moves opaque
/// bytes; ResultCache decides what they mean and whether they still hold.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_CACHESTORES_H
#define GPUGUARD_DRIVER_CACHESTORES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace gpuguard {

/// One place that keeps entries by key. Its calls may come from several
/// threads at once.
class CacheStore {
public:
  virtual ~CacheStore();

  /// How messages name it, quoted: "the result cache '<this>'".
  virtual std::string name() const = 0;

  /// Whether it is shared with other machines: a failure there means the
  /// run goes on without it, while a local directory is still read when it
  /// cannot be written.
  virtual bool isRemote() const = 0;

  /// The bytes kept under \p Key, std::nullopt when there are none, or an
  /// error when the store cannot answer.
  virtual llvm::Expected<std::optional<std::string>>
  get(llvm::StringRef Key) = 0;

  /// Keeps \p Bytes under \p Key, replacing what was there, or says why not.
  virtual llvm::Error put(llvm::StringRef Key, llvm::StringRef Bytes) = 0;

  /// Notes that the entry under \p Key was used now, for eviction.
  virtual void touch(llvm::StringRef Key) {}

  /// Drops the least recently used entries while the store is over its
  /// size limit, where it has one of its own.
  virtual void evict() {}
};

/// Entries as files under \p Directory, written whole and renamed into
/// place; eviction keeps them under \p MaxBytes by modification time.
std::unique_ptr<CacheStore> createDirectoryStore(std::string Directory,
                                                 uint64_t MaxBytes);

/// A shared store named by a URL:
///   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]   (port 6379, database 0)
///   http[s]://[USER:PASSWORD@]HOST[:PORT][/PATH] (GET and PUT PATH/KEY)
/// An error, in words, when the URL is not one of these; nothing is
/// contacted before the first get or put.
llvm::Expected<std::unique_ptr<CacheStore>>
createRemoteStore(llvm::StringRef URL);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_CACHESTORES_H
