//===--- CudaToolkit.h - Finding the CUDA headers to parse with -*- C++ -*-===//
///
/// \file
/// Decides which CUDA headers a `.cu` file is parsed with: an installed
/// toolkit (--cuda-path, $CUDA_PATH, /usr/local/cuda), or, when none is
/// installed, the minimal headers gpuguard ships so that a laptop without
/// CUDA can still run the checks.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_CUDATOOLKIT_H
#define GPUGUARD_FRONTEND_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::frontend {

struct CudaToolkit {
  std::string Path;
  unsigned Major = 0; ///< 0 when cuda.h does not say.
  unsigned Minor = 0;
  /// include/cccl, where CUDA 13 keeps libcu++, CUB and Thrust: nvcc adds it
  /// as a system include (bin/nvcc.profile), Clang does not. Empty when the
  /// toolkit has none (CUDA 12 keeps them in include/).
  std::string CcclIncludeDir;
};

/// Reads the toolkit at \p Path, or std::nullopt when \p Path has no
/// include/cuda.h.
std::optional<CudaToolkit> readCudaToolkit(llvm::StringRef Path);

/// With \p ExplicitPath (from --cuda-path), that toolkit or nothing.
/// Otherwise the first of $CUDA_PATH and cudaSearchPaths() that holds one.
std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef ExplicitPath);

/// Where a toolkit is looked for after $CUDA_PATH: /usr/local/cuda, or the
/// list in $GPUGUARD_CUDA_SEARCH_PATHS (separated like $PATH) when set.
std::vector<std::string> cudaSearchPaths();

/// The directory holding the bundled fallback headers: next to the binary
/// in `../share/gpuguard/cuda-fallback/include`, or \p Override.
std::string findFallbackHeaders(const char *Argv0, llvm::StringRef Override);

/// The headers installed beside \p FallbackIncludeDir (`../torch`) that
/// stand in for what a LibTorch built without CUDA lacks for CUDA sources;
/// empty when they are missing.
std::string torchShimHeaders(llvm::StringRef FallbackIncludeDir);

/// The nvcc compatibility header installed beside \p FallbackIncludeDir
/// (`../compat/__gpuguard_nvcc_compat.h`); empty when it is missing.
std::string nvccCompatHeader(llvm::StringRef FallbackIncludeDir);

/// The newest CUDA version Clang 22 knows about; newer toolkits parse fine
/// when Clang is told to treat them as this version.
constexpr unsigned MaxKnownCudaMajor = 12, MaxKnownCudaMinor = 9;

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_CUDATOOLKIT_H
