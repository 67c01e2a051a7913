//===--- CompileCommandsTest.cpp ------------------------------------------===//

#include "Frontend/CompileCommands.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace gpuguard::frontend;
using clang::tooling::CompileCommand;

namespace {

CompileCommand command(std::vector<std::string> Args, std::string File) {
  CompileCommand Command;
  Command.Directory = "/src";
  Command.Filename = File;
  Command.CommandLine = std::move(Args);
  return Command;
}

bool has(const CompileCommand &Command, llvm::StringRef Arg) {
  return llvm::is_contained(Command.CommandLine, Arg);
}

CudaHeaders toolkit(unsigned Major, unsigned Minor) {
  CudaHeaders Headers;
  Headers.Toolkit =
      CudaToolkit{"/opt/cuda", Major, Minor, /*CcclIncludeDir=*/""};
  Headers.FallbackIncludeDir = "/fallback";
  return Headers;
}

TEST(CompileCommandsTest, CppFilesGetOnlyTheResourceDir) {
  auto Out = adjustCompileCommand(command({"c++", "-O2", "a.cpp"}, "a.cpp"),
                                  toolkit(12, 4), "/res");
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(
      Out[0].CommandLine,
      std::vector<std::string>({"c++", "-resource-dir=/res", "-O2", "a.cpp"}));
}

TEST(CompileCommandsTest, HostOpenMPHeadersAreSearchedLast) {
  CudaHeaders Headers = toolkit(12, 4);
  Headers.HostOpenMPIncludeDir = "/gcc/include";
  for (const char *File : {"a.cpp", "k.cu"}) {
    auto Out = adjustCompileCommand(
        command({"clang++", "-I", "mine", File}, File), Headers, "/res");
    for (const CompileCommand &C : Out) {
      auto At = llvm::find(C.CommandLine, "/gcc/include");
      ASSERT_NE(At, C.CommandLine.end()) << File;
      EXPECT_EQ(*std::prev(At), "-idirafter");
    }
  }
}

TEST(CompileCommandsTest, FindsTheNewestGccOpenMPHeader) {
  llvm::SmallString<128> Root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gcc-root", Root));
  auto Touch = [&](llvm::StringRef Relative) {
    llvm::SmallString<128> Path(Root);
    llvm::sys::path::append(Path, Relative);
    ASSERT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)));
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << "";
    ASSERT_FALSE(EC);
  };
  Touch("x86_64-linux-gnu/9/include/omp.h");
  Touch("x86_64-linux-gnu/12/include/omp.h");
  Touch("x86_64-linux-gnu/13/include/stddef.h"); // no omp.h: not chosen
  Touch("res/include/stddef.h");
  std::string Found =
      findHostOpenMPIncludeDir((Root + "/res").str(), Root.str());
  EXPECT_EQ(Found, (Root + "/x86_64-linux-gnu/12/include").str());
  // Clang's own omp.h wins: nothing is added.
  Touch("res/include/omp.h");
  EXPECT_EQ(findHostOpenMPIncludeDir((Root + "/res").str(), Root.str()), "");
  llvm::sys::fs::remove_directories(Root);
}

TEST(CompileCommandsTest, DeviceSideLaunchesAreAccepted) {
  auto Out = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"),
                                  toolkit(12, 4), "/res");
  for (const CompileCommand &C : Out)
    EXPECT_TRUE(has(C, "-fgpu-rdc"));
  // Not for C++ files, and not twice.
  auto Cpp = adjustCompileCommand(command({"c++", "a.cpp"}, "a.cpp"),
                                  toolkit(12, 4), "/res");
  EXPECT_FALSE(has(Cpp[0], "-fgpu-rdc"));
  auto Given =
      adjustCompileCommand(command({"clang++", "-fgpu-rdc", "k.cu"}, "k.cu"),
                           toolkit(12, 4), "/res");
  EXPECT_EQ(llvm::count(Given[0].CommandLine, "-fgpu-rdc"), 1);
}

TEST(CompileCommandsTest, CudaFilesAreParsedOncePerSide) {
  auto Out = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"),
                                  toolkit(12, 4), "/res");
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_TRUE(has(Out[0], "--cuda-device-only"));
  EXPECT_TRUE(has(Out[1], "--cuda-host-only"));
  for (const CompileCommand &C : Out) {
    EXPECT_TRUE(has(C, "--cuda-path=/opt/cuda"));
    EXPECT_TRUE(has(C, "-nocudalib"));
    EXPECT_TRUE(has(C, "--cuda-gpu-arch=sm_80"));
    // 12.4 is known to Clang 22: no version override.
    EXPECT_FALSE(has(C, "-target-sdk-version=12.9"));
  }
}

TEST(CompileCommandsTest, Cuda13CcclHeadersAreSystemIncludes) {
  CudaHeaders Headers = toolkit(13, 0);
  Headers.Toolkit->CcclIncludeDir = "/opt/cuda/include/cccl";
  auto Out = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"), Headers,
                                  "/res");
  for (const CompileCommand &C : Out) {
    auto At = llvm::find(C.CommandLine, "/opt/cuda/include/cccl");
    ASSERT_NE(At, C.CommandLine.end());
    EXPECT_EQ(*std::prev(At), "-isystem");
  }
  // A toolkit without include/cccl (CUDA 12) adds none.
  auto Twelve = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"),
                                     toolkit(12, 4), "/res");
  EXPECT_FALSE(has(Twelve[0], "-isystem"));
}

TEST(CompileCommandsTest, NvccCompatHeaderIsForceIncludedWithAToolkit) {
  CudaHeaders Headers = toolkit(13, 0);
  Headers.NvccCompatHeader = "/share/compat/__gpuguard_nvcc_compat.h";
  auto Out = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"), Headers,
                                  "/res");
  for (const CompileCommand &C : Out) {
    auto At = llvm::find(C.CommandLine, Headers.NvccCompatHeader);
    ASSERT_NE(At, C.CommandLine.end());
    EXPECT_EQ(*std::prev(At), "-include");
  }
  // The bundled headers declare what they need themselves, and -nocudainc
  // means the user brings every CUDA declaration.
  CudaHeaders Bundled;
  Bundled.FallbackIncludeDir = "/fallback";
  Bundled.NvccCompatHeader = Headers.NvccCompatHeader;
  auto Fallback = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"),
                                       Bundled, "/res");
  EXPECT_FALSE(has(Fallback[0], Headers.NvccCompatHeader));
  auto NoInc = adjustCompileCommand(
      command({"clang++", "-nocudainc", "k.cu"}, "k.cu"), Headers, "/res");
  EXPECT_FALSE(has(NoInc[0], Headers.NvccCompatHeader));
  // C++ files are not CUDA.
  auto Cpp = adjustCompileCommand(command({"clang++", "a.cpp"}, "a.cpp"),
                                  Headers, "/res");
  EXPECT_FALSE(has(Cpp[0], Headers.NvccCompatHeader));
}

TEST(CompileCommandsTest, NewerToolkitsAreParsedAsTheNewestKnown) {
  auto Out = adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"),
                                  toolkit(13, 0), "/res");
  EXPECT_TRUE(has(Out[0], "-target-sdk-version=12.9"));
}

TEST(CompileCommandsTest, BundledHeadersWithoutToolkit) {
  CudaHeaders Headers;
  Headers.FallbackIncludeDir = "/fallback";
  auto Out =
      adjustCompileCommand(command({"clang++", "k.cu"}, "k.cu"), Headers, "/r");
  EXPECT_TRUE(has(Out[0], "-nocudainc"));
  EXPECT_TRUE(has(Out[0], "/fallback"));
  EXPECT_TRUE(has(Out[0], "__gpuguard_cuda_fallback.h"));
}

TEST(CompileCommandsTest, UserChoicesWin) {
  auto Out = adjustCompileCommand(
      command({"clang++", "--cuda-path=/mine", "--cuda-gpu-arch=sm_90",
               "--cuda-device-only", "k.cu"},
              "k.cu"),
      toolkit(12, 4), "/res");
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_FALSE(has(Out[0], "--cuda-path=/opt/cuda"));
  EXPECT_FALSE(has(Out[0], "--cuda-gpu-arch=sm_80"));
}

TEST(CompileCommandsTest, CudaHeadersAreParsedAsCuda) {
  auto Out = adjustCompileCommand(command({"clang++", "k.cuh"}, "k.cuh"),
                                  toolkit(12, 4), "/res");
  EXPECT_TRUE(has(Out[0], "-xcuda"));
  EXPECT_TRUE(isCudaSourcePath("x/K.CU"));
  EXPECT_FALSE(isCudaSourcePath("x/k.cpp"));
}

TEST(CompileCommandsTest, ToolkitSearchPathsCanBeReplaced) {
  const char *Saved = std::getenv("GPUGUARD_CUDA_SEARCH_PATHS");
  std::optional<std::string> Restore;
  if (Saved)
    Restore = Saved;
  ::unsetenv("GPUGUARD_CUDA_SEARCH_PATHS");
  EXPECT_EQ(cudaSearchPaths(), std::vector<std::string>({"/usr/local/cuda"}));
  ::setenv("GPUGUARD_CUDA_SEARCH_PATHS", "/opt/cuda-12.4::/opt/cuda", 1);
  EXPECT_EQ(cudaSearchPaths(),
            std::vector<std::string>({"/opt/cuda-12.4", "/opt/cuda"}));
  ::setenv("GPUGUARD_CUDA_SEARCH_PATHS", "", 1);
  EXPECT_TRUE(cudaSearchPaths().empty());
  if (Restore)
    ::setenv("GPUGUARD_CUDA_SEARCH_PATHS", Restore->c_str(), 1);
  else
    ::unsetenv("GPUGUARD_CUDA_SEARCH_PATHS");
}

} // namespace
