//===--- NvccFlags.cpp - nvcc compile commands as Clang commands ----------===//

#include "Frontend/NvccFlags.h"
#include "clang/Basic/OffloadArch.h"
#include "clang/Driver/Types.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <memory>
#include <optional>
#include <tuple>

namespace gpuguard::frontend {

namespace {

/// What a flag's value looks like.
enum class Takes {
  Nothing,
  Value, ///< `-f v`, `-f=v`, `--flag v` or `--flag=v`.
  List,  ///< A value that nvcc splits at commas: `-I a,b` is `-I a -I b`.
};

/// What becomes of a flag.
enum class Becomes {
  Dropped, ///< Only nvcc's code generation, linking, output or diagnostics.
  Clang,   ///< Clang's flag `ClangSpelling`, joined with each value.
  HostFlags,
  GpuArchitecture,
  GpuCode,
  GenerateCode,
  RelocatableDeviceCode,
  DeviceCompile,      ///< -dc: compile with relocatable device code.
  WholeDeviceCompile, ///< -dw: compile without it.
  Language,
  DefaultStream,
  OptionsFile,
  Machine,
};

struct NvccOption {
  llvm::StringLiteral Name;  ///< The long name, without dashes.
  llvm::StringLiteral Short; ///< The short name, without the dash, or "".
  Takes Value;
  Becomes Action;
  llvm::StringLiteral ClangSpelling = "";
  /// The short form also takes its value joined, as in `-DX` or `-O3`.
  bool Joinable = false;
  /// No Clang flag is spelled like this, so the flag marks an nvcc command
  /// even when its compiler is not named nvcc.
  bool OnlyNvcc = false;
};

// nvcc's flags, from the options reference of NVIDIA's "NVIDIA CUDA Compiler
// Driver NVCC" documentation (and `nvcc --help`, CUDA 13.0), plus the
// undocumented -Xcudafe and -Xfatbin. nvcc accepts every flag with one dash
// or two, its value joined with `=` or as the next argument.
//
// What keeps the analysis identical: a flag stays when it changes what nvcc's
// preprocessor and front end see (nvcc passes it to the host compiler's
// `-E` runs of both sides), and goes when it only shapes device code
// generation (`--use_fast_math`, `-lineinfo`, `-maxrregcount`: the AST is
// the same), linking, output or nvcc's own diagnostics. The macros nvcc
// defines for code generation flags that headers read (`__CUDACC_DEBUG__`
// for `-G`, `__CUDACC_RDC__` for `-rdc=true` and `-dc`, `__CUDACC_EWP__` for
// `-ewp`) are defined as nvcc defines them. nvcc's
// `--expt-relaxed-constexpr` and `--extended-lambda` only make nvcc accept
// what Clang accepts anyway (constexpr host functions called from device
// code, `__device__` lambdas); the macros nvcc defines for them
// (`__CUDACC_RELAXED_CONSTEXPR__`, `__CUDACC_EXTENDED_LAMBDA__`) are nvcc's
// and would lead headers to nvcc-only builtins, so they are not defined.
constexpr NvccOption NvccOptions[] = {
    // Phases: gpuguard only parses (`-fsyntax-only`), whatever nvcc makes.
    {"compile", "c", Takes::Nothing, Becomes::Clang, "-c"},
    {"device-c", "dc", Takes::Nothing, Becomes::DeviceCompile, "", false, true},
    {"device-w", "dw", Takes::Nothing, Becomes::WholeDeviceCompile, "", false,
     true},
    {"device-link", "dlink", Takes::Nothing, Becomes::Dropped, "", false, true},
    {"link", "link", Takes::Nothing, Becomes::Dropped},
    {"lib", "lib", Takes::Nothing, Becomes::Dropped},
    {"run", "run", Takes::Nothing, Becomes::Dropped},
    {"cuda", "cuda", Takes::Nothing, Becomes::Dropped},
    {"cubin", "cubin", Takes::Nothing, Becomes::Dropped},
    {"fatbin", "fatbin", Takes::Nothing, Becomes::Dropped},
    {"ptx", "ptx", Takes::Nothing, Becomes::Dropped},
    {"optix-ir", "optix-ir", Takes::Nothing, Becomes::Dropped},
    {"ltoir", "ltoir", Takes::Nothing, Becomes::Dropped},
    {"preprocess", "E", Takes::Nothing, Becomes::Dropped},
    {"fdevice-syntax-only", "", Takes::Nothing, Becomes::Dropped},
    // Dependency files and outputs.
    {"generate-dependencies", "M", Takes::Nothing, Becomes::Dropped},
    {"generate-nonsystem-dependencies", "MM", Takes::Nothing, Becomes::Dropped},
    {"generate-dependencies-with-compile", "MD", Takes::Nothing,
     Becomes::Dropped},
    {"generate-nonsystem-dependencies-with-compile", "MMD", Takes::Nothing,
     Becomes::Dropped},
    {"dependency-output", "MF", Takes::Value, Becomes::Dropped},
    {"generate-dependency-targets", "MP", Takes::Nothing, Becomes::Dropped},
    {"dependency-target-name", "MT", Takes::Value, Becomes::Dropped},
    {"output-file", "o", Takes::Value, Becomes::Dropped},
    {"output-directory", "odir", Takes::Value, Becomes::Dropped},
    {"objdir-as-tempdir", "objtemp", Takes::Nothing, Becomes::Dropped},
    // What the source means: kept in Clang's spelling.
    {"pre-include", "include", Takes::List, Becomes::Clang, "-include"},
    {"define-macro", "D", Takes::List, Becomes::Clang, "-D", true},
    {"undefine-macro", "U", Takes::List, Becomes::Clang, "-U", true},
    {"include-path", "I", Takes::List, Becomes::Clang, "-I", true},
    {"system-include", "isystem", Takes::List, Becomes::Clang, "-isystem"},
    {"std", "std", Takes::Value, Becomes::Clang, "-std="},
    {"x", "x", Takes::Value, Becomes::Language},
    {"optimize", "O", Takes::Value, Becomes::Clang, "-O", true},
    {"debug", "g", Takes::Nothing, Becomes::Clang, "-g"},
    {"disable-warnings", "w", Takes::Nothing, Becomes::Clang, "-w"},
    {"no-exceptions", "noeh", Takes::Nothing, Becomes::Clang,
     "-fno-exceptions"},
    {"ftemplate-backtrace-limit", "", Takes::Value, Becomes::Clang,
     "-ftemplate-backtrace-limit="},
    {"ftemplate-depth", "", Takes::Value, Becomes::Clang, "-ftemplate-depth="},
    {"machine", "m", Takes::Value, Becomes::Machine},
    {"m64", "", Takes::Nothing, Becomes::Clang, "-m64"},
    {"Wno-deprecated-declarations", "", Takes::Nothing, Becomes::Clang,
     "-Wno-deprecated-declarations"},
    {"default-stream", "", Takes::Value, Becomes::DefaultStream, "", false,
     true},
    {"relocatable-device-code", "rdc", Takes::Value,
     Becomes::RelocatableDeviceCode, "", false, true},
    {"gpu-architecture", "arch", Takes::Value, Becomes::GpuArchitecture},
    {"gpu-code", "code", Takes::List, Becomes::GpuCode},
    {"generate-code", "gencode", Takes::Value, Becomes::GenerateCode, "", false,
     true},
    {"compiler-options", "Xcompiler", Takes::List, Becomes::HostFlags, "",
     false, true},
    {"options-file", "optf", Takes::List, Becomes::OptionsFile, "", false,
     true},
    // Other tools' flags, with their values.
    {"linker-options", "Xlinker", Takes::List, Becomes::Dropped},
    {"archive-options", "Xarchive", Takes::List, Becomes::Dropped, "", false,
     true},
    {"ptxas-options", "Xptxas", Takes::List, Becomes::Dropped, "", false, true},
    {"nvlink-options", "Xnvlink", Takes::List, Becomes::Dropped, "", false,
     true},
    {"fatbin-options", "Xfatbin", Takes::List, Becomes::Dropped, "", false,
     true},
    {"Xcudafe", "", Takes::List, Becomes::Dropped, "", false, true},
    {"forward-unknown-to-host-compiler", "", Takes::Nothing, Becomes::Dropped,
     "", false, true},
    {"forward-unknown-to-host-linker", "", Takes::Nothing, Becomes::Dropped, "",
     false, true},
    {"forward-unknown-opts", "", Takes::Nothing, Becomes::Dropped, "", false,
     true},
    {"compiler-bindir", "ccbin", Takes::Value, Becomes::Dropped, "", false,
     true},
    {"allow-unsupported-compiler", "", Takes::Nothing, Becomes::Dropped, "",
     false, true},
    {"archiver-binary", "arbin", Takes::Value, Becomes::Dropped},
    {"use-local-env", "", Takes::Nothing, Becomes::Dropped},
    {"force-cl-env-setup", "", Takes::Nothing, Becomes::Dropped},
    {"qpp-config", "", Takes::Value, Becomes::Dropped},
    // Libraries and linking.
    {"library", "l", Takes::List, Becomes::Dropped, "", true},
    {"library-path", "L", Takes::List, Becomes::Dropped, "", true},
    {"cudart", "", Takes::Value, Becomes::Dropped, "", false, true},
    {"cudadevrt", "", Takes::Value, Becomes::Dropped, "", false, true},
    {"libdevice-directory", "ldir", Takes::Value, Becomes::Dropped},
    {"target-directory", "target-dir", Takes::Value, Becomes::Dropped},
    {"shared", "", Takes::Nothing, Becomes::Dropped},
    {"no-device-link", "nodlink", Takes::Nothing, Becomes::Dropped},
    {"relocatable-link", "r", Takes::Nothing, Becomes::Dropped},
    {"host-linker-script", "hls", Takes::Value, Becomes::Dropped},
    {"augment-host-linker-script", "aug-hls", Takes::Nothing, Becomes::Dropped},
    {"entries", "e", Takes::List, Becomes::Dropped},
    {"run-args", "", Takes::List, Becomes::Dropped},
    // Device code generation: the same AST either way.
    {"profile", "pg", Takes::Nothing, Becomes::Dropped},
    // nvcc defines __CUDACC_DEBUG__ for -G, which headers read.
    {"device-debug", "G", Takes::Nothing, Becomes::Clang,
     "-D__CUDACC_DEBUG__=1"},
    {"generate-line-info", "lineinfo", Takes::Nothing, Becomes::Dropped, "",
     false, true},
    {"optimization-info", "opt-info", Takes::List, Becomes::Dropped},
    {"Ofast-compile", "Ofc", Takes::Value, Becomes::Dropped},
    {"dopt", "", Takes::Value, Becomes::Dropped},
    {"dlink-time-opt", "dlto", Takes::Nothing, Becomes::Dropped},
    {"lto", "", Takes::Nothing, Becomes::Dropped},
    {"gen-opt-lto", "", Takes::Nothing, Becomes::Dropped},
    {"maxrregcount", "", Takes::Value, Becomes::Dropped, "", false, true},
    {"use_fast_math", "", Takes::Nothing, Becomes::Dropped, "", false, true},
    {"ftz", "", Takes::Value, Becomes::Dropped},
    {"prec-div", "", Takes::Value, Becomes::Dropped},
    {"prec-sqrt", "", Takes::Value, Becomes::Dropped},
    {"fmad", "", Takes::Value, Becomes::Dropped},
    {"extra-device-vectorization", "", Takes::Nothing, Becomes::Dropped},
    {"keep-device-functions", "", Takes::Nothing, Becomes::Dropped},
    {"source-in-ptx", "src-in-ptx", Takes::Nothing, Becomes::Dropped},
    {"restrict", "", Takes::Nothing, Becomes::Dropped},
    {"static-global-template-stub", "", Takes::Value, Becomes::Dropped},
    {"device-entity-has-hidden-visibility", "", Takes::Value, Becomes::Dropped},
    // nvcc defines __CUDACC_EWP__ for -ewp, which the runtime headers read.
    {"extensible-whole-program", "ewp", Takes::Nothing, Becomes::Clang,
     "-D__CUDACC_EWP__=1"},
    {"no-compress", "", Takes::Nothing, Becomes::Dropped},
    {"compress-mode", "", Takes::Value, Becomes::Dropped},
    {"relocatable-ptx", "reloc-ptx", Takes::Nothing, Becomes::Dropped},
    {"jump-table-density", "jtd", Takes::Value, Becomes::Dropped},
    {"device-stack-protector", "", Takes::Value, Becomes::Dropped},
    {"frandom-seed", "", Takes::Value, Becomes::Dropped},
    {"sanitize", "", Takes::Value, Becomes::Dropped},
    {"no-align-double", "", Takes::Nothing, Becomes::Dropped},
    {"compile-as-tools-patch", "astoolspatch", Takes::Nothing,
     Becomes::Dropped},
    // Accepted by Clang as it is.
    {"expt-relaxed-constexpr", "", Takes::Nothing, Becomes::Dropped, "", false,
     true},
    {"extended-lambda", "", Takes::Nothing, Becomes::Dropped, "", false, true},
    {"expt-extended-lambda", "", Takes::Nothing, Becomes::Dropped, "", false,
     true},
    {"no-host-device-initializer-list", "nohdinitlist", Takes::Nothing,
     Becomes::Dropped},
    {"no-host-device-move-forward", "nohdmoveforward", Takes::Nothing,
     Becomes::Dropped},
    // nvcc's own diagnostics, numbered and named its way.
    {"Wreorder", "", Takes::Nothing, Becomes::Dropped},
    {"Wdefault-stream-launch", "", Takes::Nothing, Becomes::Dropped},
    {"Wmissing-launch-bounds", "", Takes::Nothing, Becomes::Dropped},
    {"Wext-lambda-captures-this", "", Takes::Nothing, Becomes::Dropped},
    {"Wno-deprecated-gpu-targets", "", Takes::Nothing, Becomes::Dropped, "",
     false, true},
    {"Werror", "", Takes::List, Becomes::Dropped},
    {"display-error-number", "err-no", Takes::Nothing, Becomes::Dropped},
    {"no-display-error-number", "no-err-no", Takes::Nothing, Becomes::Dropped},
    {"diag-error", "", Takes::List, Becomes::Dropped, "", false, true},
    {"diag-suppress", "", Takes::List, Becomes::Dropped, "", false, true},
    {"diag-warn", "", Takes::List, Becomes::Dropped, "", false, true},
    {"brief-diagnostics", "brief-diag", Takes::Value, Becomes::Dropped},
    {"resource-usage", "res-usage", Takes::Nothing, Becomes::Dropped},
    // nvcc itself.
    {"threads", "t", Takes::Value, Becomes::Dropped},
    {"split-compile", "", Takes::Value, Becomes::Dropped},
    {"split-compile-extended", "", Takes::Value, Becomes::Dropped},
    {"fdevice-time-trace", "", Takes::Value, Becomes::Dropped},
    {"keep", "", Takes::Nothing, Becomes::Dropped},
    {"keep-dir", "", Takes::Value, Becomes::Dropped},
    {"save-temps", "", Takes::Nothing, Becomes::Dropped},
    {"clean-targets", "clean", Takes::Nothing, Becomes::Dropped},
    {"time", "", Takes::Value, Becomes::Dropped},
    {"input-drive-prefix", "idp", Takes::Value, Becomes::Dropped},
    {"dependency-drive-prefix", "ddp", Takes::Value, Becomes::Dropped},
    {"drive-prefix", "dp", Takes::Value, Becomes::Dropped},
    {"dont-use-profile", "noprof", Takes::Nothing, Becomes::Dropped},
    {"dryrun", "", Takes::Nothing, Becomes::Dropped},
    {"verbose", "v", Takes::Nothing, Becomes::Dropped},
    {"jobserver", "", Takes::Nothing, Becomes::Dropped},
    {"list-gpu-code", "code-ls", Takes::Nothing, Becomes::Dropped},
    {"list-gpu-arch", "arch-ls", Takes::Nothing, Becomes::Dropped},
    {"help", "h", Takes::Nothing, Becomes::Dropped},
    {"version", "V", Takes::Nothing, Becomes::Dropped},
};

const NvccOption *findOption(llvm::StringRef Name) {
  for (const NvccOption &Option : NvccOptions)
    if (Name == Option.Name || (!Option.Short.empty() && Name == Option.Short))
      return &Option;
  return nullptr;
}

/// One nvcc flag found at the start of the remaining arguments.
struct FoundFlag {
  const NvccOption *Option = nullptr;
  std::optional<std::string> Value;
  unsigned Consumed = 1;
};

/// The flags that pass flags on to another tool, whose values start with
/// a dash: `-Xcompiler -fPIC`. Other values never do.
bool valueMayBeAFlag(const NvccOption &Option) {
  return Option.Short.starts_with("X") || Option.Name.starts_with("X");
}

/// Whether \p Arg names \p File, the file the command compiles: never a
/// flag's value, even where a value is missing.
bool namesCompiledFile(llvm::StringRef Arg, llvm::StringRef File) {
  return !File.empty() &&
         llvm::sys::path::filename(Arg) == llvm::sys::path::filename(File);
}

/// Reads the nvcc flag at \p Args[I], with its value, or returns no option.
FoundFlag readNvccFlag(llvm::ArrayRef<std::string> Args, size_t I,
                       llvm::StringRef CompiledFile = "") {
  FoundFlag Found;
  llvm::StringRef Arg = Args[I];
  llvm::StringRef Body = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
  auto [Name, Inline] = Body.split('=');
  if ((Found.Option = findOption(Name))) {
    if (Body.contains('='))
      Found.Value = Inline.str();
  } else if (!Arg.starts_with("--")) {
    // Joined short forms: -DNAME=1, -Iinclude, -O3, -lcuda.
    for (const NvccOption &Option : NvccOptions)
      if (Option.Joinable && Body.size() > Option.Short.size() &&
          Body.starts_with(Option.Short)) {
        Found.Option = &Option;
        Found.Value = Body.drop_front(Option.Short.size()).str();
        break;
      }
  }
  if (!Found.Option || Found.Option->Value == Takes::Nothing)
    return Found;
  if (!Found.Value && I + 1 < Args.size() &&
      !namesCompiledFile(Args[I + 1], CompiledFile) &&
      (valueMayBeAFlag(*Found.Option) ||
       !llvm::StringRef(Args[I + 1]).starts_with("-"))) {
    Found.Value = Args[I + 1];
    Found.Consumed = 2;
  }
  return Found;
}

/// nvcc splits list values at commas, as in `-Xcompiler=-fPIC,-Wall`.
std::vector<std::string> splitList(llvm::StringRef Value) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Value.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

bool isNvccCompiler(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back_insensitive(".exe");
  return Name == "nvcc";
}

bool isLauncher(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  return Name == "ccache" || Name == "sccache";
}

/// The language nvcc's `-x` names (cu, c++, c), as Clang names it. Clang's
/// own names pass too: a header's command borrowed from a neighbour has
/// them.
std::optional<llvm::StringRef> clangLanguage(llvm::StringRef Language) {
  if (Language == "cu")
    return llvm::StringRef("cuda");
  if (clang::driver::types::lookupTypeForTypeSpecifier(Language.data()) !=
      clang::driver::types::TY_INVALID)
    return Language;
  return std::nullopt;
}

/// A GPU architecture named by a number and maybe a suffix: sm_90a.
struct GpuArch {
  unsigned Number = 0;
  std::string Suffix;
};

/// Reads `sm_80`, `compute_90a`, `lto_86`.
std::optional<GpuArch> parseGpuArch(llvm::StringRef Name) {
  Name = Name.trim(" \"'[]");
  if (!Name.consume_front("sm_") && !Name.consume_front("compute_") &&
      !Name.consume_front("lto_"))
    return std::nullopt;
  GpuArch Arch;
  if (Name.consumeInteger(10, Arch.Number) ||
      !llvm::all_of(Name, [](char C) { return llvm::isAlpha(C); }))
    return std::nullopt;
  Arch.Suffix = Name.str();
  return Arch;
}

/// The Clang spelling of \p Arch, when Clang knows it: with its suffix
/// (sm_90a) if Clang knows that, or else without it (sm_100f as sm_100).
std::optional<std::string> clangGpuArch(const GpuArch &Arch) {
  for (const std::string &Name :
       {"sm_" + std::to_string(Arch.Number) + Arch.Suffix,
        "sm_" + std::to_string(Arch.Number)})
    if (clang::StringToOffloadArch(Name) != clang::OffloadArch::UNKNOWN)
      return Name;
  return std::nullopt;
}

/// A flag for the host compiler that Clang has too. gcc and Clang do not
/// warn alike, so a host `-Werror` would turn the warnings Clang gives on a
/// gcc-clean project into compile errors: it is dropped.
bool isHostWarningAsError(llvm::StringRef Flag) {
  return Flag == "-Werror" || Flag.starts_with("-Werror=") ||
         Flag == "-pedantic-errors";
}

class Translator {
public:
  Translator(const clang::tooling::CompileCommand &Command,
             NvccWarningHandler Warn)
      : Command(Command), Warn(Warn) {}

  std::vector<std::string> translate();

private:
  void translateArgs(llvm::ArrayRef<std::string> Args, unsigned Depth);
  void apply(const NvccOption &Option, const std::string &Value,
             unsigned Depth);
  void appendClangFlags(llvm::ArrayRef<std::string> Args, size_t &I,
                        bool FromHostOptions);
  void readOptionsFile(llvm::StringRef Path, unsigned Depth);
  void noteArchs(llvm::StringRef Text, std::vector<GpuArch> &Into);
  void dropUnknown(llvm::StringRef Flag, llvm::StringRef Shown);
  void warnMissingValue(llvm::StringRef Flag);
  void warn(llvm::StringRef Key, const llvm::Twine &Message) {
    if (Warn)
      Warn(Key, Message);
  }

  const clang::tooling::CompileCommand &Command;
  NvccWarningHandler Warn;
  std::vector<std::string> Out;
  /// The values of -Xcompiler, parsed together since one flag's value may
  /// be the next one: `-Xcompiler -isystem,/opt/include`.
  std::vector<std::string> HostFlags;
  /// From `arch=` of -gencode and from -arch: what `__CUDA_ARCH__` is.
  std::vector<GpuArch> VirtualArchs;
  /// From `code=` of -gencode and from -code.
  std::vector<GpuArch> CodeArchs;
  std::string ArchSpelling; ///< How the architectures were given.
  bool RelocatableDeviceCode = false;
  bool PerThreadDefaultStream = false;
};

std::vector<std::string> Translator::translate() {
  llvm::ArrayRef<std::string> Args = Command.CommandLine;
  if (Args.size() > 1 && isLauncher(Args.front()))
    Args = Args.drop_front();
  if (Args.empty())
    return {"clang++"};
  Out.push_back(isNvccCompiler(Args.front()) ? "clang++" : Args.front());
  translateArgs(Args.drop_front(), /*Depth=*/0);
  // What applies to the whole command goes right after the compiler, before
  // any `--` that ends the flags: first the -Xcompiler flags, as nvcc gives
  // them to the host compiler before its own -I and -D.
  std::vector<std::string> Translated = std::move(Out);
  Out = {Translated.front()};
  size_t I = 0;
  appendClangFlags(HostFlags, I, /*FromHostOptions=*/true);

  // One architecture is enough to parse device code. nvcc preprocesses the
  // device side once per virtual architecture, with `__CUDA_ARCH__` set
  // from it; gpuguard parses the lowest one Clang knows, whatever the order
  // of the flags: the variant every GPU the build targets can run. Without
  // any (or with -arch=native, all or all-major, which need a GPU or a
  // list), gpuguard's default --cuda-gpu-arch applies.
  std::vector<GpuArch> &Archs = VirtualArchs.empty() ? CodeArchs : VirtualArchs;
  llvm::sort(Archs, [](const GpuArch &A, const GpuArch &B) {
    return std::tie(A.Number, A.Suffix) < std::tie(B.Number, B.Suffix);
  });
  std::optional<std::string> Chosen;
  for (const GpuArch &Arch : Archs)
    if ((Chosen = clangGpuArch(Arch)))
      break;
  if (Chosen)
    Out.push_back("--cuda-gpu-arch=" + *Chosen);
  else if (!Archs.empty())
    warn("arch:" + ArchSpelling,
         "the GPU architectures of '" + ArchSpelling + "' (nvcc command of '" +
             Command.Filename +
             "') are unknown to Clang; parsing for gpuguard's default "
             "--cuda-gpu-arch instead");
  // nvcc defines __CUDACC_RDC__ for -rdc=true and -dc; the runtime headers
  // then declare the device runtime's functions instead of stubbing them.
  if (RelocatableDeviceCode)
    Out.insert(Out.end(), {"-fgpu-rdc", "-D__CUDACC_RDC__=1"});
  // nvcc defines this for `--default-stream per-thread`; the runtime headers
  // then declare the per-thread variants of the API.
  if (PerThreadDefaultStream)
    Out.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
  Out.insert(Out.end(), Translated.begin() + 1, Translated.end());
  return std::move(Out);
}

void Translator::translateArgs(llvm::ArrayRef<std::string> Args,
                               unsigned Depth) {
  for (size_t I = 0; I < Args.size();) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") { // Only input files follow.
      Out.insert(Out.end(), Args.begin() + I, Args.end());
      return;
    }
    if (Arg.size() > 1 && Arg.starts_with("@")) {
      readOptionsFile(Arg.drop_front(), Depth);
      ++I;
      continue;
    }
    if (!Arg.starts_with("-") || Arg == "-") {
      Out.push_back(Arg.str()); // An input file.
      ++I;
      continue;
    }
    FoundFlag Found = readNvccFlag(Args, I, Command.Filename);
    if (!Found.Option) {
      // Not nvcc's: a host compiler flag nvcc forwards
      // (-forward-unknown-to-host-compiler), kept if Clang knows it.
      appendClangFlags(Args, I, /*FromHostOptions=*/false);
      continue;
    }
    if (Found.Option->Value != Takes::Nothing && !Found.Value) {
      warnMissingValue(Arg);
      ++I;
      continue;
    }
    if (Found.Option->Value == Takes::List)
      for (const std::string &Item : splitList(Found.Value.value_or("")))
        apply(*Found.Option, Item, Depth);
    else
      apply(*Found.Option, Found.Value.value_or(""), Depth);
    I += Found.Consumed;
  }
}

void Translator::apply(const NvccOption &Option, const std::string &Value,
                       unsigned Depth) {
  switch (Option.Action) {
  case Becomes::Dropped:
    return;
  case Becomes::Clang:
    // -DX and -std=c++17 joined, -isystem and -include apart, as usual.
    if (Option.Value == Takes::Nothing) {
      Out.push_back(Option.ClangSpelling.str());
    } else if (Option.ClangSpelling.size() == 2 ||
               Option.ClangSpelling.ends_with("=")) {
      Out.push_back((Option.ClangSpelling + Value).str());
    } else {
      Out.push_back(Option.ClangSpelling.str());
      Out.push_back(Value);
    }
    return;
  case Becomes::HostFlags:
    HostFlags.push_back(Value);
    return;
  case Becomes::GpuArchitecture:
  case Becomes::GpuCode:
  case Becomes::GenerateCode: {
    if (!ArchSpelling.empty())
      ArchSpelling += " ";
    ArchSpelling += "-" + Option.Short.str() + "=" + Value;
    if (Option.Action == Becomes::GpuCode) {
      noteArchs(Value, CodeArchs);
    } else if (Option.Action == Becomes::GpuArchitecture) {
      // native, all and all-major name no architecture gpuguard can use.
      noteArchs(Value, VirtualArchs);
    } else {
      // arch=compute_80,code=[compute_80,sm_80] or code="sm_80,sm_86".
      llvm::StringRef Spec = Value;
      size_t ArchAt = Spec.find("arch=");
      size_t CodeAt = Spec.find("code=");
      if (ArchAt != llvm::StringRef::npos)
        noteArchs(Spec.substr(ArchAt + 5).split(',').first, VirtualArchs);
      if (CodeAt != llvm::StringRef::npos) {
        llvm::StringRef Codes = Spec.substr(CodeAt + 5);
        if (ArchAt != llvm::StringRef::npos && ArchAt > CodeAt)
          Codes = Codes.substr(0, Codes.find("arch="));
        noteArchs(Codes, CodeArchs);
      }
    }
    return;
  }
  case Becomes::RelocatableDeviceCode:
    RelocatableDeviceCode = Value == "true" || Value == "1";
    return;
  case Becomes::DeviceCompile:
  case Becomes::WholeDeviceCompile:
    Out.push_back("-c");
    RelocatableDeviceCode = Option.Action == Becomes::DeviceCompile;
    return;
  case Becomes::Language:
    if (std::optional<llvm::StringRef> Language = clangLanguage(Value)) {
      Out.push_back("-x");
      Out.push_back(Language->str());
    } else {
      dropUnknown("-x " + Value, "-x " + Value);
    }
    return;
  case Becomes::DefaultStream:
    PerThreadDefaultStream = Value == "per-thread";
    return;
  case Becomes::OptionsFile:
    readOptionsFile(Value, Depth);
    return;
  case Becomes::Machine:
    Out.push_back("-m" + Value);
    return;
  }
}

void Translator::noteArchs(llvm::StringRef Text, std::vector<GpuArch> &Into) {
  llvm::SmallVector<llvm::StringRef, 4> Names;
  Text.split(Names, ',');
  for (llvm::StringRef Name : Names)
    if (std::optional<GpuArch> Arch = parseGpuArch(Name))
      Into.push_back(*Arch);
}

void Translator::appendClangFlags(llvm::ArrayRef<std::string> Args, size_t &I,
                                  bool FromHostOptions) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Pointers;
  for (const std::string &Arg : Args)
    Pointers.push_back(Arg.c_str());
  llvm::opt::InputArgList List(Pointers.data(),
                               Pointers.data() + Pointers.size());
  // With -Xcompiler, every value given is the host compiler's; otherwise
  // one flag (and its value, if Clang's flag takes one) at a time.
  size_t End = FromHostOptions ? Args.size() : I + 1;
  while (I < End) {
    unsigned Index = I;
    std::unique_ptr<llvm::opt::Arg> Parsed = Table.ParseOneArg(
        List, Index, llvm::opt::Visibility(clang::options::ClangOption));
    size_t Next = std::max<size_t>(Index, I + 1);
    llvm::StringRef Flag = Args[I];
    if (!Parsed) {
      warnMissingValue(Flag);
      I = Args.size();
      return;
    }
    bool Known =
        Parsed->getOption().getKind() != llvm::opt::Option::UnknownClass &&
        !Parsed->getOption().hasFlag(clang::options::Unsupported);
    if (!Known) {
      // nvcc would have forwarded it; so it may be followed by its value.
      // Take a following plain word along, unless it is the file compiled.
      if (!FromHostOptions && !Flag.contains('=') && Next < Args.size() &&
          !llvm::StringRef(Args[Next]).starts_with("-") &&
          !namesCompiledFile(Args[Next], Command.Filename))
        ++Next;
      dropUnknown(Flag.split('=').first, Flag);
    } else if (!isHostWarningAsError(Flag)) {
      for (size_t Kept = I; Kept < Next; ++Kept)
        Out.push_back(Args[Kept]);
    }
    I = Next;
  }
}

void Translator::dropUnknown(llvm::StringRef Flag, llvm::StringRef Shown) {
  warn(("flag:" + Flag).str(),
       "ignoring '" + Shown + "' in the nvcc command of '" + Command.Filename +
           "' (and wherever else it appears): neither nvcc nor Clang has "
           "such a flag that gpuguard knows");
}

void Translator::warnMissingValue(llvm::StringRef Flag) {
  // Flags after `--` are read the way Clang reads them, which takes a
  // separate value for an input file and drops it.
  warn(("value:" + Flag).str(),
       "ignoring '" + Flag + "' in the nvcc command of '" + Command.Filename +
           "': its value is missing (after '--', join nvcc flags and their "
           "values with '=', as in '" +
           Flag + "=<value>')");
}

void Translator::readOptionsFile(llvm::StringRef Path, unsigned Depth) {
  llvm::SmallString<256> Full(Path);
  if (llvm::sys::path::is_relative(Full) && !Command.Directory.empty()) {
    Full = Command.Directory;
    llvm::sys::path::append(Full, Path);
  }
  // Options files may name options files; a cycle stops here.
  constexpr unsigned MaxDepth = 16;
  if (Depth >= MaxDepth) {
    warn(("optf:" + Full).str(), "the nvcc options file '" + Full +
                                     "' includes itself; its flags are read "
                                     "once");
    return;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Full);
  if (!Buffer) {
    warn(("optf:" + Full).str(),
         "cannot read the nvcc options file '" + Full + "' (command of '" +
             Command.Filename + "'): " + Buffer.getError().message() +
             "; its flags are left out (build the project once so that the "
             "file exists)");
    return;
  }
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver(Allocator);
  llvm::SmallVector<const char *, 16> Tokens;
  llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens,
                                   /*MarkEOLs=*/false);
  std::vector<std::string> Args(Tokens.begin(), Tokens.end());
  translateArgs(Args, Depth + 1);
}

} // namespace

bool isNvccCommandLine(llvm::ArrayRef<std::string> CommandLine) {
  if (CommandLine.empty())
    return false;
  if (isNvccCompiler(CommandLine.front()) ||
      (isLauncher(CommandLine.front()) && CommandLine.size() > 1 &&
       isNvccCompiler(CommandLine[1])))
    return true;
  for (size_t I = 1; I < CommandLine.size(); ++I) {
    llvm::StringRef Arg = CommandLine[I];
    if (!Arg.starts_with("-"))
      continue;
    if ((Arg == "-x" || Arg == "--x") && I + 1 < CommandLine.size() &&
        CommandLine[I + 1] == "cu")
      return true;
    FoundFlag Found = readNvccFlag(CommandLine, I);
    if (Found.Option && Found.Option->OnlyNvcc)
      return true;
  }
  return false;
}

std::vector<std::string>
translateNvccCommandLine(const clang::tooling::CompileCommand &Command,
                         NvccWarningHandler Warn) {
  return Translator(Command, Warn).translate();
}

} // namespace gpuguard::frontend
