//===--- TemporaryDirectoryTest.h - Tests over files on disk ----*- C++ -*-===//
///
/// \file
/// A test fixture that works in a fresh directory of its own, removed after
/// the test: the caches, the atomic writes and the compile databases are
/// tested on real files.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_UNITTESTS_TEMPORARYDIRECTORYTEST_H
#define GPUGUARD_UNITTESTS_TEMPORARYDIRECTORYTEST_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <string>

namespace gpuguard::test {

class TemporaryDirectoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<256> Created;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("gpuguard-test", Created));
    // Real paths, as a diff or a compile database names them: the
    // temporary directory may be reached through a link.
    ASSERT_FALSE(llvm::sys::fs::real_path(Created, Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// \p Name inside the directory; an absolute path stays as it is.
  std::string path(llvm::StringRef Name) const {
    if (llvm::sys::path::is_absolute(Name))
      return Name.str();
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    return std::string(Path);
  }

  /// Writes \p Text to \p Name, with the directories it needs; its path.
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string Path = path(Name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC) << Path;
    OS << Text;
    return Path;
  }

  /// The bytes of \p Name, or "<none>".
  std::string read(llvm::StringRef Name) const {
    auto Buffer = llvm::MemoryBuffer::getFile(path(Name));
    return Buffer ? (*Buffer)->getBuffer().str() : "<none>";
  }

  llvm::SmallString<256> Dir;
};

} // namespace gpuguard::test

#endif // GPUGUARD_UNITTESTS_TEMPORARYDIRECTORYTEST_H
