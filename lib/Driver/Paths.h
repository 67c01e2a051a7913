//===--- Paths.h - How the driver names files -------------------*- C++ -*-===//
///
/// \file
/// One spelling of a path for comparing inputs, findings and diffs, whatever
/// directory or `..` they were named from.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_PATHS_H
#define GPUGUARD_DRIVER_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace gpuguard {

/// \p Path made absolute against the working directory, without `.` and
/// `..` components. Symbolic links are kept.
std::string makeAbsolute(llvm::StringRef Path);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_PATHS_H
