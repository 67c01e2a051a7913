//===--- CudaToolkit.cpp - Finding the CUDA headers to parse with ---------===//

#include "Frontend/CudaToolkit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace gpuguard::frontend {

std::optional<CudaToolkit> readCudaToolkit(llvm::StringRef Path) {
  llvm::SmallString<256> Header(Path);
  llvm::sys::path::append(Header, "include", "cuda.h");
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer)
    return std::nullopt;
  CudaToolkit Toolkit;
  Toolkit.Path = Path.str();
  // cuda.h says `#define CUDA_VERSION 13000` for 13.0.
  llvm::StringRef Text = (*Buffer)->getBuffer();
  size_t At = Text.find("#define CUDA_VERSION");
  if (At != llvm::StringRef::npos) {
    llvm::StringRef Rest =
        Text.substr(At + strlen("#define CUDA_VERSION")).ltrim();
    unsigned Version = 0;
    if (!Rest.consumeInteger(10, Version)) {
      Toolkit.Major = Version / 1000;
      Toolkit.Minor = (Version % 1000) / 10;
    }
  }
  llvm::SmallString<256> Cccl(Path);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl))
    Toolkit.CcclIncludeDir = std::string(Cccl);
  return Toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef ExplicitPath) {
  if (!ExplicitPath.empty())
    return readCudaToolkit(ExplicitPath);
  if (std::optional<std::string> FromEnv =
          llvm::sys::Process::GetEnv("CUDA_PATH"))
    if (!FromEnv->empty())
      if (auto Toolkit = readCudaToolkit(*FromEnv))
        return Toolkit;
  for (const std::string &Candidate : cudaSearchPaths())
    if (auto Toolkit = readCudaToolkit(Candidate))
      return Toolkit;
  return std::nullopt;
}

std::vector<std::string> cudaSearchPaths() {
  // GPUGUARD_CUDA_SEARCH_PATHS replaces the list, for packagers whose
  // toolkits live elsewhere and for tests that model a machine without a
  // toolkit on one that has it. Set but empty, it names none.
  std::optional<std::string> Override =
      llvm::sys::Process::GetEnv("GPUGUARD_CUDA_SEARCH_PATHS");
  if (!Override)
    return {"/usr/local/cuda"};
  llvm::SmallVector<llvm::StringRef, 4> Paths;
  llvm::StringRef(*Override).split(Paths, llvm::sys::EnvPathSeparator,
                                   /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Paths.begin(), Paths.end());
}

std::string findFallbackHeaders(const char *Argv0, llvm::StringRef Override) {
  if (!Override.empty())
    return Override.str();
  std::string Executable = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findFallbackHeaders));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Executable));
  llvm::sys::path::append(Dir, "..", "share", "gpuguard", "cuda-fallback");
  llvm::sys::path::append(Dir, "include");
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return std::string(Dir);
}

std::string torchShimHeaders(llvm::StringRef FallbackIncludeDir) {
  llvm::SmallString<256> Dir(FallbackIncludeDir);
  llvm::sys::path::remove_filename(Dir);
  llvm::sys::path::append(Dir, "torch");
  if (!llvm::sys::fs::is_directory(Dir))
    return "";
  return std::string(Dir);
}

std::string nvccCompatHeader(llvm::StringRef FallbackIncludeDir) {
  llvm::SmallString<256> Path(FallbackIncludeDir);
  llvm::sys::path::remove_filename(Path);
  llvm::sys::path::append(Path, "compat", "__gpuguard_nvcc_compat.h");
  if (!llvm::sys::fs::exists(Path))
    return "";
  return std::string(Path);
}

} // namespace gpuguard::frontend
