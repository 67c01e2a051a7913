//===--- Fingerprint.h - Stable identities of findings ----------*- C++ -*-===//
///
/// \file
/// A fingerprint names a finding across runs, so that SARIF consumers and
/// baselines can tell an old finding from a new one. It hashes the check,
/// the file's path relative to the project root and the text of the flagged
/// line with its whitespace collapsed, but never the line number: inserting
/// or deleting lines elsewhere in the file keeps it. Findings whose hashes
/// are equal (the same check on identical lines of one file) are told apart
/// by their order in the file: "<hash>:<n>" for the n-th, from 0.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_FINGERPRINT_H
#define GPUGUARD_OUTPUT_FINGERPRINT_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace gpuguard::output {

/// The key of the fingerprint in SARIF's partialFingerprints. A change to
/// how fingerprints are computed gets a new key.
inline constexpr llvm::StringLiteral FingerprintKey = "gpuguardLineHash/v1";

/// \p Line without leading and trailing whitespace, with every run of
/// whitespace inside it turned into one space: re-indenting a line keeps
/// its fingerprint.
std::string normalizeLineText(llvm::StringRef Line);

/// 32 hex digits of SHA-256 over the check, the relative path and the
/// normalized line text.
std::string lineHash(llvm::StringRef Check, llvm::StringRef RelativePath,
                     llvm::StringRef LineText);

/// Hands out "<hash>:<n>" in the order findings are numbered; number the
/// findings of a file in the order of reportedBefore.
class FingerprintNumbering {
public:
  std::string next(llvm::StringRef Hash);

private:
  llvm::StringMap<unsigned> Seen;
};

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_FINGERPRINT_H
