//===--- CompileCommands.h - Compile commands gpuguard parses ---*- C++ -*-===//
///
/// \file
/// Turns the compile commands of a project (or the flags after `--`, or none
/// at all) into the commands gpuguard parses each file with:
/// - an nvcc command gets Clang's flags instead of nvcc's (NvccFlags.h);
/// - every command gets Clang's resource directory, which a tool binary
///   outside Clang's installation cannot find by itself;
/// - a CUDA file (`.cu`, `.cuh`, or `-x cuda`) is parsed once per side,
///   device and host, each exactly once, with the installed toolkit or the
///   bundled headers, one GPU architecture and no libdevice.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_COMPILECOMMANDS_H
#define GPUGUARD_FRONTEND_COMPILECOMMANDS_H

#include "Frontend/CudaToolkit.h"
#include "Frontend/NvccFlags.h"
#include "Frontend/TorchDiscovery.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace gpuguard::frontend {

/// How CUDA headers are provided for this run.
struct CudaHeaders {
  std::optional<CudaToolkit> Toolkit; ///< Empty: use the bundled headers.
  std::string FallbackIncludeDir;
  /// Force-included with a toolkit: what nvcc declares and Clang's CUDA
  /// wrapper does not (host min/max, cache-hinted stores, ...). Empty: none.
  std::string NvccCompatHeader;
  std::string DefaultGpuArch = "sm_80";
  /// Searched after every other include directory, for C++ and CUDA files:
  /// where nvcc's host compiler finds `omp.h`. Empty: none.
  std::string HostOpenMPIncludeDir;
};

/// The include directory of the newest GCC installation under \p GccRoot
/// (`<GccRoot>/<target>/<version>/include`) that has `omp.h`, when Clang's
/// own headers under \p ClangResourceDir lack it; empty otherwise. nvcc
/// compiles host code with GCC, which finds `omp.h` there, so code that
/// includes it builds with nvcc without any flag.
std::string findHostOpenMPIncludeDir(llvm::StringRef ClangResourceDir,
                                     llvm::StringRef GccRoot = "/usr/lib/gcc");

bool isCudaSourcePath(llvm::StringRef File);
bool isCudaHeaderPath(llvm::StringRef File);

/// Rewrites one compile command into the commands to parse with. \p Warn
/// hears of the nvcc flags that had to be dropped unknown.
std::vector<clang::tooling::CompileCommand> adjustCompileCommand(
    const clang::tooling::CompileCommand &Command, const CudaHeaders &Headers,
    llvm::StringRef ClangResourceDir, NvccWarningHandler Warn = nullptr);

/// The compilation database in \p Directory, without the inference Clang
/// adds when it loads one: GpuGuardCompilationDatabase translates nvcc
/// commands first, and infers after.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadCompilationDatabase(llvm::StringRef Directory, std::string &Error);

/// A compilation database that answers with adjusted commands. The
/// underlying database is the one given or, with AutoDetect, the closest
/// compile_commands.json above the file; its nvcc commands are translated,
/// and the files it does not list (headers) get a neighbour's command. Files it
/// does not know get a default command, `clang++ <file>`; with TorchDefaults
/// set, that of a C++ file including LibTorch also gets an installed LibTorch's
/// headers.
class GpuGuardCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  GpuGuardCompilationDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Underlying,
      bool AutoDetect, CudaHeaders Headers, std::string ClangResourceDir);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;

  /// Gives the default commands of C++ files that include LibTorch its
  /// headers (and `-std=c++17`); \p Defaults must outlive the database.
  void setTorchDefaults(TorchDefaults *Defaults) { Torch = Defaults; }

  /// Where problems with nvcc commands go (unknown flags, unreadable
  /// options files): every time a command holding one is read, on the
  /// thread that reads it. \p Key is the same for every repeat of one
  /// problem, so that the caller can report each once per run, in an order
  /// that does not depend on which thread read which file first.
  using WarningHandler =
      std::function<void(llvm::StringRef Key, const llvm::Twine &Message)>;
  void setWarningHandler(WarningHandler Handler) { Warn = std::move(Handler); }

private:
  std::vector<clang::tooling::CompileCommand>
  getUnderlyingCommands(llvm::StringRef FilePath) const;
  void warn(llvm::StringRef Key, const llvm::Twine &Message) const;

  std::unique_ptr<clang::tooling::CompilationDatabase> Underlying;
  bool AutoDetect;
  CudaHeaders Headers;
  std::string ClangResourceDir;
  TorchDefaults *Torch = nullptr;
  WarningHandler Warn;
  mutable std::mutex DetectedMutex;
  mutable llvm::StringMap<std::shared_ptr<clang::tooling::CompilationDatabase>>
      Detected;
};

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_COMPILECOMMANDS_H
