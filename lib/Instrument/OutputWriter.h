//===--- OutputWriter.h - Where instrumented copies go ----------*- C++ -*-===//
///
/// \file
/// Instrumented copies mirror their source's absolute path under the output
/// directory, and each is written atomically: a temporary file beside the
/// target, renamed over it, so a failure leaves the old copy or none.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_INSTRUMENT_OUTPUTWRITER_H
#define GPUGUARD_INSTRUMENT_OUTPUTWRITER_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace gpuguard::instrument {

/// Proves that \p Directory can be created, if it does not exist, and
/// written to, leaving nothing behind: writeAtomically creates it when a
/// copy is written. Returns a one-line problem (with its fix) when it cannot
/// hold the copies.
std::optional<std::string> prepareOutputDirectory(llvm::StringRef Directory);

/// `<Directory>/<Source's absolute path without its root>`.
std::string mirroredPath(llvm::StringRef Directory, llvm::StringRef Source);

/// Why \p Target must not receive the copy of \p Source made for output
/// directory \p Directory, or nothing when it may: the copy is always written
/// beside its source, never over it. Refused: \p Target being \p Source
/// itself (`-o /`, or through links), and a \p Target that a symbolic link
/// inside the output directory leads out of it (into the source tree, say).
std::optional<std::string> refuseTarget(llvm::StringRef Directory,
                                        llvm::StringRef Source,
                                        llvm::StringRef Target);

/// Writes \p Text to \p Path through a temporary file and a rename. Returns
/// a one-line problem on failure, when nothing was written.
std::optional<std::string> writeAtomically(llvm::StringRef Path,
                                           llvm::StringRef Text);

} // namespace gpuguard::instrument

#endif // GPUGUARD_INSTRUMENT_OUTPUTWRITER_H
