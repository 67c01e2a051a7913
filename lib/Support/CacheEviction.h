//===--- CacheEviction.h - Caches kept under a size -------------*- C++ -*-===//
///
/// \file
/// The result cache and the preamble directory keep themselves under a
/// size limit by dropping what was used least recently: a lookup touches
/// what it finds, so a file's time is when it was last used.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_SUPPORT_CACHEEVICTION_H
#define GPUGUARD_SUPPORT_CACHEEVICTION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gpuguard::support {

/// One cached item: its files, removed together in this order (the one a
/// reader looks up first, so that it never finds the others missing), their
/// size, and when it was last used.
struct CachedItem {
  std::vector<std::string> Files;
  uint64_t Bytes = 0;
  llvm::sys::TimePoint<> Used;
};

/// When \p Items hold more than \p Limit bytes, removes the least recently
/// used down to three quarters of it, so that the next store does not evict
/// again; never the item whose first file is \p Keep (one just stored).
void evictLeastRecentlyUsed(std::vector<CachedItem> Items, uint64_t Limit,
                            llvm::StringRef Keep = "");

} // namespace gpuguard::support

#endif // GPUGUARD_SUPPORT_CACHEEVICTION_H
