//===--- NvccFlagsTest.cpp ------------------------------------------------===//
//
// One case per nvcc flag: the flag in each of its spellings, and the Clang
// command it becomes. Flags for the whole command come right after the
// compiler: the -Xcompiler flags, then the GPU architecture, -fgpu-rdc with
// __CUDACC_RDC__, and the per-thread stream macro.
//
//===----------------------------------------------------------------------===//

#include "Frontend/NvccFlags.h"
#include "Frontend/CompileCommands.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace gpuguard::frontend;
using clang::tooling::CompileCommand;

namespace {

using Args = std::vector<std::string>;

struct Translated {
  Args CommandLine;
  std::vector<std::string> Warnings;
};

Translated translate(Args CommandLine, std::string Directory = "/build") {
  CompileCommand Command;
  Command.Directory = std::move(Directory);
  Command.Filename = "k.cu";
  Command.CommandLine = std::move(CommandLine);
  Translated Result;
  Result.CommandLine = translateNvccCommandLine(
      Command, [&](llvm::StringRef, const llvm::Twine &Message) {
        Result.Warnings.push_back(Message.str());
      });
  return Result;
}

struct FlagCase {
  const char *Name;
  Args Flags;    ///< Between `nvcc` and `k.cu`.
  Args Expected; ///< The whole translated command.
};

void PrintTo(const FlagCase &Case, std::ostream *OS) { *OS << Case.Name; }

class NvccFlagTest : public testing::TestWithParam<FlagCase> {};

TEST_P(NvccFlagTest, Translates) {
  const FlagCase &Case = GetParam();
  Args Command = {"/usr/local/cuda/bin/nvcc"};
  Command.insert(Command.end(), Case.Flags.begin(), Case.Flags.end());
  Command.push_back("k.cu");
  Translated Out = translate(Command);
  EXPECT_EQ(Out.CommandLine, Case.Expected);
  EXPECT_TRUE(Out.Warnings.empty())
      << "unexpected warning: " << Out.Warnings.front();
}

const FlagCase FlagCases[] = {
    {"CompilerBecomesClang", {"-c"}, {"clang++", "-c", "k.cu"}},
    {"GenerateCodeKeepsTheLowestArch",
     {"-gencode", "arch=compute_86,code=sm_86",
      "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
      "-gencode=arch=compute_90a,code=sm_90a"},
     {"clang++", "--cuda-gpu-arch=sm_80", "k.cu"}},
    {"GenerateCodeQuotedCodeList",
     {"--generate-code", "arch=compute_75,code=\"sm_75,compute_75\""},
     {"clang++", "--cuda-gpu-arch=sm_75", "k.cu"}},
    {"GenerateCodeUsesTheVirtualArch",
     {"-gencode=arch=compute_80,code=sm_86"},
     {"clang++", "--cuda-gpu-arch=sm_80", "k.cu"}},
    {"ArchReal", {"-arch=sm_86"}, {"clang++", "--cuda-gpu-arch=sm_86", "k.cu"}},
    {"ArchSeparateValue",
     {"-arch", "sm_86"},
     {"clang++", "--cuda-gpu-arch=sm_86", "k.cu"}},
    {"GpuArchitectureVirtual",
     {"--gpu-architecture=compute_90"},
     {"clang++", "--cuda-gpu-arch=sm_90", "k.cu"}},
    {"ArchWithAFeatureSuffix",
     {"-arch=sm_90a"},
     {"clang++", "--cuda-gpu-arch=sm_90a", "k.cu"}},
    {"ArchWithASuffixClangLacks",
     {"-arch=sm_100f"},
     {"clang++", "--cuda-gpu-arch=sm_100", "k.cu"}},
    {"ArchNativeLeavesTheDefault", {"-arch=native"}, {"clang++", "k.cu"}},
    {"ArchAllLeavesTheDefault", {"-arch", "all"}, {"clang++", "k.cu"}},
    {"ArchAllMajorLeavesTheDefault",
     {"--gpu-architecture=all-major"},
     {"clang++", "k.cu"}},
    {"GpuCodeWithAVirtualArch",
     {"-arch=compute_80", "-code=sm_86,compute_80"},
     {"clang++", "--cuda-gpu-arch=sm_80", "k.cu"}},
    {"GpuCodeAlone",
     {"--gpu-code", "sm_89"},
     {"clang++", "--cuda-gpu-arch=sm_89", "k.cu"}},
    {"XcompilerSeparate",
     {"-Xcompiler", "-fPIC"},
     {"clang++", "-fPIC", "k.cu"}},
    {"XcompilerJoinedList",
     {"-Xcompiler=-fPIC,-Wall"},
     {"clang++", "-fPIC", "-Wall", "k.cu"}},
    {"CompilerOptions",
     {"--compiler-options", "-O2,-fopenmp"},
     {"clang++", "-O2", "-fopenmp", "k.cu"}},
    {"XcompilerFlagWithItsValue",
     {"--compiler-options=-isystem,/opt/inc"},
     {"clang++", "-isystem", "/opt/inc", "k.cu"}},
    {"XcompilerFlagWithItsValueInTwoFlags",
     {"-Xcompiler", "-include", "-Xcompiler", "pre.h"},
     {"clang++", "-include", "pre.h", "k.cu"}},
    {"XcompilerWarningsAsErrorsDropped",
     {"-Xcompiler=-Wall,-Werror,-Werror=shadow,-pedantic-errors"},
     {"clang++", "-Wall", "k.cu"}},
    {"XptxasDropped",
     {"-Xptxas", "-v", "-Xptxas=-O3,-warn-spills", "--ptxas-options=-v"},
     {"clang++", "k.cu"}},
    {"XnvlinkDropped",
     {"-Xnvlink", "--suppress-stack-size-warning", "--nvlink-options=-v"},
     {"clang++", "k.cu"}},
    {"XfatbinDropped", {"-Xfatbin=-compress-all"}, {"clang++", "k.cu"}},
    {"XcudafeDropped",
     {"-Xcudafe", "--diag_suppress=esa_on_defaulted_function_ignored"},
     {"clang++", "k.cu"}},
    {"XarchiveDropped", {"-Xarchive", "-foo"}, {"clang++", "k.cu"}},
    {"XlinkerDropped", {"-Xlinker", "-rpath,/opt/lib"}, {"clang++", "k.cu"}},
    {"ForwardUnknownToHostCompilerDropped",
     {"-forward-unknown-to-host-compiler", "--forward-unknown-opts"},
     {"clang++", "k.cu"}},
    {"ForwardedHostFlagsKept",
     {"-forward-unknown-to-host-compiler", "-fPIC", "-Wall", "-march=native",
      "-pthread"},
     {"clang++", "-fPIC", "-Wall", "-march=native", "-pthread", "k.cu"}},
    {"CcbinDropped",
     {"-ccbin", "/usr/bin/g++-12", "--compiler-bindir=/usr/bin"},
     {"clang++", "k.cu"}},
    {"AllowUnsupportedCompilerDropped",
     {"-allow-unsupported-compiler"},
     {"clang++", "k.cu"}},
    {"ExptRelaxedConstexprDropped",
     {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr"},
     {"clang++", "k.cu"}},
    {"ExtendedLambdaDropped",
     {"--expt-extended-lambda", "--extended-lambda", "-extended-lambda"},
     {"clang++", "k.cu"}},
    {"RdcTrue",
     {"-rdc=true"},
     {"clang++", "-fgpu-rdc", "-D__CUDACC_RDC__=1", "k.cu"}},
    {"RdcFalse", {"-rdc=false"}, {"clang++", "k.cu"}},
    {"RelocatableDeviceCodeSeparate",
     {"--relocatable-device-code", "true"},
     {"clang++", "-fgpu-rdc", "-D__CUDACC_RDC__=1", "k.cu"}},
    {"RdcLastOneWins", {"-rdc=true", "-rdc", "false"}, {"clang++", "k.cu"}},
    {"DeviceCompile",
     {"-dc"},
     {"clang++", "-fgpu-rdc", "-D__CUDACC_RDC__=1", "-c", "k.cu"}},
    {"WholeProgramDeviceCompile", {"--device-w"}, {"clang++", "-c", "k.cu"}},
    {"DeviceLinkDropped", {"-dlink"}, {"clang++", "k.cu"}},
    {"UseFastMathDropped",
     {"--use_fast_math", "-use_fast_math"},
     {"clang++", "k.cu"}},
    {"FloatingPointModesDropped",
     {"--ftz=true", "-prec-div=false", "--prec-sqrt", "false", "-fmad=true"},
     {"clang++", "k.cu"}},
    {"LineinfoDropped",
     {"-lineinfo", "--generate-line-info"},
     {"clang++", "k.cu"}},
    {"DeviceDebugDefinesCudaccDebug",
     {"-G"},
     {"clang++", "-D__CUDACC_DEBUG__=1", "k.cu"}},
    {"DeviceDebugLong",
     {"--device-debug"},
     {"clang++", "-D__CUDACC_DEBUG__=1", "k.cu"}},
    {"StdSeparate", {"--std", "c++17"}, {"clang++", "-std=c++17", "k.cu"}},
    {"StdJoined", {"-std=c++17"}, {"clang++", "-std=c++17", "k.cu"}},
    {"StdLongJoined", {"--std=c++17"}, {"clang++", "-std=c++17", "k.cu"}},
    {"StdShortSeparate", {"-std", "c++20"}, {"clang++", "-std=c++20", "k.cu"}},
    {"LanguageCu", {"-x", "cu"}, {"clang++", "-x", "cuda", "k.cu"}},
    {"LanguageCxx", {"--x=c++"}, {"clang++", "-x", "c++", "k.cu"}},
    {"IncludePathsKept",
     {"-I/a", "-I", "/b", "--include-path=/c,/d"},
     {"clang++", "-I/a", "-I/b", "-I/c", "-I/d", "k.cu"}},
    {"SystemIncludesKept",
     {"-isystem", "/e", "-isystem=/f", "--system-include", "/g"},
     {"clang++", "-isystem", "/e", "-isystem", "/f", "-isystem", "/g", "k.cu"}},
    {"MacrosKept",
     {"-DA=1", "-D", "B", "--define-macro=C,D=2", "-UE", "--undefine-macro",
      "F"},
     {"clang++", "-DA=1", "-DB", "-DC", "-DD=2", "-UE", "-UF", "k.cu"}},
    {"PreIncludeKept",
     {"-include", "pre.h", "--pre-include=pre2.h"},
     {"clang++", "-include", "pre.h", "-include", "pre2.h", "k.cu"}},
    {"DefaultStreamPerThread",
     {"--default-stream", "per-thread"},
     {"clang++", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "k.cu"}},
    {"DefaultStreamLegacy", {"-default-stream=legacy"}, {"clang++", "k.cu"}},
    {"MaxrregcountDropped",
     {"-maxrregcount=32", "--maxrregcount", "64"},
     {"clang++", "k.cu"}},
    {"ThreadsDropped", {"-t", "0", "--threads=4"}, {"clang++", "k.cu"}},
    {"SplitCompileDropped", {"--split-compile=0"}, {"clang++", "k.cu"}},
    {"WnoDeprecatedGpuTargetsDropped",
     {"-Wno-deprecated-gpu-targets"},
     {"clang++", "k.cu"}},
    {"NvccWarningFlagsDropped",
     {"-Wreorder", "--Wdefault-stream-launch", "-Wmissing-launch-bounds"},
     {"clang++", "k.cu"}},
    {"DiagSuppressDropped",
     {"--diag-suppress=177,550", "-diag-suppress", "20012", "--diag-warn=1"},
     {"clang++", "k.cu"}},
    {"NvccWerrorDropped",
     {"-Werror=all-warnings", "--Werror", "cross-execution-space-call,reorder"},
     {"clang++", "k.cu"}},
    {"CudartDropped",
     {"-cudart", "shared", "--cudart=static"},
     {"clang++", "k.cu"}},
    {"KeepDropped",
     {"--keep", "-keep-dir", "/tmp/k", "--save-temps"},
     {"clang++", "k.cu"}},
    {"OutputDropped", {"-o", "k.o", "--output-file=k2.o"}, {"clang++", "k.cu"}},
    {"DependencyFilesDropped",
     {"-MD", "-MF", "k.d", "-MT", "k.o"},
     {"clang++", "k.cu"}},
    {"OptimizeKept",
     {"-O3", "--optimize", "2"},
     {"clang++", "-O3", "-O2", "k.cu"}},
    {"DebugKept", {"-g"}, {"clang++", "-g", "k.cu"}},
    {"DisableWarningsKept", {"--disable-warnings"}, {"clang++", "-w", "k.cu"}},
    {"NoExceptions", {"-noeh"}, {"clang++", "-fno-exceptions", "k.cu"}},
    {"Machine", {"--machine=64", "-m64"}, {"clang++", "-m64", "-m64", "k.cu"}},
    {"LibrariesDropped",
     {"-lcuda", "-L/usr/lib", "--library=cublas", "-cudadevrt", "static"},
     {"clang++", "k.cu"}},
    {"CodeGenerationFlagsDropped",
     {"-res-usage", "--resource-usage", "-src-in-ptx", "--restrict",
      "-extra-device-vectorization", "-dopt=on", "-dlto",
      "--static-global-template-stub=true"},
     {"clang++", "k.cu"}},
    {"ExtensibleWholeProgramDefinesCudaccEwp",
     {"-ewp"},
     {"clang++", "-D__CUDACC_EWP__=1", "k.cu"}},
    {"VerboseAndDryrunDropped", {"-v", "--dryrun"}, {"clang++", "k.cu"}},
};

INSTANTIATE_TEST_SUITE_P(NvccFlags, NvccFlagTest, testing::ValuesIn(FlagCases),
                         [](const testing::TestParamInfo<FlagCase> &Info) {
                           return std::string(Info.param.Name);
                         });

TEST(NvccFlagsTest, DetectsNvccCommands) {
  EXPECT_TRUE(isNvccCommandLine({"/usr/local/cuda/bin/nvcc", "k.cu"}));
  EXPECT_TRUE(isNvccCommandLine({"C:/cuda/bin/nvcc.exe", "k.cu"}));
  EXPECT_TRUE(isNvccCommandLine({"ccache", "nvcc", "k.cu"}));
  EXPECT_TRUE(
      isNvccCommandLine({"clang++", "--expt-relaxed-constexpr", "k.cu"}));
  EXPECT_TRUE(isNvccCommandLine({"clang++", "-x", "cu", "k.cu"}));
  EXPECT_TRUE(isNvccCommandLine({"c++", "-Xcompiler=-fPIC", "k.cu"}));
  EXPECT_FALSE(isNvccCommandLine({"clang++", "-arch", "x86_64", "k.cu"}));
  EXPECT_FALSE(isNvccCommandLine({"clang++", "-O2", "-Iinc", "-G", "k.cu"}));
  EXPECT_FALSE(isNvccCommandLine({"clang++", "-xcuda", "-c", "k.cu"}));
}

TEST(NvccFlagsTest, LaunchersAreDropped) {
  EXPECT_EQ(translate({"ccache", "/usr/local/cuda/bin/nvcc", "-c", "k.cu"})
                .CommandLine,
            Args({"clang++", "-c", "k.cu"}));
}

TEST(NvccFlagsTest, ClangCommandsKeepTheirCompiler) {
  EXPECT_EQ(translate({"clang++", "-rdc=true", "k.cu"}).CommandLine,
            Args({"clang++", "-fgpu-rdc", "-D__CUDACC_RDC__=1", "k.cu"}));
}

TEST(NvccFlagsTest, InputsAfterDashDashAndClangLanguagesStay) {
  // The shape of a header's command that Clang's interpolation borrowed.
  Translated Out =
      translate({"nvcc", "-DX", "-x", "cuda", "-Xcompiler=-fPIC",
                 "-gencode=arch=compute_86,code=sm_86", "--", "-k.cuh"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-fPIC", "--cuda-gpu-arch=sm_86",
                                   "-DX", "-x", "cuda", "--", "-k.cuh"}));
  EXPECT_TRUE(Out.Warnings.empty());
}

TEST(NvccFlagsTest, UnknownFlagsAreDroppedWithAWarning) {
  Translated Out = translate({"nvcc", "--no-such-flag", "-c", "k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-c", "k.cu"}));
  ASSERT_EQ(Out.Warnings.size(), 1u);
  EXPECT_NE(Out.Warnings[0].find("'--no-such-flag'"), std::string::npos)
      << Out.Warnings[0];

  // A value that follows goes with it, but never the file compiled.
  Out = translate({"nvcc", "-no-such-flag", "value", "-c", "k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-c", "k.cu"}));
  Out = translate({"nvcc", "-c", "-no-such-flag", "/src/k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-c", "/src/k.cu"}));

  // Host flags Clang does not know.
  Out = translate({"nvcc", "-Xcompiler=-fPIC,-fno-such-gcc-flag", "k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-fPIC", "k.cu"}));
  ASSERT_EQ(Out.Warnings.size(), 1u);
  EXPECT_NE(Out.Warnings[0].find("'-fno-such-gcc-flag'"), std::string::npos);

  // A flag that needs a value and has none, never takes the file for it.
  Out = translate({"nvcc", "k.cu", "-arch"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "k.cu"}));
  EXPECT_EQ(Out.Warnings.size(), 1u);
  Out = translate({"nvcc", "--default-stream", "/src/k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "/src/k.cu"}));
  EXPECT_EQ(Out.Warnings.size(), 1u);
}

TEST(NvccFlagsTest, ArchitecturesClangLacksLeaveTheDefault) {
  Translated Out = translate({"nvcc", "-arch=sm_999", "k.cu"});
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "k.cu"}));
  ASSERT_EQ(Out.Warnings.size(), 1u);
  EXPECT_NE(Out.Warnings[0].find("sm_999"), std::string::npos);
  // One Clang knows is taken instead, even when higher.
  Out = translate({"nvcc", "-gencode=arch=compute_999,code=sm_999",
                   "-gencode=arch=compute_90,code=sm_90", "k.cu"});
  EXPECT_EQ(Out.CommandLine,
            Args({"clang++", "--cuda-gpu-arch=sm_90", "k.cu"}));
  EXPECT_TRUE(Out.Warnings.empty());
}

class NvccOptionsFileTest : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("nvcc-options", Directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Directory); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Directory);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
    ASSERT_FALSE(EC);
  }
  llvm::SmallString<128> Directory;
};

TEST_F(NvccOptionsFileTest, OptionsFilesAreExpanded) {
  write("includes.rsp", "-I\"dir with space\" --options-file nested.rsp\n");
  write("nested.rsp", "-gencode arch=compute_86,code=sm_86 -Xcompiler -fPIC");
  write("at.rsp", "-DFROM_AT_FILE");
  Translated Out = translate({"nvcc", "--options-file", "includes.rsp",
                              "-optf=at.rsp", "@at.rsp", "k.cu"},
                             std::string(Directory));
  EXPECT_EQ(Out.CommandLine, Args({"clang++", "-fPIC", "--cuda-gpu-arch=sm_86",
                                   "-Idir with space", "-DFROM_AT_FILE",
                                   "-DFROM_AT_FILE", "k.cu"}));
  EXPECT_TRUE(Out.Warnings.empty());
}

TEST_F(NvccOptionsFileTest, MissingAndCyclicOptionsFilesAreReported) {
  write("self.rsp", "-DSELF --options-file self.rsp");
  Translated Out = translate(
      {"nvcc", "--options-file", "missing.rsp", "-optf", "self.rsp", "k.cu"},
      std::string(Directory));
  EXPECT_EQ(Out.CommandLine.front(), "clang++");
  EXPECT_EQ(Out.CommandLine.back(), "k.cu");
  ASSERT_EQ(Out.Warnings.size(), 2u);
  EXPECT_NE(Out.Warnings[0].find("missing.rsp"), std::string::npos);
  EXPECT_NE(Out.Warnings[1].find("self.rsp"), std::string::npos);
}

TEST(NvccFlagsTest, AdjustedNvccCommandsKeepTheirArchitecture) {
  CompileCommand Command;
  Command.Directory = "/build";
  Command.Filename = "/src/k.cu";
  Command.CommandLine = {"/usr/local/cuda/bin/nvcc",
                         "--generate-code=arch=compute_86,code=[sm_86]",
                         "-x",
                         "cu",
                         "-c",
                         "/src/k.cu"};
  CudaHeaders Headers;
  Headers.Toolkit = CudaToolkit{"/opt/cuda", 12, 4, /*CcclIncludeDir=*/""};
  auto Out = adjustCompileCommand(Command, Headers, "/res");
  ASSERT_EQ(Out.size(), 2u);
  for (const CompileCommand &Side : Out) {
    EXPECT_EQ(Side.CommandLine.front(), "clang++");
    EXPECT_TRUE(llvm::is_contained(Side.CommandLine, "--cuda-gpu-arch=sm_86"));
    EXPECT_FALSE(llvm::is_contained(Side.CommandLine, "--cuda-gpu-arch=sm_80"));
    EXPECT_TRUE(llvm::is_contained(Side.CommandLine, "cuda"));
    EXPECT_FALSE(llvm::is_contained(Side.CommandLine, "cu"));
  }
}

TEST(NvccFlagsTest, HeadersBorrowTranslatedCommands) {
  // Clang's inference borrows a neighbour's command for a header the
  // database does not list; nvcc's separate values must survive it.
  std::string Error;
  auto Json = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      R"([{"directory": "/build", "file": "/src/a.cu",
           "command": "nvcc --default-stream per-thread -ccbin /usr/bin/g++ -DX -x cu -rdc=true -c /src/a.cu"}])",
      Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Json) << Error;
  CudaHeaders Headers;
  Headers.FallbackIncludeDir = "/fallback";
  GpuGuardCompilationDatabase Database(std::move(Json), /*AutoDetect=*/false,
                                       Headers, "/res");
  std::vector<std::string> Warnings;
  Database.setWarningHandler([&](llvm::StringRef, const llvm::Twine &Message) {
    Warnings.push_back(Message.str());
  });
  auto Commands = Database.getCompileCommands("/src/a.cuh");
  ASSERT_EQ(Commands.size(), 2u);
  for (const CompileCommand &Side : Commands) {
    EXPECT_TRUE(llvm::is_contained(Side.CommandLine,
                                   "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"));
    EXPECT_TRUE(llvm::is_contained(Side.CommandLine, "-fgpu-rdc"));
    EXPECT_TRUE(llvm::is_contained(Side.CommandLine, "-DX"));
    EXPECT_EQ(Side.CommandLine.back(), "/src/a.cuh");
  }
  EXPECT_TRUE(Warnings.empty()) << Warnings.front();
}

TEST(NvccFlagsTest, UnknownFlagsAreReportedWithOneKeyPerFlag) {
  std::string Error;
  auto Json = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      R"([{"directory": "/build", "file": "/src/a.cu",
           "command": "nvcc --bogus-flag -Xptxas=-v -c /src/a.cu"},
          {"directory": "/build", "file": "/src/b.cu",
           "command": "nvcc --bogus-flag -c /src/b.cu"}])",
      Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Json) << Error;
  CudaHeaders Headers;
  Headers.FallbackIncludeDir = "/fallback";
  GpuGuardCompilationDatabase Database(std::move(Json), /*AutoDetect=*/false,
                                       Headers, "/res");
  // Every command that holds the flag reports it, under one key: the
  // driver prints each key once, for the first file in input order.
  std::vector<std::string> Keys, Warnings;
  Database.setWarningHandler(
      [&](llvm::StringRef Key, const llvm::Twine &Message) {
        Keys.push_back(Key.str());
        Warnings.push_back(Message.str());
      });
  for (const char *File : {"/src/a.cu", "/src/b.cu", "/src/a.cu"}) {
    auto Commands = Database.getCompileCommands(File);
    ASSERT_EQ(Commands.size(), 2u);
    EXPECT_FALSE(llvm::is_contained(Commands[0].CommandLine, "--bogus-flag"));
  }
  ASSERT_EQ(Warnings.size(), 3u);
  llvm::StringSet<> DistinctKeys;
  for (const std::string &Key : Keys)
    DistinctKeys.insert(Key);
  EXPECT_EQ(DistinctKeys.size(), 1u);
  EXPECT_NE(Warnings[0].find("'--bogus-flag'"), std::string::npos);
  EXPECT_NE(Warnings[0].find("'/src/a.cu'"), std::string::npos);
  EXPECT_NE(Warnings[1].find("'/src/b.cu'"), std::string::npos);
}

} // namespace
