//===--- AtomicFile.cpp - Files written whole or not at all ---------------===//

#include "Support/AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;

namespace gpuguard::support {

std::error_code writeAtomically(llvm::StringRef Target, llvm::StringRef Text,
                                AtomicWriteStep *FailedStep) {
  auto Failed = [FailedStep](AtomicWriteStep Step, std::error_code EC) {
    if (FailedStep)
      *FailedStep = Step;
    return EC;
  };
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC =
          fs::createUniqueFile(Target + "-%%%%%%%%.tmp", FD, Temp))
    return Failed(AtomicWriteStep::CreateTemporary, EC);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      fs::remove(Temp);
      return Failed(AtomicWriteStep::Write, EC);
    }
  }
  if (std::error_code EC = fs::rename(Temp, Target)) {
    fs::remove(Temp);
    return Failed(AtomicWriteStep::Rename, EC);
  }
  return {};
}

} // namespace gpuguard::support
