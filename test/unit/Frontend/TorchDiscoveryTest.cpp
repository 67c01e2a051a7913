//===--- TorchDiscoveryTest.cpp -------------------------------------------===//

#include "Frontend/TorchDiscovery.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace gpuguard::frontend;

namespace {

/// A fake LibTorch tree in a fresh temporary directory.
class FakeTorch : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gpuguard-torch", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(llvm::StringRef Relative, llvm::StringRef Text) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
    return std::string(Path);
  }

  std::string path(llvm::StringRef Relative) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Relative);
    return std::string(Path);
  }

  llvm::SmallString<256> Dir;
};

constexpr llvm::StringLiteral Api = "include/torch/csrc/api/include/torch/";

TEST(TorchDiscoveryTest, IncludesTorchIsTextual) {
  EXPECT_TRUE(includesTorch("#include <torch/torch.h>\n"));
  EXPECT_TRUE(includesTorch("int x;\n#  include <ATen/ATen.h>\n"));
  EXPECT_TRUE(includesTorch("#include \"torch/script.h\"\n"));
  EXPECT_FALSE(includesTorch("#include <vector>\n// torch/torch.h\n"));
  EXPECT_FALSE(includesTorch("#include <mytorch/torch.h>\n"));
}

TEST(TorchDiscoveryTest, OnlyCxxPaths) {
  EXPECT_TRUE(isCxxPath("a/train.cpp"));
  EXPECT_TRUE(isCxxPath("model.hpp"));
  EXPECT_FALSE(isCxxPath("k.cu"));
  EXPECT_FALSE(isCxxPath("main.c"));
}

TEST_F(FakeTorch, ReadsRootAndVersion) {
  write((Api + "torch.h").str(), "#pragma once\n");
  write((Api + "version.h").str(),
        "#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION \\\n  "
        "\"2.1.0\"\n");
  std::optional<TorchInstallation> Torch = readTorchRoot(Dir, "test");
  ASSERT_TRUE(Torch);
  EXPECT_EQ(Torch->Root, std::string(Dir));
  EXPECT_EQ(Torch->Version, "2.1.0");
  EXPECT_EQ(Torch->FoundBy, "test");
  EXPECT_EQ(Torch->IncludeDirs,
            std::vector<std::string>(
                {path("include/torch/csrc/api/include"), path("include")}));
}

TEST_F(FakeTorch, NoVersionHeader) {
  write((Api + "torch.h").str(), "#pragma once\n");
  std::optional<TorchInstallation> Torch = readTorchRoot(Dir, "test");
  ASSERT_TRUE(Torch);
  EXPECT_EQ(Torch->Version, "");
}

TEST_F(FakeTorch, NoTorchHeaderIsNoLibTorch) {
  write((Api + "version.h").str(), "#define TORCH_VERSION \"1.0\"\n");
  EXPECT_FALSE(readTorchRoot(Dir, "test"));
  EXPECT_FALSE(readTorchRoot("", "test"));
}

TEST_F(FakeTorch, PackageDirFindsTheRootAbove) {
  write((Api + "torch.h").str(), "#pragma once\n");
  write("lib/x86_64-linux-gnu/cmake/Torch/TorchConfig.cmake", "");
  std::optional<TorchInstallation> Torch =
      readTorchPackage(path("lib/x86_64-linux-gnu/cmake/Torch"), "pkg");
  ASSERT_TRUE(Torch);
  EXPECT_EQ(Torch->Root, std::string(Dir));
}

TEST_F(FakeTorch, PchPathDependsOnTheInstallation) {
  write((Api + "torch.h").str(), "#pragma once\n");
  std::optional<TorchInstallation> Torch = readTorchRoot(Dir, "test");
  ASSERT_TRUE(Torch);
  std::string First = torchPchPath(*Torch, "/cache", "1.0");
  EXPECT_TRUE(llvm::StringRef(First).starts_with("/cache/torch-"));
  EXPECT_TRUE(llvm::StringRef(First).ends_with(".pch"));
  EXPECT_EQ(First, torchPchPath(*Torch, "/cache", "1.0"));
  EXPECT_NE(First, torchPchPath(*Torch, "/cache", "1.1"));
  TorchInstallation Other = *Torch;
  Other.Version = "9.9";
  EXPECT_NE(First, torchPchPath(Other, "/cache", "1.0"));
}

} // namespace
