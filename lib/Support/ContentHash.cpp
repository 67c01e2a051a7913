//===--- ContentHash.cpp - Names for bytes --------------------------------===//

#include "Support/ContentHash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace gpuguard::support {

std::string contentHash(llvm::StringRef Bytes) {
  llvm::XXH128_hash_t Hash =
      llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes));
  return llvm::utohexstr(Hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(Hash.low64, /*LowerCase=*/true, 16);
}

bool isContentHash(llvm::StringRef Name) {
  return Name.size() == 32 && llvm::all_of(Name, llvm::isHexDigit);
}

} // namespace gpuguard::support
