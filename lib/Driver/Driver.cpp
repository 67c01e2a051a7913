//===--- Driver.cpp - The gpuguard command line ---------------------------===//

#include "Driver/Driver.h"
#include "Doctor/Doctor.h"
#include "Driver/ChangedTranslationUnits.h"
#include "Driver/CheckRunner.h"
#include "Driver/CompileDatabase.h"
#include "Driver/Config.h"
#include "Driver/InputSelection.h"
#include "Driver/Messages.h"
#include "Driver/Options.h"
#include "Driver/OptionsProvider.h"
#include "Driver/OutcomePrinter.h"
#include "Driver/Paths.h"
#include "Driver/ResultCache.h"
#include "Driver/WorkerPool.h"
#include "Frontend/CompileCommands.h"
#include "Frontend/CudaToolkit.h"
#include "Frontend/PreambleCache.h"
#include "Frontend/TorchDiscovery.h"
#include "Instrument/OutputWriter.h"
#include "Output/Reporter.h"
#include "Support/ContentHash.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <optional>
#include <tuple>

#ifndef GPUGUARD_CLANG_RESOURCE_DIR
#error "GPUGUARD_CLANG_RESOURCE_DIR must be defined by the build"
#endif
#ifndef GPUGUARD_VERSION
#define GPUGUARD_VERSION "unknown"
#endif

using namespace clang::tidy;
using namespace clang::tooling;

namespace gpuguard {
namespace {

/// The most the precompiled preambles may take on disk; the least recently
/// used go first. A preamble of the CUDA toolkit's headers takes 8-25 MB,
/// one of LibTorch's 70 MB: llm.c and the cuda-samples corpus (a directory
/// of its own per sample) need 3.6 GB, and a 2 GiB limit evicted the first
/// files' preambles before the run ended.
constexpr uint64_t PreambleCacheBytes = uint64_t(8) << 30;

/// What the command line says besides the options.
struct CommandLine {
  /// `gpuguard instrument ...` takes the same command line and also writes
  /// an instrumented copy of each input.
  bool Instrumenting = false;
  /// A `--` with no flags after it: such inputs get the default command, as
  /// without a database.
  bool BareDashDash = false;
  /// The flags after `--`, which describe how to compile every input.
  std::unique_ptr<CompilationDatabase> FixedDatabase;
};

/// Parses the command line; false, once the error is printed, when it is
/// unusable.
bool parseArguments(int Argc, const char **Argv, CommandLine &Line) {
  std::vector<const char *> Arguments(Argv, Argv + Argc);
  Line.Instrumenting = Argc > 1 && llvm::StringRef(Argv[1]) == "instrument";
  if (Line.Instrumenting)
    Arguments.erase(Arguments.begin() + 1);
  Argc = static_cast<int>(Arguments.size());
  Argv = Arguments.data();
  Line.BareDashDash = Argc > 0 && llvm::StringRef(Argv[Argc - 1]) == "--";
  std::string FixedError;
  Line.FixedDatabase =
      FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FixedError);
  return parseCommandLine(Argc, Argv);
}

/// Whether the options suit the mode, `gpuguard` or `gpuguard instrument`;
/// false once the error is printed.
bool checkModeOptions(bool Instrumenting) {
  if (!(options::Timeout >= 0)) {
    error("--timeout takes a number of seconds, or 0 for no limit");
    return false;
  }
  if (!Instrumenting && (options::OutputDirectory.getNumOccurrences() > 0 ||
                         options::InstrumentWhat.getNumOccurrences() > 0)) {
    error("-o and --instrument belong to 'gpuguard instrument <file>... -o "
          "<dir>'");
    return false;
  }
  if (!Instrumenting)
    return true;
  if (options::OutputDirectory.empty()) {
    error("no output directory; run 'gpuguard instrument <file>... -o "
          "<dir>'");
    return false;
  }
  if (options::Fix || options::FixErrors || options::FixNotes ||
      !options::ExportFixes.empty()) {
    error("'gpuguard instrument' never changes its inputs; drop --fix, "
          "--fix-errors, --fix-notes and --export-fixes");
    return false;
  }
  return true;
}

/// The output stage of the run (--format, --baseline, --diff and the
/// rest); null, once the error is printed, when they cannot be used.
std::unique_ptr<output::Reporter>
createReporter(const char *Argv0, const std::vector<std::string> &Inputs) {
  if (options::OutputFormat != output::Format::Text &&
      (options::Fix || options::FixErrors || options::FixNotes)) {
    error("--fix prints clang-tidy's text, which --format=" +
          llvm::Twine(options::OutputFormat == output::Format::Sarif
                          ? "sarif"
                          : "github") +
          " replaces; run --fix without --format");
    return nullptr;
  }
  if (options::OutputFormat == output::Format::Text &&
      options::OutputFile.getNumOccurrences() > 0) {
    error("--output applies to --format=sarif and --format=github; add one "
          "of them or drop --output");
    return nullptr;
  }
  output::ReporterOptions Options;
  Options.OutputFormat = options::OutputFormat;
  Options.OutputPath = options::OutputFile;
  Options.ProjectRoot = options::SarifRoot;
  Options.DocsUrl = options::DocsUrl;
  Options.ToolVersion = GPUGUARD_VERSION;
  Options.BaselinePath = options::BaselineFile;
  Options.WriteBaselinePath = options::WriteBaselineFile;
  Options.DiffSource = options::DiffSource;
  if (options::DiffSource.getNumOccurrences() > 0 &&
      options::DiffSource.empty()) {
    error("--diff needs a value: --diff=<git revision>, or --diff=- to read "
          "a unified diff from standard input");
    return nullptr;
  }
  if (!Inputs.empty())
    Options.DiffDirectory =
        llvm::sys::path::parent_path(makeAbsolute(Inputs.front())).str();
  Options.Argv0 = Argv0;
  llvm::Expected<std::unique_ptr<output::Reporter>> Created =
      output::Reporter::create(
          std::move(Options),
          [](const llvm::Twine &Message) { warning(Message); });
  if (!Created) {
    error(llvm::toString(Created.takeError()));
    return nullptr;
  }
  return std::move(*Created);
}

/// The files a run checks, and whether they came from the compile database
/// of -p, where a missing one means that the database is stale.
struct InputFiles {
  std::vector<std::string> Files;
  bool FromDatabase = false;
};

/// Narrows \p Inputs to what --diff, -p and --shard ask for when no file is
/// named. Returns the exit code when the run ends here: nothing left to
/// check, or an unusable --shard.
std::optional<int> chooseInputs(output::Reporter *Reporter,
                                const CompilationDatabase *Underlying,
                                InputFiles &Inputs) {
  bool FromBuildDir = options::BuildPath.getNumOccurrences() > 0;
  // With --diff and no files named, the changed sources are the inputs,
  // and the sources that include a changed header.
  if (Reporter && Inputs.Files.empty() && Reporter->hasDiff()) {
    Inputs.Files =
        changedTranslationUnits(Reporter->changedFiles(), Reporter->diffRoot(),
                                Underlying, FromBuildDir);
    if (Inputs.Files.empty()) {
      if (!options::Quiet)
        note("the diff changes no C, C++ or CUDA source, nor a header one "
             "includes; nothing to check");
      return Success;
    }
  }
  if (Inputs.Files.empty() && Underlying && FromBuildDir) {
    Inputs.Files = checkableSources(*Underlying);
    Inputs.FromDatabase = true;
  }
  if (options::Shard.getNumOccurrences() == 0)
    return std::nullopt;
  llvm::Expected<ShardSpec> Shard = parseShard(options::Shard);
  if (!Shard) {
    error(llvm::toString(Shard.takeError()));
    return UsageError;
  }
  Inputs.Files = selectShard(Inputs.Files, *Shard);
  if (Inputs.Files.empty()) {
    if (!options::Quiet)
      note("shard " + options::Shard + " has no files; nothing to check");
    return Success;
  }
  return std::nullopt;
}

/// Answers --list-checks or --dump-config from the configuration of
/// \p Path.
int printConfiguration(ClangTidyOptionsProvider &Provider,
                       const std::string &Path) {
  ClangTidyOptions Effective = Provider.getOptions(Path);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
  if (options::ListChecks) {
    llvm::outs() << "Enabled checks:";
    for (const std::string &Name : Enabled)
      llvm::outs() << "\n    " << Name;
    llvm::outs() << "\n\n";
    return Success;
  }
  Effective.CheckOptions = getCheckOptions(Effective, false, false);
  ClangTidyOptions Dump = ClangTidyOptions::getDefaults().merge(Effective, 0);
  filterCheckOptions(Dump, Enabled);
  llvm::outs() << configurationAsText(Dump) << "\n";
  return Success;
}

/// The inputs that can be checked, made absolute: readable, and with a
/// usable configuration that enables at least one check. Each other input
/// gets its error, and raises \p Exit.
std::vector<std::string> checkableInputs(const InputFiles &Inputs,
                                         ClangTidyOptionsProvider &Provider,
                                         int &Exit) {
  auto Raise = [&Exit](int Code) { Exit = std::max(Exit, Code); };
  llvm::StringSet<> KnownChecks = getAllChecksAndOptions(false, false).Checks;
  std::vector<std::string> Checkable;
  ConfigValidator Validator;
  bool UseFileConfig = options::ConfigFile.getNumOccurrences() == 0 &&
                       options::Config.getNumOccurrences() == 0;
  llvm::StringSet<> ReportedGlobs;
  for (const std::string &Input : Inputs.Files) {
    std::string Path = makeAbsolute(Input);
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
      if (Inputs.FromDatabase && EC == std::errc::no_such_file_or_directory)
        error("'" + Input + "' is listed in " + options::BuildPath +
              "/compile_commands.json but does not exist; re-run the "
              "build's configure step to refresh the database");
      else
        error("cannot read '" + Input + "': " + EC.message() +
              "; check the path");
      Raise(InputError);
      continue;
    }
    if (llvm::sys::fs::is_directory(Status)) {
      error("'" + Input +
            "' is a directory; pass source files, or -p <build "
            "dir> to check a compile database");
      Raise(InputError);
      continue;
    }
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path); !Buffer) {
      error("cannot read '" + Input + "': " + Buffer.getError().message() +
            "; check its permissions");
      Raise(InputError);
      continue;
    }
    if (UseFileConfig) {
      if (std::optional<std::string> Problem = Validator.validateFor(Path)) {
        error(*Problem + "; fix it (see docs/index.md) so that '" + Input +
              "' can be checked");
        Raise(UsageError);
        continue;
      }
    }
    // Globs the user wrote (not gpuguard's defaults) that match nothing are
    // most likely typos.
    for (const auto &[Options, Source] : Provider.getRawOptions(Path)) {
      if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary ||
          Source == GpuGuardOptionsSource || !Options.Checks)
        continue;
      for (const std::string &Glob :
           unknownCheckGlobs(*Options.Checks, KnownChecks))
        if (ReportedGlobs.insert(Glob).second)
          warning("'" + Glob + "' in Checks (" + Source +
                  ") matches no gpuguard check; see --list-checks");
    }
    ClangTidyOptions Effective = Provider.getOptions(Path);
    if (getCheckNames(Effective, false, false).empty()) {
      std::string AllGlobs = Effective.Checks.value_or("");
      llvm::StringRef Globs = AllGlobs;
      Globs.consume_back(",-clang-analyzer-*");
      error("no check is enabled for '" + Input + "' by Checks: '" + Globs +
            "'; enable one, such as --checks='cuda-*', or see --list-checks");
      Raise(UsageError);
      continue;
    }
    Checkable.push_back(Path);
  }
  return Checkable;
}

/// The CUDA headers to parse \p Files with: a toolkit, or gpuguard's
/// bundled headers. False, once the error is printed, when there are none.
bool findCudaHeaders(const char *Argv0, const std::vector<std::string> &Files,
                     frontend::CudaHeaders &Headers) {
  Headers.DefaultGpuArch = options::CudaGpuArch;
  Headers.FallbackIncludeDir = frontend::findFallbackHeaders(
      Argv0,
      llvm::sys::Process::GetEnv("GPUGUARD_CUDA_FALLBACK_DIR").value_or(""));
  Headers.NvccCompatHeader =
      frontend::nvccCompatHeader(Headers.FallbackIncludeDir);
  Headers.HostOpenMPIncludeDir =
      frontend::findHostOpenMPIncludeDir(GPUGUARD_CLANG_RESOURCE_DIR);
  if (!options::BundledCudaHeaders)
    Headers.Toolkit = frontend::findCudaToolkit(options::CudaPath);
  if (options::CudaPath.getNumOccurrences() > 0 && !Headers.Toolkit &&
      !options::BundledCudaHeaders) {
    error("no CUDA toolkit at '" + options::CudaPath +
          "' (no include/cuda.h); fix --cuda-path, or drop it to use an "
          "installed toolkit or the bundled headers");
    return false;
  }
  bool AnyCuda = llvm::any_of(Files, [&](const std::string &File) {
    return frontend::isCudaSourcePath(File);
  });
  // A $CUDA_PATH that holds no toolkit is passed over, as nvcc's users
  // expect, but never silently: the headers used instead may not be the
  // ones the user meant.
  std::string CudaPathVariable =
      llvm::sys::Process::GetEnv("CUDA_PATH").value_or("");
  if (AnyCuda && options::CudaPath.getNumOccurrences() == 0 &&
      !options::BundledCudaHeaders && !CudaPathVariable.empty() &&
      !frontend::readCudaToolkit(CudaPathVariable))
    warning("$CUDA_PATH='" + CudaPathVariable +
            "' holds no CUDA toolkit (no include/cuda.h); using " +
            (Headers.Toolkit ? "the toolkit at '" + Headers.Toolkit->Path + "'"
                             : std::string("gpuguard's bundled CUDA headers")) +
            " instead; fix or unset CUDA_PATH, or pass --cuda-path");
  if (AnyCuda && !Headers.Toolkit) {
    if (!llvm::sys::fs::exists(Headers.FallbackIncludeDir +
                               "/__gpuguard_cuda_fallback.h")) {
      error("no CUDA toolkit found and the bundled CUDA headers are missing "
            "from '" +
            Headers.FallbackIncludeDir +
            "'; reinstall gpuguard or pass --cuda-path=<toolkit>");
      return false;
    }
    if (!options::Quiet)
      note("no CUDA toolkit found ($CUDA_PATH, /usr/local/cuda); parsing "
           "with gpuguard's bundled CUDA headers (pass --cuda-path to use a "
           "toolkit)");
  }

  return true;
}

/// The LibTorch flags for files whose commands do not find LibTorch; they
/// must outlive the database.
std::unique_ptr<frontend::TorchDefaults>
useTorchDefaults(frontend::GpuGuardCompilationDatabase &Database,
                 const frontend::CudaHeaders &Headers) {
  frontend::TorchDefaults::Options TorchOptions;
  TorchOptions.CudaShimDir =
      frontend::torchShimHeaders(Headers.FallbackIncludeDir);
  if (Headers.Toolkit) {
    TorchOptions.CudaIncludeDirs.push_back(Headers.Toolkit->Path + "/include");
    if (!Headers.Toolkit->CcclIncludeDir.empty())
      TorchOptions.CudaIncludeDirs.push_back(Headers.Toolkit->CcclIncludeDir);
  }
  TorchOptions.UsePch = options::TorchPch;
  TorchOptions.CacheDir = frontend::defaultCacheDir();
  TorchOptions.ToolVersion = GPUGUARD_VERSION;
  TorchOptions.ClangResourceDir = GPUGUARD_CLANG_RESOURCE_DIR;
  llvm::append_range(TorchOptions.ExtraArgs, options::ExtraArgsBefore);
  llvm::append_range(TorchOptions.ExtraArgs, options::ExtraArgs);
  // Said again for every LibTorch file; printed with the first in input
  // order, like the nvcc warnings.
  auto Collect = [](bool IsNote) {
    return [IsNote](const llvm::Twine &Message) {
      std::string Text = Message.str();
      setupMessage({"torch:" + Text, Text, IsNote});
    };
  };
  if (!options::Quiet) {
    TorchOptions.Note = Collect(/*IsNote=*/true);
    TorchOptions.Progress = [](const llvm::Twine &Message) { note(Message); };
  }
  TorchOptions.Warn = Collect(/*IsNote=*/false);
  auto Torch =
      std::make_unique<frontend::TorchDefaults>(std::move(TorchOptions));
  Database.setTorchDefaults(Torch.get());
  return Torch;
}

/// The hash of gpuguard's own executable (a rebuilt one may find other
/// things), or "" when it cannot be read.
std::string executableHash(const char *Argv0) {
  std::string Executable = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runGpuGuard));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Binary =
      llvm::MemoryBuffer::getFile(Executable, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  return Binary ? support::contentHash((*Binary)->getBuffer()) : "";
}

/// Where the files' preambles are precompiled, unless --no-preamble; not
/// for `gpuguard instrument`, whose copies are written from every directive.
std::unique_ptr<frontend::PreambleCache> openPreambleCache(const char *Argv0,
                                                           bool Instrumenting) {
  if (options::NoPreamble || Instrumenting)
    return nullptr;
  std::string Directory = frontend::PreambleCache::defaultDirectory();
  std::string Executable = executableHash(Argv0);
  if (Directory.empty() || Executable.empty())
    return nullptr;
  return std::make_unique<frontend::PreambleCache>(
      Directory, std::string(GPUGUARD_VERSION) + " " + Executable,
      PreambleCacheBytes);
}

/// The result cache of a check run, unless --no-cache, and the part of
/// each key that all files share: gpuguard's own executable (a rebuilt one
/// may find other things), its LLVM, and the options outside each file's
/// configuration that change what a check reports. Sets \p Failed, having
/// said why, when the remote cache's URL is not one.
std::pair<std::unique_ptr<ResultCache>, CacheUse>
openResultCache(const char *Argv0, bool &Failed) {
  if (options::NoCache)
    return {};
  std::vector<std::unique_ptr<CacheStore>> Stores;
  std::string Directory = options::CacheDir.getNumOccurrences()
                              ? makeAbsolute(options::CacheDir)
                              : ResultCache::defaultDirectory();
  if (!Directory.empty())
    Stores.push_back(createDirectoryStore(Directory, uint64_t(512) << 20));
  std::string Remote = options::RemoteCache;
  if (!options::RemoteCache.getNumOccurrences())
    Remote = llvm::sys::Process::GetEnv("GPUGUARD_REMOTE_CACHE").value_or("");
  if (!Remote.empty()) {
    llvm::Expected<std::unique_ptr<CacheStore>> Shared =
        createRemoteStore(Remote);
    if (!Shared) {
      error(llvm::toString(Shared.takeError()));
      Failed = true;
      return {};
    }
    Stores.push_back(std::move(*Shared));
  }
  if (Stores.empty())
    return {};
  std::string Executable = executableHash(Argv0);
  if (Executable.empty())
    return {};
  CacheUse Use;
  Use.RunKey = ResultCache::key(
      {"gpuguard results", GPUGUARD_VERSION, LLVM_VERSION_STRING, Executable,
       options::FixNotes ? "fix-notes" : "", options::LineFilter,
       // A budget may cut a file short; --quiet leaves out set-up notes.
       std::to_string(options::Timeout.getValue()),
       options::Quiet ? "quiet" : ""});
  auto Cache = std::make_unique<ResultCache>(std::move(Stores));
  Use.Cache = Cache.get();
  return {std::move(Cache), std::move(Use)};
}

} // namespace

int runGpuGuard(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "doctor")
    return doctor::runDoctor(Argc - 1, Argv + 1);
  const char *Argv0 = Argv[0];
  CommandLine Line;
  if (!parseArguments(Argc, Argv, Line) ||
      !checkModeOptions(Line.Instrumenting))
    return UsageError;

  // Printing a finding may switch to its build directory: on a file system
  // of its own, not the process's working directory the workers share.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS =
      createOwnFileSystem();
  bool Failed = false;
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      createOptionsProvider(BaseFS, Failed);
  if (Failed)
    return UsageError;
  // Instrumented copies are written from each parse: never replayed.
  std::unique_ptr<ResultCache> Cache;
  CacheUse UseCache;
  if (!Line.Instrumenting) {
    std::tie(Cache, UseCache) = openResultCache(Argv0, Failed);
    if (Failed)
      return UsageError;
  }
  std::unique_ptr<frontend::PreambleCache> Preambles =
      openPreambleCache(Argv0, Line.Instrumenting);
  UseCache.Preambles = Preambles.get();
  bool NoFlagsGiven = options::BuildPath.getNumOccurrences() == 0 &&
                      (!Line.FixedDatabase || Line.BareDashDash);
  if (NoFlagsGiven && Line.FixedDatabase)
    Line.FixedDatabase.reset();
  std::unique_ptr<CompilationDatabase> Underlying =
      loadDatabase(std::move(Line.FixedDatabase), Failed);
  if (Failed)
    return UsageError;

  InputFiles Inputs;
  Inputs.Files.assign(options::SourcePaths.begin(), options::SourcePaths.end());
  std::unique_ptr<output::Reporter> Reporter;
  if (!options::ListChecks && !options::DumpConfig) {
    Reporter = createReporter(Argv0, Inputs.Files);
    if (!Reporter)
      return UsageError;
  }
  if (std::optional<int> Done =
          chooseInputs(Reporter.get(), Underlying.get(), Inputs))
    return *Done;

  // What the configuration enables, for the first input (or the working
  // directory): --list-checks and --dump-config answer from it.
  std::string FirstPath = makeAbsolute(
      Inputs.Files.empty() ? "gpuguard-input.cu" : Inputs.Files.front());
  if (options::ListChecks || options::DumpConfig)
    return printConfiguration(*Provider, FirstPath);
  if (Inputs.Files.empty()) {
    if (!options::BuildPath.empty())
      error("the compile database in '" + options::BuildPath +
            "' lists no file to check; regenerate it (CMake: "
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON) or name the files");
    else
      error("no input files; run 'gpuguard <file>... [-- <compile flags>]' "
            "or 'gpuguard -p <build dir>'");
    return UsageError;
  }
  int InputsExit = Success;
  std::vector<std::string> Checkable =
      checkableInputs(Inputs, *Provider, InputsExit);

  frontend::CudaHeaders Headers;
  if (!findCudaHeaders(Argv0, Checkable, Headers))
    return UsageError;
  // Without a `--` at all, the closest compile_commands.json is used.
  bool AutoDetect = !Underlying && !Line.BareDashDash;
  frontend::GpuGuardCompilationDatabase Database(
      std::move(Underlying), AutoDetect, Headers, GPUGUARD_CLANG_RESOURCE_DIR);
  // nvcc flags dropped unknown, each named once per run, with the output of
  // the first file in input order whose command holds it.
  Database.setWarningHandler(
      [](llvm::StringRef Key, const llvm::Twine &Message) {
        setupMessage({Key.str(), Message.str()});
      });
  std::unique_ptr<frontend::TorchDefaults> Torch =
      useTorchDefaults(Database, Headers);

  enableCrashRecovery();
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  // The main thread's context prints the findings; each worker has its own.
  ClangTidyContext Context(std::move(Provider),
                           /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                           /*EnableModuleHeadersParsing=*/false,
                           /*ExperimentalCustomChecks=*/false);
  if (Line.Instrumenting) {
    if (std::optional<std::string> Problem =
            instrument::prepareOutputDirectory(options::OutputDirectory)) {
      error(*Problem);
      return UsageError;
    }
  }
  OutcomePrinter Printer(*Reporter, Context, BaseFS, Line.Instrumenting);
  Printer.raise(InputsExit);
  WorkerPool Pool(Database, Line.Instrumenting, options::Jobs, Checkable.size(),
                  UseCache);
  Pool.checkAll(Checkable, [&](const std::string &File, FileOutcome Outcome) {
    Printer.print(File, std::move(Outcome));
  });
  Printer.finish(FirstPath, Pool.suppressed());
  if (Cache && Cache->stores())
    Cache->evict();
  if (Pool.anyCrashed()) {
    // A crash leaves LLVM's global state (timers, statistics) pointing into
    // the lost parse, and its teardown would crash again. Everything is
    // written: leave without it.
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(nullptr);
    llvm::sys::Process::Exit(Printer.exitCode(), /*NoCleanup=*/true);
  }
  return Printer.exitCode();
}

} // namespace gpuguard
