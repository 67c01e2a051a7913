//===--- CompileCommands.cpp - Compile commands gpuguard parses with ------===//

#include "Frontend/CompileCommands.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VersionTuple.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang::tooling;

namespace gpuguard::frontend {

bool isCudaHeaderPath(llvm::StringRef File) {
  return llvm::sys::path::extension(File).equals_insensitive(".cuh");
}

bool isCudaSourcePath(llvm::StringRef File) {
  return llvm::sys::path::extension(File).equals_insensitive(".cu") ||
         isCudaHeaderPath(File);
}

namespace {

bool hasArg(llvm::ArrayRef<std::string> Args, llvm::StringRef Flag) {
  return llvm::any_of(Args, [&](const std::string &A) { return A == Flag; });
}

bool hasArgPrefix(llvm::ArrayRef<std::string> Args, llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}

/// The value of `--cuda-path=X` or `--cuda-path X`, if given.
std::optional<std::string> userCudaPath(llvm::ArrayRef<std::string> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.consume_front("--cuda-path="))
      return Arg.str();
    if (Arg == "--cuda-path" && I + 1 < Args.size())
      return Args[I + 1];
  }
  return std::nullopt;
}

bool isCudaCommand(const CompileCommand &Command) {
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-xcuda" || Args[I] == "--language=cuda")
      return true;
    if ((Args[I] == "-x" || Args[I] == "--language") && I + 1 < Args.size() &&
        Args[I + 1] == "cuda")
      return true;
  }
  return isCudaSourcePath(Command.Filename);
}

bool isNewerThanClangKnows(const CudaToolkit &Toolkit) {
  return Toolkit.Major == 0 || Toolkit.Major > MaxKnownCudaMajor ||
         (Toolkit.Major == MaxKnownCudaMajor &&
          Toolkit.Minor > MaxKnownCudaMinor);
}

} // namespace

std::string findHostOpenMPIncludeDir(llvm::StringRef ClangResourceDir,
                                     llvm::StringRef GccRoot) {
  llvm::SmallString<256> Own(ClangResourceDir);
  llvm::sys::path::append(Own, "include", "omp.h");
  if (llvm::sys::fs::exists(Own))
    return "";
  std::string Best;
  llvm::VersionTuple BestVersion;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator Target(GccRoot, EC), End;
       !EC && Target != End; Target.increment(EC)) {
    std::error_code VersionEC;
    for (llvm::sys::fs::directory_iterator Version(Target->path(), VersionEC);
         !VersionEC && Version != End; Version.increment(VersionEC)) {
      llvm::VersionTuple Number;
      if (Number.tryParse(llvm::sys::path::filename(Version->path())) ||
          Number <= BestVersion)
        continue;
      llvm::SmallString<256> Header(Version->path());
      llvm::sys::path::append(Header, "include", "omp.h");
      if (!llvm::sys::fs::exists(Header))
        continue;
      Best = llvm::sys::path::parent_path(Header).str();
      BestVersion = Number;
    }
  }
  return Best;
}

std::vector<CompileCommand>
adjustCompileCommand(const CompileCommand &Command, const CudaHeaders &Headers,
                     llvm::StringRef ClangResourceDir,
                     NvccWarningHandler Warn) {
  CompileCommand Adjusted = Command;
  std::vector<std::string> &Args = Adjusted.CommandLine;
  if (isNvccCommandLine(Args))
    Args = translateNvccCommandLine(Command, Warn);
  if (Args.empty())
    Args.push_back("clang++");
  // Flags go right after the compiler so that the user's own, later flags
  // still win where both are given.
  std::vector<std::string> Added;
  if (!hasArgPrefix(Args, "-resource-dir"))
    Added.push_back("-resource-dir=" + ClangResourceDir.str());
  // Searched last, so that Clang's own headers always win.
  if (!Headers.HostOpenMPIncludeDir.empty())
    Added.insert(Added.end(), {"-idirafter", Headers.HostOpenMPIncludeDir});

  if (!isCudaCommand(Adjusted)) {
    Args.insert(Args.begin() + 1, Added.begin(), Added.end());
    return {Adjusted};
  }

  if (isCudaHeaderPath(Command.Filename) && !hasArgPrefix(Args, "-x"))
    Added.push_back("-xcuda");
  std::optional<CudaToolkit> Toolkit;
  if (std::optional<std::string> UserPath = userCudaPath(Args)) {
    Toolkit = readCudaToolkit(*UserPath);
  } else if (!hasArg(Args, "-nocudainc")) {
    Toolkit = Headers.Toolkit;
    if (Toolkit) {
      Added.push_back("--cuda-path=" + Toolkit->Path);
    } else {
      Added.insert(Added.end(),
                   {"-nocudainc", "-isystem", Headers.FallbackIncludeDir,
                    "-include", "__gpuguard_cuda_fallback.h"});
    }
  }
  if (Toolkit && !Toolkit->CcclIncludeDir.empty() &&
      !hasArg(Args, "-nocudainc")) {
    Added.push_back("-isystem");
    Added.push_back(Toolkit->CcclIncludeDir);
  }
  if (Toolkit && !Headers.NvccCompatHeader.empty() &&
      !hasArg(Args, "-nocudainc")) {
    Added.push_back("-include");
    Added.push_back(Headers.NvccCompatHeader);
  }
  if (!hasArg(Args, "-nocudalib"))
    Added.push_back("-nocudalib");
  // Kernels that launch kernels only build with relocatable device code
  // (nvcc -rdc=true), which is not a parse flag for any other code: accept
  // such launches whatever the flags say.
  if (!hasArg(Args, "-fgpu-rdc"))
    Added.push_back("-fgpu-rdc");
  if (!hasArgPrefix(Args, "--cuda-gpu-arch") &&
      !hasArgPrefix(Args, "--offload-arch"))
    Added.push_back("--cuda-gpu-arch=" + Headers.DefaultGpuArch);
  Added.push_back("-Wno-unknown-cuda-version");
  // A toolkit newer than Clang knows (and the bundled headers, which follow
  // current toolkits) is parsed as the newest version Clang knows; without
  // this the device side expects the pre-9.2 kernel launch API.
  bool UsesBundledHeaders = !Toolkit && !hasArg(Args, "-nocudainc");
  if (UsesBundledHeaders || (Toolkit && isNewerThanClangKnows(*Toolkit))) {
    Added.push_back("-Xclang");
    Added.push_back("-target-sdk-version=" + std::to_string(MaxKnownCudaMajor) +
                    "." + std::to_string(MaxKnownCudaMinor));
  }
  Args.insert(Args.begin() + 1, Added.begin(), Added.end());

  // Parse each side once: device code is only complete on the device side,
  // and code under `#ifndef __CUDA_ARCH__` only on the host side.
  if (hasArg(Args, "--cuda-device-only") || hasArg(Args, "--cuda-host-only"))
    return {Adjusted};
  CompileCommand Device = Adjusted, Host = Adjusted;
  Device.CommandLine.insert(Device.CommandLine.begin() + 1,
                            "--cuda-device-only");
  Host.CommandLine.insert(Host.CommandLine.begin() + 1, "--cuda-host-only");
  return {Device, Host};
}

namespace {

/// Translates a database's nvcc commands before Clang's inference sees them.
/// The command of a file the database does not list (a header) is borrowed
/// from a neighbour and re-read with Clang's option table, which would take
/// the value of an nvcc flag (`--default-stream per-thread`) for an input
/// file and drop it.
class NvccTranslatingDatabase : public CompilationDatabase {
public:
  using WarningHandler =
      std::function<void(llvm::StringRef, const llvm::Twine &)>;
  NvccTranslatingDatabase(std::unique_ptr<CompilationDatabase> Inner,
                          WarningHandler Warn)
      : Inner(std::move(Inner)), Warn(std::move(Warn)) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    return translate(Inner->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translate(Inner->getAllCompileCommands());
  }

private:
  std::vector<CompileCommand>
  translate(std::vector<CompileCommand> Commands) const {
    for (CompileCommand &Command : Commands)
      if (isNvccCommandLine(Command.CommandLine))
        Command.CommandLine = translateNvccCommandLine(Command, Warn);
    return Commands;
  }

  std::unique_ptr<CompilationDatabase> Inner;
  WarningHandler Warn;
};

/// A database as gpuguard reads it: nvcc commands translated, and commands
/// inferred for files it does not list.
std::unique_ptr<CompilationDatabase>
wrapDatabase(std::unique_ptr<CompilationDatabase> Database,
             NvccTranslatingDatabase::WarningHandler Warn) {
  if (!Database)
    return nullptr;
  return inferTargetAndDriverMode(
      inferMissingCompileCommands(std::make_unique<NvccTranslatingDatabase>(
          std::move(Database), std::move(Warn))));
}

} // namespace

std::unique_ptr<CompilationDatabase>
loadCompilationDatabase(llvm::StringRef Directory, std::string &Error) {
  llvm::SmallString<256> Json(Directory);
  llvm::sys::path::append(Json, "compile_commands.json");
  if (!llvm::sys::fs::exists(Json))
    return CompilationDatabase::autoDetectFromDirectory(Directory, Error);
  std::unique_ptr<CompilationDatabase> Database =
      JSONCompilationDatabase::loadFromFile(Json, Error,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return nullptr;
  return expandResponseFiles(std::move(Database),
                             llvm::vfs::getRealFileSystem());
}

GpuGuardCompilationDatabase::GpuGuardCompilationDatabase(
    std::unique_ptr<CompilationDatabase> Underlying, bool AutoDetect,
    CudaHeaders Headers, std::string ClangResourceDir)
    : AutoDetect(AutoDetect), Headers(std::move(Headers)),
      ClangResourceDir(std::move(ClangResourceDir)) {
  this->Underlying =
      wrapDatabase(std::move(Underlying),
                   [this](llvm::StringRef Key, const llvm::Twine &Message) {
                     warn(Key, Message);
                   });
}

void GpuGuardCompilationDatabase::warn(llvm::StringRef Key,
                                       const llvm::Twine &Message) const {
  if (Warn)
    Warn(Key, Message);
}

std::vector<CompileCommand> GpuGuardCompilationDatabase::getUnderlyingCommands(
    llvm::StringRef FilePath) const {
  if (Underlying)
    return Underlying->getCompileCommands(FilePath);
  if (!AutoDetect)
    return {};
  std::string Directory = llvm::sys::path::parent_path(FilePath).str();
  std::shared_ptr<CompilationDatabase> Database;
  {
    std::lock_guard<std::mutex> Lock(DetectedMutex);
    auto It = Detected.find(Directory);
    if (It == Detected.end()) {
      // The closest database above the file.
      std::unique_ptr<CompilationDatabase> Found;
      for (llvm::StringRef Dir = Directory; !Found && !Dir.empty();
           Dir = llvm::sys::path::parent_path(Dir)) {
        std::string Ignored;
        Found = loadCompilationDatabase(Dir, Ignored);
      }
      auto Warn = [this](llvm::StringRef Key, const llvm::Twine &Message) {
        warn(Key, Message);
      };
      It = Detected.try_emplace(Directory, wrapDatabase(std::move(Found), Warn))
               .first;
    }
    Database = It->second;
  }
  return Database ? Database->getCompileCommands(FilePath)
                  : std::vector<CompileCommand>();
}

std::vector<CompileCommand> GpuGuardCompilationDatabase::getCompileCommands(
    llvm::StringRef FilePath) const {
  std::vector<CompileCommand> Commands = getUnderlyingCommands(FilePath);
  bool OwnFlags = !Commands.empty();
  if (Commands.empty()) {
    CompileCommand Default;
    // Relative paths in --extra-arg resolve against the working directory,
    // as those after `--` do.
    llvm::SmallString<256> WorkingDirectory;
    if (llvm::sys::fs::current_path(WorkingDirectory))
      WorkingDirectory = llvm::sys::path::parent_path(FilePath);
    Default.Directory =
        WorkingDirectory.empty() ? "." : std::string(WorkingDirectory);
    Default.Filename = FilePath.str();
    Default.CommandLine = {"clang++", FilePath.str()};
    Commands.push_back(std::move(Default));
  }
  // A file that reaches LibTorch through its includes needs its headers,
  // whatever the flags' source, unless the command finds them itself.
  if (Torch)
    for (CompileCommand &Command : Commands) {
      std::vector<std::string> TorchFlags = Torch->flagsFor(Command, OwnFlags);
      if (!Command.CommandLine.empty())
        Command.CommandLine.insert(Command.CommandLine.begin() + 1,
                                   TorchFlags.begin(), TorchFlags.end());
    }
  auto Warn = [this](llvm::StringRef Key, const llvm::Twine &Message) {
    warn(Key, Message);
  };
  std::vector<CompileCommand> Result;
  for (const CompileCommand &Command : Commands)
    for (CompileCommand &Adjusted :
         adjustCompileCommand(Command, Headers, ClangResourceDir, Warn))
      Result.push_back(std::move(Adjusted));
  return Result;
}

std::vector<std::string> GpuGuardCompilationDatabase::getAllFiles() const {
  return Underlying ? Underlying->getAllFiles() : std::vector<std::string>();
}

} // namespace gpuguard::frontend
