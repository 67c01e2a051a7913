//===--- Driver.cpp - The gpuguard command line ---------------------------===//

#include "Driver/Driver.h"
#include "Driver/ChangedTranslationUnits.h"
#include "Driver/CheckRunner.h"
#include "Driver/CompileDatabase.h"
#include "Driver/Config.h"
#include "Driver/InputSelection.h"
#include "Driver/Messages.h"
#include "Driver/Options.h"
#include "Driver/OptionsProvider.h"
#include "Driver/Paths.h"
#include "Driver/WorkerPool.h"
#include "Frontend/CompileCommands.h"
#include "Frontend/CudaToolkit.h"
#include "Frontend/IncludeScan.h"
#include "Instrument/OutputWriter.h"
#include "Instrument/Recorder.h"
#include "Output/DiffSource.h"
#include "Output/Reporter.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <atomic>
#include <condition_variable>
#include <fmt/format.h>
#include <mutex>
#include <thread>

#ifndef GPUGUARD_CLANG_RESOURCE_DIR
#error "GPUGUARD_CLANG_RESOURCE_DIR must be defined by the build"
#endif
#ifndef GPUGUARD_VERSION
#define GPUGUARD_VERSION "unknown"
#endif

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
namespace cl = llvm::cl;

namespace gpuguard {
namespace {

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

} // namespace

int runGpuGuard(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  // `gpuguard instrument ...` takes the same command line and also writes an
  // instrumented copy of each input.
  std::vector<const char *> Arguments(Argv, Argv + Argc);
  bool Instrumenting = Argc > 1 && llvm::StringRef(Argv[1]) == "instrument";
  if (Instrumenting)
    Arguments.erase(Arguments.begin() + 1);
  Argc = static_cast<int>(Arguments.size());
  Argv = Arguments.data();

  // Flags after `--` describe how to compile every input. A bare `--` gives
  // none: such inputs get the default command, as without a database.
  bool BareDashDash = Argc > 0 && llvm::StringRef(Argv[Argc - 1]) == "--";
  std::string FixedError;
  std::unique_ptr<CompilationDatabase> FixedDatabase =
      FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FixedError);
  if (!parseCommandLine(Argc, Argv))
    return UsageError;

  int Exit = Success;
  auto Raise = [&Exit](int Code) { Exit = std::max(Exit, Code); };

  if (!Instrumenting && (options::OutputDirectory.getNumOccurrences() > 0 ||
                         options::InstrumentWhat.getNumOccurrences() > 0)) {
    error("-o and --instrument belong to 'gpuguard instrument <file>... -o "
          "<dir>'");
    return UsageError;
  }
  if (Instrumenting) {
    if (options::OutputDirectory.empty()) {
      error("no output directory; run 'gpuguard instrument <file>... -o "
            "<dir>'");
      return UsageError;
    }
    if (options::Fix || options::FixErrors || options::FixNotes ||
        !options::ExportFixes.empty()) {
      error("'gpuguard instrument' never changes its inputs; drop --fix, "
            "--fix-errors, --fix-notes and --export-fixes");
      return UsageError;
    }
  }

  // Printing a finding may switch to its build directory: on a file system
  // of its own, not the process's working directory the workers share.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS(
      new llvm::vfs::OverlayFileSystem(
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
              llvm::vfs::createPhysicalFileSystem().release())));
  bool Failed = false;
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      createOptionsProvider(BaseFS, Failed);
  if (Failed)
    return UsageError;
  bool NoFlagsGiven = options::BuildPath.getNumOccurrences() == 0 &&
                      (!FixedDatabase || BareDashDash);
  if (NoFlagsGiven && FixedDatabase)
    FixedDatabase.reset();
  std::unique_ptr<CompilationDatabase> Underlying =
      loadDatabase(std::move(FixedDatabase), Failed);
  if (Failed)
    return UsageError;

  std::vector<std::string> Inputs(options::SourcePaths.begin(),
                                  options::SourcePaths.end());
  std::unique_ptr<output::Reporter> Reporter;
  if (!options::ListChecks && !options::DumpConfig) {
    Reporter = createReporter(Argv[0], Inputs);
    if (!Reporter)
      return UsageError;
    // With --diff and no files named, the changed sources are the inputs,
    // and the sources that include a changed header.
    if (Inputs.empty() && Reporter->hasDiff()) {
      bool FromBuildDir = options::BuildPath.getNumOccurrences() > 0;
      Inputs = changedTranslationUnits(Reporter->changedFiles(),
                                       Reporter->diffRoot(), Underlying.get(),
                                       FromBuildDir);
      if (Inputs.empty()) {
        if (!options::Quiet)
          note("the diff changes no C, C++ or CUDA source, nor a header one "
               "includes; nothing to check");
        return Success;
      }
    }
  }
  // Files taken from the database, whose absence means a stale database.
  bool InputsFromDatabase = false;
  if (Inputs.empty() && Underlying &&
      options::BuildPath.getNumOccurrences() > 0) {
    Inputs = checkableSources(*Underlying);
    InputsFromDatabase = true;
  }
  if (options::Shard.getNumOccurrences() > 0) {
    llvm::Expected<ShardSpec> Shard = parseShard(options::Shard);
    if (!Shard) {
      error(llvm::toString(Shard.takeError()));
      return UsageError;
    }
    Inputs = selectShard(Inputs, *Shard);
    if (Inputs.empty()) {
      if (!options::Quiet)
        note("shard " + options::Shard + " has no files; nothing to check");
      return Success;
    }
  }

  // What the configuration enables, for the first input (or the working
  // directory): --list-checks and --dump-config answer from it.
  std::string FirstPath =
      makeAbsolute(Inputs.empty() ? "gpuguard-input.cu" : Inputs.front());
  if (options::ListChecks || options::DumpConfig) {
    ClangTidyOptions Effective = Provider->getOptions(FirstPath);
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

  if (Inputs.empty()) {
    error("no input files; run 'gpuguard <file>... [-- <compile flags>]' or "
          "'gpuguard -p <build dir>'");
    return UsageError;
  }

  llvm::StringSet<> KnownChecks = getAllChecksAndOptions(false, false).Checks;
  // Inputs that can be checked: readable, and with a usable configuration
  // that enables at least one check.
  std::vector<std::string> Checkable;
  ConfigValidator Validator;
  bool UseFileConfig = options::ConfigFile.getNumOccurrences() == 0 &&
                       options::Config.getNumOccurrences() == 0;
  llvm::StringSet<> ReportedGlobs;
  for (const std::string &Input : Inputs) {
    std::string Path = makeAbsolute(Input);
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
      if (InputsFromDatabase && EC == std::errc::no_such_file_or_directory)
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
    for (const auto &[Options, Source] : Provider->getRawOptions(Path)) {
      if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary ||
          Source == GpuGuardOptionsSource || !Options.Checks)
        continue;
      for (const std::string &Glob :
           unknownCheckGlobs(*Options.Checks, KnownChecks))
        if (ReportedGlobs.insert(Glob).second)
          warning("'" + Glob + "' in Checks (" + Source +
                  ") matches no gpuguard check; see --list-checks");
    }
    ClangTidyOptions Effective = Provider->getOptions(Path);
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

  frontend::CudaHeaders Headers;
  Headers.DefaultGpuArch = options::CudaGpuArch;
  Headers.FallbackIncludeDir = frontend::findFallbackHeaders(
      Argv[0],
      llvm::sys::Process::GetEnv("GPUGUARD_CUDA_FALLBACK_DIR").value_or(""));
  if (!options::BundledCudaHeaders)
    Headers.Toolkit = frontend::findCudaToolkit(options::CudaPath);
  if (options::CudaPath.getNumOccurrences() > 0 && !Headers.Toolkit &&
      !options::BundledCudaHeaders) {
    error("no CUDA toolkit at '" + options::CudaPath +
          "' (no include/cuda.h); fix --cuda-path, or drop it to use an "
          "installed toolkit or the bundled headers");
    return UsageError;
  }
  bool AnyCuda = llvm::any_of(Checkable, [&](const std::string &File) {
    return frontend::isCudaSourcePath(File);
  });
  if (AnyCuda && !Headers.Toolkit) {
    if (!llvm::sys::fs::exists(Headers.FallbackIncludeDir +
                               "/__gpuguard_cuda_fallback.h")) {
      error("no CUDA toolkit found and the bundled CUDA headers are missing "
            "from '" +
            Headers.FallbackIncludeDir +
            "'; reinstall gpuguard or pass --cuda-path=<toolkit>");
      return UsageError;
    }
    if (!options::Quiet)
      note("no CUDA toolkit found ($CUDA_PATH, /usr/local/cuda); parsing "
           "with gpuguard's bundled CUDA headers (pass --cuda-path to use a "
           "toolkit)");
  }

  // Without a `--` at all, the closest compile_commands.json is used.
  bool AutoDetect = !Underlying && !BareDashDash;
  frontend::GpuGuardCompilationDatabase Database(
      std::move(Underlying), AutoDetect, Headers, GPUGUARD_CLANG_RESOURCE_DIR);
  // nvcc flags dropped unknown, each named once per run, with the output of
  // the first file in input order whose command holds it.
  Database.setWarningHandler(
      [](llvm::StringRef Key, const llvm::Twine &Message) {
        setupMessage({Key.str(), Message.str()});
      });
  frontend::TorchDefaults::Options TorchOptions;
  TorchOptions.UsePch = options::TorchPch;
  TorchOptions.CacheDir = frontend::defaultCacheDir();
  TorchOptions.ToolVersion = GPUGUARD_VERSION;
  TorchOptions.ClangResourceDir = GPUGUARD_CLANG_RESOURCE_DIR;
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
  frontend::TorchDefaults Torch(std::move(TorchOptions));
  if (NoFlagsGiven)
    Database.setTorchDefaults(&Torch);
  else if (options::TorchPch)
    warning("--torch-pch applies only to files checked without flags; "
            "it is ignored with -p or flags after '--'");

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  // The main thread's context prints the findings; each worker has its own.
  ClangTidyContext Context(std::move(Provider),
                           /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                           /*EnableModuleHeadersParsing=*/false,
                           /*ExperimentalCustomChecks=*/false);
  if (Instrumenting) {
    if (std::optional<std::string> Problem =
            instrument::prepareOutputDirectory(options::OutputDirectory)) {
      error(*Problem);
      return UsageError;
    }
  }
  FixBehaviour Behaviour = options::FixNotes                      ? FB_FixNotes
                           : (options::Fix || options::FixErrors) ? FB_Fix
                                                                  : FB_NoFix;
  std::vector<ClangTidyError> AllErrors;
  unsigned WarningsAsErrorsCount = 0;
  bool FixesHeldBack = false;
  // Prints what one file produced. Called in input order, whatever order the
  // workers finish in, so that the output never depends on -j.
  llvm::StringSet<> SetupSaid;
  auto Report = [&](const std::string &File, FileOutcome Outcome) {
    for (const SetupMessage &Setup : Outcome.Setup)
      if (SetupSaid.insert(Setup.Key).second)
        say(Setup);
    std::vector<ClangTidyError> Errors =
        Reporter->take(std::move(Outcome.Errors));
    bool DisableFixes = !Outcome.Parsed && !options::FixErrors;
    FixesHeldBack |= DisableFixes && Behaviour != FB_NoFix;
    Context.setCurrentFile(File);
    if (Reporter->wantsEnabledChecks())
      Reporter->noteEnabledChecks(
          getCheckNames(Context.getOptionsForFile(File), false, false));
    if (Reporter->printsText())
      handleErrors(Errors, Context, DisableFixes ? FB_NoFix : Behaviour,
                   WarningsAsErrorsCount, BaseFS);
    else
      WarningsAsErrorsCount += output::countWarningsAsErrors(Errors);
    // In instrument mode, the line about the missing copy says it all.
    if (!Outcome.Parsed && !Instrumenting) {
      error("'" + File +
            "' has compile errors (shown above) and was not fully checked; "
            "fix them or give its real flags with -p <build dir> or after "
            "'--'");
      Raise(InputError);
    }
    for (const FileOutcome::Message &Message : Outcome.InstrumentMessages)
      Message.IsError ? error(Message.Text) : note(Message.Text);
    Raise(Outcome.Exit);
    if (!options::ExportFixes.empty())
      AllErrors.insert(AllErrors.end(), Errors.begin(), Errors.end());
  };

  WorkerPool Pool(Database, Instrumenting, options::Jobs, Checkable.size());
  Pool.checkAll(Checkable, Report);
  for (const std::string &Problem :
       Reporter->finish([](const llvm::Twine &Message) {
         if (!options::Quiet)
           note(Message);
       })) {
    error(Problem);
    Raise(UsageError);
  }
  if (!options::ExportFixes.empty() &&
      !writeExportedFixes(options::ExportFixes, FirstPath, AllErrors))
    Raise(UsageError);

  if (!options::Quiet) {
    ClangTidyStats Stats = Pool.suppressed();
    if (Stats.errorsIgnored())
      note(fmt::format("suppressed {} finding(s): {} by NOLINT, {} in headers "
                       "outside --header-filter, {} outside --line-filter, {} "
                       "from disabled checks",
                       Stats.errorsIgnored(), Stats.ErrorsIgnoredNOLINT,
                       Stats.ErrorsIgnoredNonUserCode,
                       Stats.ErrorsIgnoredLineFilter,
                       Stats.ErrorsIgnoredCheckFilter));
    if (FixesHeldBack)
      note("fixes were not applied because of compile errors; pass "
           "--fix-errors to apply them anyway");
  }
  if (WarningsAsErrorsCount) {
    if (!options::Quiet)
      error(fmt::format("{} warning{} treated as error{}",
                        WarningsAsErrorsCount,
                        WarningsAsErrorsCount == 1 ? "" : "s",
                        WarningsAsErrorsCount == 1 ? "" : "s"));
    Raise(WarningsAsErrors);
  }
  return Exit;
}

} // namespace gpuguard
