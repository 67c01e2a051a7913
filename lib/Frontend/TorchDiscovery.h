//===--- TorchDiscovery.h - Finding LibTorch --------------------*- C++ -*-===//
///
/// \file
/// Lets `gpuguard file.cpp` check a LibTorch program whose flags do not
/// name LibTorch (none at all, a project's own `-I` after `--`, a database
/// from another machine): a C++ file that reaches `<torch/...>` or
/// `<ATen/...>` through the includes the preprocessor would follow gets the
/// include directories of an installed LibTorch
/// ($Torch_DIR, $LIBTORCH, a CMake `Torch` package in the usual prefixes,
/// then Debian's layout under /usr) and `-std=c++17`. On request, a
/// precompiled header of `<torch/torch.h>` is built once into a cache
/// directory and reused, since that header alone takes seconds to parse.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_TORCHDISCOVERY_H
#define GPUGUARD_FRONTEND_TORCHDISCOVERY_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::frontend {

/// An installed LibTorch: `<Root>/include/torch/csrc/api/include/torch/
/// torch.h` exists.
struct TorchInstallation {
  std::string Root;
  std::string Version; ///< TORCH_VERSION of torch/version.h; empty if absent.
  std::string FoundBy; ///< How it was found, for the one-line message.
  /// Directories to pass with -isystem: the C++ API directory and
  /// `<Root>/include`, unless the latter is a default system directory.
  std::vector<std::string> IncludeDirs;
};

/// Reads the LibTorch unpacked at \p Root, or std::nullopt when \p Root holds
/// none.
std::optional<TorchInstallation> readTorchRoot(llvm::StringRef Root,
                                               llvm::StringRef FoundBy);

/// The LibTorch whose CMake package (the directory of TorchConfig.cmake) is
/// \p PackageDir: the nearest directory above it holding LibTorch.
std::optional<TorchInstallation> readTorchPackage(llvm::StringRef PackageDir,
                                                  llvm::StringRef FoundBy);

/// The first LibTorch found from $Torch_DIR, $LIBTORCH, a CMake Torch package
/// under the search prefixes, then headers under the prefixes themselves
/// (Debian's libtorch-dev installs them to /usr/include). The prefixes are
/// /usr/local, /usr and /opt/libtorch, or $GPUGUARD_TORCH_PREFIXES
/// (colon-separated) when set.
std::optional<TorchInstallation> findTorch();

/// Whether an include, as spelled, names a LibTorch header.
bool isTorchInclude(llvm::StringRef Spelled);

/// Whether an include, as spelled, names a header that needs the CUDA
/// toolkit's headers in a C++ source: LibTorch's CUDA headers (`ATen/cuda/`,
/// `c10/cuda/`) or the toolkit's own (`cuda_runtime.h`, `cublas_v2.h`).
bool isCudaRuntimeInclude(llvm::StringRef Spelled);

/// Whether the arguments of a command with flags of its own leave a
/// precompiled `<torch/torch.h>` usable: Clang rejects one built with
/// another language standard, optimisation level or feature flag.
bool isPchCompatible(llvm::ArrayRef<std::string> Arguments);

/// Whether \p File is a C++ (not C, not CUDA) source or header by its name.
bool isCxxPath(llvm::StringRef File);

/// Where precompiled headers are cached: $XDG_CACHE_HOME/gpuguard, or
/// ~/.cache/gpuguard.
std::string defaultCacheDir();

/// Where getTorchPch keeps the precompiled header for \p Torch.
std::string torchPchPath(const TorchInstallation &Torch,
                         llvm::StringRef CacheDir, llvm::StringRef ToolVersion);

/// Returns the precompiled header of `<torch/torch.h>` for \p Torch from
/// \p CacheDir, building it in-process first when it is not there. The file
/// name is keyed by the LibTorch path, version and headers, \p ToolVersion
/// and Clang's version; it is written to a temporary file and renamed, so
/// concurrent runs never see a partial one.
llvm::Expected<std::string> getTorchPch(const TorchInstallation &Torch,
                                        llvm::StringRef CacheDir,
                                        llvm::StringRef ToolVersion,
                                        llvm::StringRef ClangResourceDir,
                                        bool &Built);

/// Decides once per run which LibTorch the default commands of files that
/// include it use. What it decided is said again for every such file
/// (Note, Warn), so that a caller checking files in parallel can print it
/// once, with the first of them in input order; only Progress, said while
/// the decision is being made, comes as it happens.
class TorchDefaults {
public:
  struct Options {
    bool UsePch = false;
    std::string CacheDir;
    std::string ToolVersion;
    std::string ClangResourceDir;
    std::function<void(const llvm::Twine &)> Note;
    std::function<void(const llvm::Twine &)> Warn;
    /// --extra-arg and --extra-arg-before: their include directories are
    /// searched too when deciding whether a file reaches LibTorch.
    std::vector<std::string> ExtraArgs;
    /// Something slow starts (precompiling <torch/torch.h>).
    std::function<void(const llvm::Twine &)> Progress;
    /// Headers that stand in for what a LibTorch built without CUDA lacks
    /// for CUDA sources (c10/cuda/impl/cuda_cmake_macros.h).
    std::string CudaShimDir;
    /// The CUDA toolkit's include directories, which nvcc gives CUDA
    /// sources and PyTorch's CUDAExtension gives C++ sources too; empty
    /// when no toolkit is installed.
    std::vector<std::string> CudaIncludeDirs;
  };

  explicit TorchDefaults(Options Opts) : Opts(std::move(Opts)) {}

  /// Flags that give \p Command LibTorch, to go after the compiler: empty
  /// unless its file is C++ or CUDA (never given the precompiled header)
  /// that reaches a LibTorch header through the
  /// includes the preprocessor would follow (beside each file and in the
  /// command's include directories) and the command does not find LibTorch
  /// itself. A command with flags of its own (\p OwnFlags: `--`, -p) keeps
  /// its language standard, and gets the precompiled header only when
  /// nothing in it changes how the header would be compiled. A C++ file
  /// that also reaches a CUDA header (an extension's bindings including
  /// ATen/cuda/CUDAContext.h) gets the toolkit's headers too, as PyTorch's
  /// CUDAExtension gives them.
  std::vector<std::string>
  flagsFor(const clang::tooling::CompileCommand &Command, bool OwnFlags);

private:
  void decide();

  Options Opts;
  std::once_flag Decided;
  std::vector<std::string> Flags;
  /// Added for CUDA sources, and for C++ sources that include CUDA headers
  /// (isCudaRuntimeInclude) with CxxCudaFlags after them.
  std::vector<std::string> CudaFlags;
  /// The toolkit's headers, which Clang adds to CUDA sources only.
  std::vector<std::string> CxxCudaFlags;
  /// Where Flags has `-include-pch`, and its path.
  std::optional<size_t> PchFlag;
  /// What decide() has to say: (is a warning, text).
  std::vector<std::pair<bool, std::string>> Messages;
};

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_TORCHDISCOVERY_H
