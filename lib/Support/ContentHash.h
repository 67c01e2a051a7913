//===--- ContentHash.h - Names for bytes ------------------------*- C++ -*-===//
///
/// \file
/// The hash that the caches key and validate their entries by: 128 bits of
/// xxh3, so that two different contents practically never share one, and
/// fast enough to hash every header a translation unit reads.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_SUPPORT_CONTENTHASH_H
#define GPUGUARD_SUPPORT_CONTENTHASH_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace gpuguard::support {

/// The hash of \p Bytes as 32 lower-case hex digits.
std::string contentHash(llvm::StringRef Bytes);

/// Whether \p Name has the shape of a contentHash(): a cache's own file.
bool isContentHash(llvm::StringRef Name);

} // namespace gpuguard::support

#endif // GPUGUARD_SUPPORT_CONTENTHASH_H
