//===--- AtomicFileTest.cpp - Files written whole or not at all -----------===//

#include "Support/AtomicFile.h"
#include "TemporaryDirectoryTest.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace gpuguard::support;
namespace fs = llvm::sys::fs;

namespace {

class AtomicFileTest : public gpuguard::test::TemporaryDirectoryTest {
protected:
  std::vector<std::string> names() {
    std::vector<std::string> Names;
    std::error_code EC;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
    return Names;
  }
};

TEST_F(AtomicFileTest, WritesAndReplacesWholeFiles) {
  std::string Target = path("entry");
  EXPECT_FALSE(writeAtomically(Target, "first"));
  EXPECT_EQ(read(Target), "first");
  EXPECT_FALSE(writeAtomically(Target, "second, longer"));
  EXPECT_EQ(read(Target), "second, longer");
  EXPECT_EQ(names(), std::vector<std::string>{"entry"});
}

TEST_F(AtomicFileTest, FailuresNameTheirStepAndLeaveNothing) {
  AtomicWriteStep Failed = AtomicWriteStep::Write;
  // No directory to make the temporary file in.
  EXPECT_TRUE(writeAtomically(path("missing/entry"), "x", &Failed));
  EXPECT_EQ(Failed, AtomicWriteStep::CreateTemporary);
  // A non-empty directory where the file must go.
  std::string Occupied = path("occupied");
  ASSERT_FALSE(fs::create_directories(Occupied + "/inside"));
  EXPECT_TRUE(writeAtomically(Occupied, "x", &Failed));
  EXPECT_EQ(Failed, AtomicWriteStep::Rename);
  EXPECT_EQ(names(), std::vector<std::string>{"occupied"});
}

} // namespace
