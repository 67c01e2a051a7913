//===--- TorchDiscovery.cpp - Finding LibTorch for files without flags ----===//

#include "Frontend/TorchDiscovery.h"
#include "Frontend/CompileCommands.h"
#include "Frontend/IncludeScan.h"
#include "Support/AtomicFile.h"
#include "Support/ContentHash.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace gpuguard::frontend {

namespace {

std::string joinPath(llvm::StringRef Base, llvm::StringRef A,
                     llvm::StringRef B = "") {
  llvm::SmallString<256> Joined(Base);
  // path::append would add a trailing separator for an empty component.
  path::append(Joined, A);
  if (!B.empty())
    path::append(Joined, B);
  return std::string(Joined);
}

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  fs::make_absolute(Absolute);
  path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

std::string apiIncludeDir(llvm::StringRef Root) {
  return joinPath(Root, "include", "torch/csrc/api/include");
}

/// `#define TORCH_VERSION \` then `"1.13.0"` on the next line.
std::string readTorchVersion(llvm::StringRef ApiDir) {
  auto Buffer =
      llvm::MemoryBuffer::getFile(joinPath(ApiDir, "torch/version.h"));
  if (!Buffer)
    return "";
  llvm::StringRef Text = (*Buffer)->getBuffer();
  constexpr llvm::StringLiteral Define = "#define TORCH_VERSION";
  for (size_t At = Text.find(Define); At != llvm::StringRef::npos;
       At = Text.find(Define, At + 1)) {
    llvm::StringRef Rest = Text.substr(At + Define.size());
    // Not TORCH_VERSION_MAJOR and friends.
    if (Rest.empty() ||
        !(Rest.front() == ' ' || Rest.front() == '\t' || Rest.front() == '\\'))
      continue;
    size_t Open = Rest.find('"');
    size_t Close =
        Open == llvm::StringRef::npos ? Open : Rest.find('"', Open + 1);
    if (Close == llvm::StringRef::npos)
      return "";
    return Rest.slice(Open + 1, Close).str();
  }
  return "";
}

/// Directories the compiler searches anyway; adding them with -isystem would
/// reorder them and break libstdc++'s `#include_next <stdlib.h>`.
bool isDefaultSystemDir(llvm::StringRef Dir) {
  return Dir == "/usr/include" || Dir == "/usr/local/include";
}

std::vector<std::string> searchPrefixes() {
  std::vector<std::string> Prefixes;
  if (std::optional<std::string> Override =
          llvm::sys::Process::GetEnv("GPUGUARD_TORCH_PREFIXES")) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(*Override).split(Parts, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      Prefixes.push_back(Part.str());
    return Prefixes;
  }
  return {"/usr/local", "/usr", "/opt/libtorch"};
}

/// CMake package directories of Torch under \p Prefix, where find_package
/// looks: share/cmake, lib/cmake, lib64/cmake and Debian's multiarch
/// lib/<triple>/cmake.
std::vector<std::string> packageDirs(llvm::StringRef Prefix) {
  std::vector<std::string> Dirs = {joinPath(Prefix, "share/cmake/Torch"),
                                   joinPath(Prefix, "lib/cmake/Torch"),
                                   joinPath(Prefix, "lib64/cmake/Torch")};
  std::vector<std::string> MultiArch;
  std::error_code EC;
  for (fs::directory_iterator It(joinPath(Prefix, "lib"), EC), End;
       !EC && It != End; It.increment(EC))
    if (path::filename(It->path()).contains("-linux-"))
      MultiArch.push_back(joinPath(It->path(), "cmake/Torch"));
  llvm::sort(MultiArch);
  Dirs.insert(Dirs.end(), MultiArch.begin(), MultiArch.end());
  return Dirs;
}

/// Size and modification time, so that an upgraded LibTorch at the same path
/// gets a new precompiled header.
std::string stamp(llvm::StringRef File) {
  fs::file_status Status;
  if (fs::status(File, Status))
    return "-";
  return std::to_string(Status.getSize()) + "@" +
         std::to_string(
             Status.getLastModificationTime().time_since_epoch().count());
}

/// Writes \p Text to \p Target through a temporary file and a rename.

} // namespace

std::optional<TorchInstallation> readTorchRoot(llvm::StringRef Root,
                                               llvm::StringRef FoundBy) {
  if (Root.empty())
    return std::nullopt;
  std::string Absolute = absolutePath(Root);
  std::string ApiDir = apiIncludeDir(Absolute);
  if (!fs::exists(joinPath(ApiDir, "torch/torch.h")))
    return std::nullopt;
  TorchInstallation Torch;
  Torch.Root = Absolute;
  Torch.Version = readTorchVersion(ApiDir);
  Torch.FoundBy = FoundBy.str();
  Torch.IncludeDirs.push_back(ApiDir);
  std::string IncludeDir = joinPath(Absolute, "include");
  if (!isDefaultSystemDir(IncludeDir))
    Torch.IncludeDirs.push_back(IncludeDir);
  return Torch;
}

std::optional<TorchInstallation> readTorchPackage(llvm::StringRef PackageDir,
                                                  llvm::StringRef FoundBy) {
  if (PackageDir.empty())
    return std::nullopt;
  // <root>/share/cmake/Torch upstream, <root>/lib/<triple>/cmake/Torch in
  // Debian: the root is a few levels up.
  std::string Dir = absolutePath(PackageDir);
  for (int Level = 0; Level < 5 && !Dir.empty(); ++Level) {
    if (auto Torch = readTorchRoot(Dir, FoundBy))
      return Torch;
    std::string Parent = path::parent_path(Dir).str();
    if (Parent == Dir)
      break;
    Dir = std::move(Parent);
  }
  return std::nullopt;
}

std::optional<TorchInstallation> findTorch() {
  if (std::optional<std::string> Dir = llvm::sys::Process::GetEnv("Torch_DIR"))
    if (auto Torch = readTorchPackage(*Dir, "$Torch_DIR"))
      return Torch;
  if (std::optional<std::string> Root = llvm::sys::Process::GetEnv("LIBTORCH"))
    if (auto Torch = readTorchRoot(*Root, "$LIBTORCH"))
      return Torch;
  std::vector<std::string> Prefixes = searchPrefixes();
  for (const std::string &Prefix : Prefixes)
    for (const std::string &Dir : packageDirs(Prefix))
      if (fs::exists(joinPath(Dir, "TorchConfig.cmake")))
        if (auto Torch = readTorchPackage(Dir, "CMake package " + Dir))
          return Torch;
  for (const std::string &Prefix : Prefixes) {
    llvm::SmallString<256> Include(Prefix);
    path::append(Include, "include");
    std::string FoundBy = Prefix == "/usr"
                              ? "Debian libtorch-dev"
                              : "headers in " + Include.str().str();
    if (auto Torch = readTorchRoot(Prefix, FoundBy))
      return Torch;
  }
  return std::nullopt;
}

bool isTorchInclude(llvm::StringRef Spelled) {
  return Spelled.starts_with("torch/") || Spelled.starts_with("ATen/");
}

bool isCudaRuntimeInclude(llvm::StringRef Spelled) {
  if (Spelled.starts_with("ATen/cuda/") || Spelled.starts_with("c10/cuda/") ||
      Spelled.starts_with("ATen/native/cuda/"))
    return true;
  // The toolkit's own headers sit at the top of its include directory.
  if (Spelled.contains('/') || !Spelled.ends_with(".h"))
    return false;
  return llvm::any_of(
      std::initializer_list<llvm::StringRef>{"cuda", "cublas", "cusparse",
                                             "cusolver", "curand", "cufft",
                                             "nvrtc", "nvtx", "cudnn", "nccl"},
      [&](llvm::StringRef Prefix) { return Spelled.starts_with(Prefix); });
}

bool isPchCompatible(llvm::ArrayRef<std::string> Arguments) {
  // What changes neither the language nor the code generation options
  // recorded in the header; anything else (-O2, -std=c++20, -fopenmp,
  // -march=...) is taken as a mismatch.
  for (size_t I = 1; I < Arguments.size(); ++I) {
    llvm::StringRef Arg = Arguments[I];
    if (!Arg.starts_with("-"))
      continue;
    if (llvm::is_contained({"-I", "-isystem", "-iquote", "-idirafter", "-D",
                            "-U", "-o", "-MF", "-MT", "-MQ", "-x", "-include"},
                           Arg)) {
      ++I; // The flag's value.
      continue;
    }
    bool Harmless =
        llvm::any_of(
            std::initializer_list<llvm::StringRef>{
                "-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-W",
                "-o", "-g", "-fdiagnostics-", "-fcolor-diagnostics",
                "-fno-color-diagnostics", "-fmessage-length", "-M"},
            [&](llvm::StringRef Prefix) { return Arg.starts_with(Prefix); }) ||
        llvm::is_contained({"-c", "-O0", "-std=c++17", "-fPIC", "-fpic",
                            "-fPIE", "-fpie", "-pthread", "-pipe",
                            "-fsyntax-only", "-xc++", "-Xclang"},
                           Arg);
    if (!Harmless)
      return false;
  }
  return true;
}

bool isCxxPath(llvm::StringRef File) {
  llvm::StringRef Ext = path::extension(File);
  return llvm::is_contained(
      {".cpp", ".cc", ".cxx", ".c++", ".C", ".hpp", ".hh", ".hxx", ".h++"},
      Ext);
}

std::string defaultCacheDir() {
  std::optional<std::string> Base =
      llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
  if (!Base || Base->empty() || !path::is_absolute(*Base)) {
    llvm::SmallString<256> Home;
    if (!path::home_directory(Home))
      return "";
    path::append(Home, ".cache");
    Base = std::string(Home);
  }
  return joinPath(*Base, "gpuguard");
}

std::string torchPchPath(const TorchInstallation &Torch,
                         llvm::StringRef CacheDir,
                         llvm::StringRef ToolVersion) {
  std::string ApiDir = apiIncludeDir(Torch.Root);
  std::string Key = Torch.Root + "\n" + Torch.Version + "\n" +
                    stamp(joinPath(ApiDir, "torch/torch.h")) + "\n" +
                    stamp(joinPath(ApiDir, "torch/version.h")) + "\n" +
                    ToolVersion.str() + "\n" + CLANG_VERSION_STRING +
                    "\nskip-function-bodies\ndriver beside its LLVM";
  for (const std::string &Dir : Torch.IncludeDirs)
    Key += "\n" + Dir;
  return joinPath(CacheDir, "torch-" + support::contentHash(Key) + ".pch");
}

/// The clang++ of the LLVM that \p ResourceDir (<prefix>/lib/clang/<N>)
/// belongs to. The driver looks for GCC's headers from its own directory
/// first: a bare "clang++" would find them under "/../lib/gcc", and the
/// precompiled header would record paths like /include/c++/12/vector that
/// name nothing once their dots are removed.
static std::string clangDriverBeside(llvm::StringRef ResourceDir) {
  llvm::StringRef Prefix =
      path::parent_path(path::parent_path(path::parent_path(ResourceDir)));
  if (Prefix.empty())
    return "clang++";
  return joinPath(joinPath(Prefix, "bin"), "clang++");
}

llvm::Expected<std::string> getTorchPch(const TorchInstallation &Torch,
                                        llvm::StringRef CacheDir,
                                        llvm::StringRef ToolVersion,
                                        llvm::StringRef ClangResourceDir,
                                        bool &Built) {
  Built = false;
  std::string Pch = torchPchPath(Torch, CacheDir, ToolVersion);
  if (fs::exists(Pch))
    return Pch;

  auto Failure = [&](const llvm::Twine &Why) {
    return llvm::createStringError(std::make_error_code(std::errc::io_error),
                                   "cannot build '" + Pch + "': " + Why);
  };
  if (std::error_code EC = fs::create_directories(CacheDir))
    return Failure(EC.message());
  // The header must stay on disk: the precompiled header refers to it.
  std::string Header = Pch.substr(0, Pch.size() - 4) + ".h";
  if (!fs::exists(Header))
    if (std::error_code EC =
            support::writeAtomically(Header, "#include <torch/torch.h>\n"))
      return Failure(EC.message());

  llvm::SmallString<256> Temp;
  if (std::error_code EC = fs::createUniqueFile(Pch + "-%%%%%%%%.tmp", Temp))
    return Failure(EC.message());
  std::vector<std::string> Args = {clangDriverBeside(ClangResourceDir),
                                   "-xc++-header", "-std=c++17",
                                   "-resource-dir=" + ClangResourceDir.str()};
  for (const std::string &Dir : Torch.IncludeDirs)
    Args.insert(Args.end(), {"-isystem", Dir});
  // Instantiating the header's templates once here is what makes the
  // precompiled header pay off: without it a file still takes seconds.
  // The bodies of the header's functions are skipped, as clangd's
  // preambles skip them: the checks read the user's code, and a file then
  // parses in a fraction of the time.
  Args.insert(Args.end(),
              {"-fpch-instantiate-templates", "-Xclang",
               "-skip-function-bodies", Header, "-o", std::string(Temp)});
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(new clang::FileManager(
      clang::FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<clang::GeneratePCHAction>(), Files.get());
  if (!Invocation.run()) {
    fs::remove(Temp);
    return Failure("the header did not compile (errors above)");
  }
  if (std::error_code EC = fs::rename(Temp, Pch)) {
    fs::remove(Temp);
    return Failure(EC.message());
  }
  Built = true;
  return Pch;
}

void TorchDefaults::decide() {
  auto AddWarning = [this](const llvm::Twine &Text) {
    Messages.emplace_back(true, Text.str());
  };
  auto AddNote = [this](const llvm::Twine &Text) {
    Messages.emplace_back(false, Text.str());
  };
  Flags = {"-std=c++17"};
  std::optional<TorchInstallation> Torch = findTorch();
  if (!Torch) {
    AddWarning("no LibTorch found ($Torch_DIR, $LIBTORCH, CMake packages, "
               "/usr/include) for files that include it; set "
               "LIBTORCH=<unpacked libtorch> or Torch_DIR=<dir of "
               "TorchConfig.cmake>, or pass its flags after '--'");
    return;
  }
  for (const std::string &Dir : Torch->IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  // A LibTorch built without CUDA (Debian's libtorch-dev) ships c10/cuda's
  // headers but not the one its build generates; extensions' CUDA sources
  // include it through c10/cuda/CUDAMacros.h.
  std::string Include = joinPath(Torch->Root, "include");
  if (!Opts.CudaShimDir.empty() &&
      fs::exists(joinPath(Include, "c10/cuda/CUDAMacros.h")) &&
      !fs::exists(joinPath(Include, "c10/cuda/impl/cuda_cmake_macros.h")))
    CudaFlags = {"-isystem", Opts.CudaShimDir};
  // After the system directories, so that nothing of the toolkit's hides a
  // header of the project's or of LibTorch's.
  for (const std::string &Dir : Opts.CudaIncludeDirs)
    CxxCudaFlags.insert(CxxCudaFlags.end(), {"-idirafter", Dir});
  std::string Version = Torch->Version.empty() ? "" : " " + Torch->Version;
  AddNote("using LibTorch" + Version + " from " + Torch->Root + " (" +
          Torch->FoundBy +
          ") for files that include it; pass another's include directories "
          "(-isystem) to choose it");
  if (!Opts.UsePch)
    return;
  if (Opts.CacheDir.empty()) {
    AddWarning("--torch-pch: no cache directory ($XDG_CACHE_HOME or $HOME "
               "unset); parsing <torch/torch.h> in full");
    return;
  }
  if (Opts.Progress &&
      !fs::exists(torchPchPath(*Torch, Opts.CacheDir, Opts.ToolVersion)))
    Opts.Progress("--torch-pch: precompiling <torch/torch.h> once into '" +
                  Opts.CacheDir + "' (this takes a while)");
  bool Built = false;
  llvm::Expected<std::string> Pch = getTorchPch(
      *Torch, Opts.CacheDir, Opts.ToolVersion, Opts.ClangResourceDir, Built);
  if (!Pch) {
    AddWarning("--torch-pch: " + llvm::toString(Pch.takeError()) +
               "; parsing <torch/torch.h> in full");
    return;
  }
  PchFlag = Flags.size();
  Flags.insert(Flags.end(), {"-include-pch", *Pch});
}

/// Whether one of \p Dirs holds LibTorch's C++ API headers.
static bool findsTorch(llvm::ArrayRef<std::string> Dirs) {
  return llvm::any_of(Dirs, [](const std::string &Dir) {
    return fs::exists(joinPath(Dir, "torch/torch.h"));
  });
}

std::vector<std::string>
TorchDefaults::flagsFor(const clang::tooling::CompileCommand &Command,
                        bool OwnFlags) {
  bool Cuda =
      isCudaSourcePath(Command.Filename) || isCudaHeaderPath(Command.Filename);
  if (!Cuda && !isCxxPath(Command.Filename))
    return {};
  std::string File = Command.Filename;
  if (!path::is_absolute(File))
    File = joinPath(Command.Directory, File);
  clang::tooling::CompileCommand Searched = Command;
  llvm::append_range(Searched.CommandLine, Opts.ExtraArgs);
  if (findsTorch(includeSearchDirs(Searched, /*WithSystemDirs=*/true)))
    return {};
  IncluderFinder Finder(isTorchInclude);
  if (!Finder.includesMatch(File, includeSearchDirs(Searched)))
    return {};
  std::call_once(Decided, [this] { decide(); });
  for (const auto &[IsWarning, Text] : Messages) {
    const auto &Say = IsWarning ? Opts.Warn : Opts.Note;
    if (Say)
      Say(Text);
  }
  bool CxxReachesCuda = !Cuda &&
                        (!CudaFlags.empty() || !CxxCudaFlags.empty()) &&
                        IncluderFinder(isCudaRuntimeInclude)
                            .includesMatch(File, includeSearchDirs(Searched));
  if (!OwnFlags && !Cuda && !CxxReachesCuda)
    return Flags;
  std::vector<std::string> Own;
  bool SetsStandard =
      llvm::any_of(Command.CommandLine, [](llvm::StringRef Arg) {
        return Arg.starts_with("-std=") || Arg.starts_with("--std");
      });
  // The precompiled header is C++'s: a CUDA source parses the headers.
  bool KeepPch = !Cuda && (!OwnFlags || isPchCompatible(Command.CommandLine));
  for (size_t I = 0; I < Flags.size(); ++I) {
    if (Flags[I] == "-std=c++17" && SetsStandard && OwnFlags)
      continue;
    if (PchFlag && I == *PchFlag && !KeepPch) {
      ++I;
      continue;
    }
    Own.push_back(Flags[I]);
  }
  if (Cuda || CxxReachesCuda)
    llvm::append_range(Own, CudaFlags);
  if (CxxReachesCuda)
    llvm::append_range(Own, CxxCudaFlags);
  return Own;
}

} // namespace gpuguard::frontend
