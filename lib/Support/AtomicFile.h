//===--- AtomicFile.h - Files written whole or not at all -------*- C++ -*-===//
///
/// \file
/// Caches and outputs that other runs read at the same time are written to
/// a temporary file beside their target and renamed over it, so that a
/// reader sees the old content, the new one, or none.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_SUPPORT_ATOMICFILE_H
#define GPUGUARD_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include <system_error>

namespace gpuguard::support {

/// The step of writeAtomically() that failed, for a message that says what
/// to do about it.
enum class AtomicWriteStep {
  /// No temporary file could be made beside the target.
  CreateTemporary,
  /// Writing the bytes failed (a full disk).
  Write,
  /// The temporary file could not replace the target (a directory there).
  Rename,
};

/// Replaces \p Target with \p Text through a temporary file and a rename;
/// on failure nothing is left behind, the error says why (ENOSPC on a full
/// disk) and \p FailedStep, when given, which step failed.
std::error_code writeAtomically(llvm::StringRef Target, llvm::StringRef Text,
                                AtomicWriteStep *FailedStep = nullptr);

} // namespace gpuguard::support

#endif // GPUGUARD_SUPPORT_ATOMICFILE_H
