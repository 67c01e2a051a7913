//===--- Fingerprint.cpp - Stable identities of findings ------------------===//

#include "Output/Fingerprint.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include <array>

namespace gpuguard::output {

std::string normalizeLineText(llvm::StringRef Line) {
  std::string Normalized;
  Normalized.reserve(Line.size());
  bool PendingSpace = false;
  for (char C : Line) {
    if (llvm::isSpace(C)) {
      PendingSpace = !Normalized.empty();
      continue;
    }
    if (PendingSpace)
      Normalized += ' ';
    PendingSpace = false;
    Normalized += C;
  }
  return Normalized;
}

std::string lineHash(llvm::StringRef Check, llvm::StringRef RelativePath,
                     llvm::StringRef LineText) {
  llvm::SHA256 Hasher;
  // NUL separators keep ("ab", "c") and ("a", "bc") apart.
  Hasher.update(Check);
  Hasher.update(llvm::StringRef("\0", 1));
  Hasher.update(RelativePath);
  Hasher.update(llvm::StringRef("\0", 1));
  Hasher.update(normalizeLineText(LineText));
  std::array<uint8_t, 32> Digest = Hasher.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(16),
                     /*LowerCase=*/true);
}

std::string FingerprintNumbering::next(llvm::StringRef Hash) {
  unsigned Occurrence = Seen[Hash]++;
  return (Hash + ":" + llvm::Twine(Occurrence)).str();
}

} // namespace gpuguard::output
