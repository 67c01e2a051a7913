//===--- Paths.cpp - How the driver names files ---------------------------===//

#include "Driver/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace gpuguard {

std::string makeAbsolute(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

} // namespace gpuguard
