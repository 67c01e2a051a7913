//===--- CacheEviction.cpp - Caches kept under a size ---------------------===//

#include "Support/CacheEviction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

namespace gpuguard::support {

void evictLeastRecentlyUsed(std::vector<CachedItem> Items, uint64_t Limit,
                            llvm::StringRef Keep) {
  uint64_t Total = 0;
  for (const CachedItem &Item : Items)
    Total += Item.Bytes;
  if (Total <= Limit)
    return;
  llvm::sort(Items, [](const CachedItem &A, const CachedItem &B) {
    return A.Used < B.Used;
  });
  for (const CachedItem &Old : Items) {
    if (Total <= Limit / 4 * 3)
      break;
    if (Old.Files.empty() || (!Keep.empty() && Old.Files.front() == Keep))
      continue;
    // Counted as gone once its first file is: without it the rest is
    // never read.
    if (llvm::sys::fs::remove(Old.Files.front()))
      continue;
    for (const std::string &File : llvm::drop_begin(Old.Files))
      llvm::sys::fs::remove(File);
    Total -= Old.Bytes;
  }
}

} // namespace gpuguard::support
