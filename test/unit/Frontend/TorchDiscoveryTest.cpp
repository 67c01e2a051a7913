//===--- TorchDiscoveryTest.cpp -------------------------------------------===//

#include "Frontend/TorchDiscovery.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <optional>

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

TEST(TorchDiscoveryTest, TorchIncludesBySpelling) {
  EXPECT_TRUE(isTorchInclude("torch/torch.h"));
  EXPECT_TRUE(isTorchInclude("ATen/ATen.h"));
  EXPECT_TRUE(isTorchInclude("torch/script.h"));
  EXPECT_FALSE(isTorchInclude("vector"));
  EXPECT_FALSE(isTorchInclude("mytorch/torch.h"));
}

TEST(TorchDiscoveryTest, CudaRuntimeIncludesBySpelling) {
  EXPECT_TRUE(isCudaRuntimeInclude("ATen/cuda/CUDAContext.h"));
  EXPECT_TRUE(isCudaRuntimeInclude("c10/cuda/CUDAGuard.h"));
  EXPECT_TRUE(isCudaRuntimeInclude("cuda_runtime.h"));
  EXPECT_TRUE(isCudaRuntimeInclude("cuda.h"));
  EXPECT_TRUE(isCudaRuntimeInclude("cublas_v2.h"));
  EXPECT_FALSE(isCudaRuntimeInclude("ATen/ATen.h"));
  EXPECT_FALSE(isCudaRuntimeInclude("torch/extension.h"));
  // A project's own header that happens to start with "cuda".
  EXPECT_FALSE(isCudaRuntimeInclude("kernels/cuda_ops.h"));
  EXPECT_FALSE(isCudaRuntimeInclude("cudaops.hpp"));
}

TEST(TorchDiscoveryTest, PchCompatibleFlags) {
  EXPECT_TRUE(isPchCompatible({"clang++", "-Iinclude", "-I", "x", "-DN=1",
                               "-Wall", "-g", "-c", "-o", "a.o", "a.cpp"}));
  EXPECT_TRUE(isPchCompatible({"clang++", "-std=c++17", "-isystem", "/t"}));
  EXPECT_FALSE(isPchCompatible({"clang++", "-std=c++20", "a.cpp"}));
  EXPECT_FALSE(isPchCompatible({"clang++", "-std=gnu++17", "a.cpp"}));
  EXPECT_FALSE(isPchCompatible({"clang++", "-O2", "a.cpp"}));
  EXPECT_FALSE(isPchCompatible({"clang++", "-fopenmp", "a.cpp"}));
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

namespace {

/// A fake LibTorch ($LIBTORCH) and a project whose source reaches it only
/// through its own header.
class TorchProject : public FakeTorch {
protected:
  void SetUp() override {
    FakeTorch::SetUp();
    write((llvm::Twine("libtorch/") + Api + "torch.h").str(), "#pragma once\n");
    Model = write("proj/src/model.cpp", "#include \"model.h\"\nint f();\n");
    write("proj/include/model.h", "#pragma once\n#include <torch/torch.h>\n");
    Plain = write("proj/src/plain.cpp", "#include <vector>\n");
    const char *Old = getenv("LIBTORCH");
    Saved = Old ? std::optional<std::string>(Old) : std::nullopt;
    setenv("LIBTORCH", path("libtorch").c_str(), 1);
  }
  void TearDown() override {
    if (Saved)
      setenv("LIBTORCH", Saved->c_str(), 1);
    else
      unsetenv("LIBTORCH");
    FakeTorch::TearDown();
  }

  clang::tooling::CompileCommand command(std::string File,
                                         std::vector<std::string> Flags) {
    clang::tooling::CompileCommand Command;
    Command.Directory = path("proj");
    Command.Filename = File;
    Command.CommandLine = {"clang++"};
    llvm::append_range(Command.CommandLine, Flags);
    Command.CommandLine.push_back(File);
    return Command;
  }

  static bool has(const std::vector<std::string> &Flags, llvm::StringRef Flag) {
    return llvm::is_contained(Flags, Flag);
  }

  std::string Model, Plain;
  std::optional<std::string> Saved;
};

} // namespace

TEST_F(TorchProject, FollowsTheProjectsHeaders) {
  TorchDefaults Defaults({});
  std::vector<std::string> Flags =
      Defaults.flagsFor(command(Model, {"-Iinclude"}), /*OwnFlags=*/true);
  EXPECT_TRUE(has(Flags, "-isystem"));
  EXPECT_TRUE(has(Flags, "-std=c++17"));
  // Without the include directory, the header and LibTorch are not reached.
  EXPECT_TRUE(Defaults.flagsFor(command(Model, {}), false).empty());
  EXPECT_TRUE(Defaults.flagsFor(command(Plain, {"-Iinclude"}), true).empty());
}

TEST_F(TorchProject, ExtraArgsAreSearched) {
  TorchDefaults::Options Opts;
  Opts.ExtraArgs = {"-I" + path("proj/include")};
  TorchDefaults Defaults(std::move(Opts));
  EXPECT_TRUE(has(Defaults.flagsFor(command(Model, {}), false), "-isystem"));
}

TEST_F(TorchProject, OwnFlagsKeepTheirStandardAndTheirLibTorch) {
  TorchDefaults Defaults({});
  std::vector<std::string> Flags = Defaults.flagsFor(
      command(Model, {"-Iinclude", "-std=c++20"}), /*OwnFlags=*/true);
  EXPECT_TRUE(has(Flags, "-isystem"));
  EXPECT_FALSE(has(Flags, "-std=c++17"));
  std::string Api = path("libtorch/include/torch/csrc/api/include");
  EXPECT_TRUE(
      Defaults.flagsFor(command(Model, {"-Iinclude", "-isystem", Api}), true)
          .empty());
}

TEST_F(TorchProject, CudaSourcesGetLibTorchAndTheShimItLacks) {
  // c10/cuda's headers without the one LibTorch's CUDA build generates.
  write("libtorch/include/c10/cuda/CUDAMacros.h", "#pragma once\n");
  std::string Extension = write(
      "proj/src/ops.cu", "#include <torch/torch.h>\n__global__ void k();\n");
  TorchDefaults::Options Opts;
  Opts.CudaShimDir = path("shim");
  Opts.ExtraArgs = {"-I" + path("proj/include")};
  TorchDefaults Defaults(std::move(Opts));
  std::vector<std::string> Flags =
      Defaults.flagsFor(command(Extension, {}), /*OwnFlags=*/false);
  EXPECT_TRUE(has(Flags, path("libtorch/include/torch/csrc/api/include")));
  EXPECT_TRUE(has(Flags, path("shim")));
  EXPECT_FALSE(has(Flags, "-include-pch"));
  // A C++ source includes no c10/cuda through LibTorch: no shim.
  EXPECT_FALSE(has(Defaults.flagsFor(command(Model, {"-Iinclude"}), true),
                   path("shim")));

  // A LibTorch built with CUDA has its own copy.
  write("libtorch/include/c10/cuda/impl/cuda_cmake_macros.h", "#pragma once\n");
  TorchDefaults::Options WithCuda;
  WithCuda.CudaShimDir = path("shim");
  TorchDefaults Complete(std::move(WithCuda));
  EXPECT_FALSE(
      has(Complete.flagsFor(command(Extension, {}), false), path("shim")));
}

TEST_F(TorchProject, CxxSourcesThatIncludeCudaHeadersGetTheToolkit) {
  write("libtorch/include/c10/cuda/CUDAMacros.h", "#pragma once\n");
  // An extension's bindings: C++ that includes LibTorch's CUDA headers
  // through a header of its own.
  std::string Bindings =
      write("proj/src/bindings.cpp", "#include \"ops.h\"\nint g();\n");
  write("proj/include/ops.h", "#pragma once\n#include <torch/torch.h>\n"
                              "#include <ATen/cuda/CUDAContext.h>\n");
  TorchDefaults::Options Opts;
  Opts.CudaShimDir = path("shim");
  Opts.CudaIncludeDirs = {path("cuda/include"), path("cuda/include/cccl")};
  TorchDefaults Defaults(std::move(Opts));
  for (bool OwnFlags : {false, true}) {
    std::vector<std::string> Flags =
        Defaults.flagsFor(command(Bindings, {"-Iinclude"}), OwnFlags);
    EXPECT_TRUE(has(Flags, path("libtorch/include/torch/csrc/api/include")));
    EXPECT_TRUE(has(Flags, path("shim")));
    // After every other directory, so that it hides nothing.
    auto Toolkit = llvm::find(Flags, path("cuda/include"));
    ASSERT_NE(Toolkit, Flags.end());
    EXPECT_EQ(*std::prev(Toolkit), "-idirafter");
    EXPECT_TRUE(has(Flags, path("cuda/include/cccl")));
  }
  // LibTorch alone needs neither.
  std::vector<std::string> Flags =
      Defaults.flagsFor(command(Model, {"-Iinclude"}), true);
  EXPECT_FALSE(has(Flags, path("shim")));
  EXPECT_FALSE(has(Flags, path("cuda/include")));
}
