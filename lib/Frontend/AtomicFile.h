//===--- AtomicFile.h - Files written whole or not at all -------*- C++ -*-===//
///
/// \file
/// Caches and outputs that other runs read at the same time are written to
/// a temporary file beside their target and renamed over it, so that a
/// reader sees the old content, the new one, or none.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_ATOMICFILE_H
#define GPUGUARD_FRONTEND_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include <system_error>

namespace gpuguard::frontend {

/// Replaces \p Target with \p Text through a temporary file and a rename;
/// on failure nothing is left behind and the error says why (ENOSPC on a
/// full disk).
std::error_code writeAtomically(llvm::StringRef Target, llvm::StringRef Text);

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_ATOMICFILE_H
