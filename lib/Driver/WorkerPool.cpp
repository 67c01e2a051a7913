//===--- WorkerPool.cpp - Checks files on several threads -----------------===//

#include "Driver/WorkerPool.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Driver/CheckRunner.h"
#include "Driver/Options.h"
#include "Driver/OptionsProvider.h"
#include "Driver/Paths.h"
#include "Driver/ResultCache.h"
#include "Instrument/OutputWriter.h"
#include "Instrument/Recorder.h"
#include "Support/ContentHash.h"
#include "clang-tidy/ClangTidy.h"
#include "clang/Basic/Stack.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/thread.h"
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <fmt/format.h>
#include <mutex>
#include <optional>

using namespace clang::tidy;
using namespace clang::tooling;

namespace gpuguard {

namespace {

/// Writes the instrumented copy of \p File from the sites its checks
/// recorded, keeping the flagged sites whose findings survived NOLINT and the
/// filters. A file that did not parse gets no copy.
void writeInstrumentedCopy(instrument::Recorder &Recorder,
                           const std::string &File, FileOutcome &Outcome) {
  auto Fail = [&Outcome](std::string Text) {
    Outcome.InstrumentMessages.push_back({true, std::move(Text)});
    Outcome.Exit = std::max<int>(Outcome.Exit, InputError);
  };
  std::vector<instrument::SurvivingFinding> Findings;
  for (const ClangTidyError &E : Outcome.Errors)
    if (!E.Message.FilePath.empty() && makeAbsolute(E.Message.FilePath) == File)
      Findings.push_back({E.DiagnosticName, E.Message.FileOffset});
  std::optional<instrument::RenderedFile> Copy =
      Recorder.render(File, Findings);
  if (!Outcome.Parsed)
    return Fail("no instrumented copy of '" + File +
                "' was written because it has compile errors (shown above); "
                "fix them or give its real flags with -p <build dir> or "
                "after '--'");
  if (!Copy)
    return Fail("'" + File +
                "' was not analysed, so no instrumented copy was written; "
                "check its compile command");
  std::string Target = instrument::mirroredPath(options::OutputDirectory, File);
  if (std::optional<std::string> Problem =
          instrument::refuseTarget(options::OutputDirectory, File, Target))
    return Fail(*Problem);
  if (std::optional<std::string> Problem =
          instrument::writeAtomically(Target, Copy->Text))
    return Fail(*Problem);
  if (!options::Quiet) {
    std::string Skipped =
        Copy->Skipped ? fmt::format("; {} site(s) inside macros or headers "
                                    "left out",
                                    Copy->Skipped)
                      : std::string();
    Outcome.InstrumentMessages.push_back(
        {false, fmt::format("instrumented '{}' with {} runtime check(s) into "
                            "'{}'{}",
                            File, Copy->Sites, Target, Skipped)});
  }
}

} // namespace

/// The stack each file is parsed and analysed on. Clang's parser recurses
/// once per nested expression; a stack this size holds thousands of levels,
/// and what still overflows it is caught and reported as that file's crash.
constexpr unsigned AnalysisStackBytes = 256u << 20;

/// Where a thread's crash signal handler runs, so that a stack overflow can
/// still be caught: the overflowing stack has no room for the handler.
class AlternateSignalStack {
public:
  AlternateSignalStack() : Memory(std::max<size_t>(SIGSTKSZ, 64u << 10)) {
    stack_t Stack{};
    Stack.ss_sp = Memory.data();
    Stack.ss_size = Memory.size();
    Installed = sigaltstack(&Stack, &Previous) == 0;
  }
  ~AlternateSignalStack() {
    if (Installed)
      sigaltstack(&Previous, nullptr);
  }

private:
  std::vector<char> Memory;
  stack_t Previous{};
  bool Installed = false;
};

/// Everything one thread needs to check files on its own: Clang's and
/// clang-tidy's per-run state is not shared between threads. Each worker has
/// its own file system too, so that a compile command's working directory
/// never changes the process's.
class Worker {
public:
  Worker(const CompilationDatabase &Database, bool Instrumenting,
         const CacheUse &Use)
      : Database(Database), Cache(Use), BaseFS(createOwnFileSystem()),
        Context(createProvider(BaseFS),
                /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                /*EnableModuleHeadersParsing=*/false,
                /*ExperimentalCustomChecks=*/false),
        Runner(Context, Database, BaseFS, options::FixNotes, Use.Preambles),
        Recorder(options::InstrumentWhat), Instrumenting(Instrumenting) {}

  /// Checks \p File on a thread of its own under crash recovery: a crash or
  /// a stack overflow in Clang or a check costs that file alone.
  FileOutcome check(const std::string &File) {
    FileOutcome Outcome;
    llvm::CrashRecoveryContext Recovery;
    if (Recovery.RunSafelyOnThread([&] { checkHere(File, Outcome); },
                                   AnalysisStackBytes))
      return Outcome;
    // The crash left this worker's Clang and clang-tidy state half-updated.
    Crashed = true;
    FileOutcome Lost;
    Lost.Parsed = false;
    Lost.NotChecked = "parsing or analysing it ended in " +
                      crashDescription(Recovery.RetCode) +
                      "; the other files are checked; leave it out of the "
                      "run or report it with the file attached";
    Lost.Exit = InputError;
    return Lost;
  }

  /// Whether a crash left this worker unusable; the pool replaces it.
  bool crashed() const { return Crashed; }

  const ClangTidyStats &suppressed() const { return Runner.suppressed(); }

private:
  void checkHere(const std::string &File, FileOutcome &Outcome) {
    AlternateSignalStack SignalStack;
    clang::noteBottomOfStack(/*ForceSet=*/true);
    if (Instrumenting)
      instrument::Recorder::setActive(&Recorder);
    collectSetupMessages(&Outcome.Setup);
    std::string Key = Cache.Cache ? cacheKey(File) : std::string();
    if (!Key.empty()) {
      if (std::optional<CachedCheck> Hit = Cache.Cache->lookup(Key)) {
        collectSetupMessages(nullptr);
        // The set-up messages are those the key's compile commands said.
        Outcome.Errors = std::move(Hit->Errors);
        Outcome.Parsed = Hit->Parsed;
        Runner.addReplayedSuppressed(Hit->Suppressed);
        return;
      }
    }
    startAnalysisBudget(options::Timeout);
    Outcome.Errors = Runner.run(File, Outcome.Parsed);
    // A file cut short by the time budget is reported as not checked and
    // is never stored.
    if (!Key.empty() && !analysisBudgetExceeded())
      Cache.Cache->store(
          Key, {Outcome.Errors, Outcome.Parsed, Runner.lastSuppressed()},
          Runner.lastDependencies());
    collectSetupMessages(nullptr);
    instrument::Recorder::setActive(nullptr);
    if (analysisBudgetExceeded()) {
      // Analyses cut short can report what a finished one would rule out.
      Outcome.Errors.clear();
      Outcome.NotChecked = fmt::format(
          "its analysis ran past the time budget of {} s; pass a larger "
          "--timeout (0: no limit) or leave it out of the run",
          options::Timeout.getValue());
      Outcome.Exit = InputError;
      return;
    }
    if (Instrumenting)
      writeInstrumentedCopy(Recorder, File, Outcome);
  }

  /// The cache key of \p File: the run's part, then the file's path and
  /// bytes, its compile commands and its effective configuration. Empty
  /// when the file cannot be read.
  std::string cacheKey(const std::string &File) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Bytes =
        llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!Bytes)
      return "";
    std::vector<std::string> Parts = {
        Cache.RunKey, File, support::contentHash((*Bytes)->getBuffer())};
    for (const CompileCommand &Command : Database.getCompileCommands(File)) {
      Parts.push_back(Command.Directory);
      Parts.push_back(Command.Filename);
      Parts.push_back(llvm::join(Command.CommandLine, std::string(1, '\0')));
    }
    Parts.push_back(configurationAsText(Context.getOptionsForFile(File)));
    return ResultCache::key(Parts);
  }

  static std::string crashDescription(int RetCode) {
    // Crash recovery reports a signal as 128 + its number.
    switch (RetCode - 128) {
    case SIGSEGV:
      return "a segmentation fault (often a stack overflow on deeply nested "
             "code)";
    case SIGBUS:
      return "a bus error";
    case SIGABRT:
      return "an abort";
    case SIGFPE:
      return "an arithmetic exception";
    case SIGILL:
      return "an illegal instruction";
    default:
      return "a crash";
    }
  }

  static std::unique_ptr<ClangTidyOptionsProvider>
  createProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

  const CompilationDatabase &Database;
  CacheUse Cache;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  ClangTidyContext Context;
  CheckRunner Runner;
  instrument::Recorder Recorder;
  bool Instrumenting;
  bool Crashed = false;
};

std::unique_ptr<ClangTidyOptionsProvider>
Worker::createProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  // The main thread built the same provider first and stopped on any error.
  bool Failed = false;
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      createOptionsProvider(std::move(FS), Failed);
  assert(Provider && !Failed && "options were validated before the run");
  return Provider;
}

WorkerPool::WorkerPool(const CompilationDatabase &Database, bool Instrumenting,
                       unsigned Jobs, size_t FileCount, CacheUse UseCache)
    : Database(Database), Instrumenting(Instrumenting),
      Cache(std::move(UseCache)) {
  unsigned WorkerCount =
      Jobs ? Jobs : llvm::hardware_concurrency().compute_thread_count();
  WorkerCount = std::max<unsigned>(1, std::min<size_t>(WorkerCount, FileCount));
  for (unsigned I = 0; I < WorkerCount; ++I)
    Workers.push_back(std::make_unique<Worker>(Database, Instrumenting, Cache));
}

WorkerPool::~WorkerPool() = default;

FileOutcome WorkerPool::checkWith(size_t Slot, const std::string &File) {
  FileOutcome Outcome = Workers[Slot]->check(File);
  if (Workers[Slot]->crashed()) {
    // Its state may hold dangling pointers into the lost parse: never run or
    // destroy it again, but keep counting what it suppressed before.
    std::lock_guard<std::mutex> Lock(RetiredMutex);
    Retired.push_back(Workers[Slot].release());
    Workers[Slot] = std::make_unique<Worker>(Database, Instrumenting, Cache);
  }
  return Outcome;
}

void WorkerPool::checkAll(
    const std::vector<std::string> &Files,
    llvm::function_ref<void(const std::string &, FileOutcome)> Report) {
  if (Workers.size() == 1) {
    // Findings are printed file by file, as each file finishes.
    for (const std::string &File : Files)
      Report(File, checkWith(0, File));
    return;
  }
  std::vector<std::optional<FileOutcome>> Outcomes(Files.size());
  std::mutex OutcomesMutex;
  std::condition_variable OutcomeReady;
  std::atomic<size_t> NextFile{0};
  std::vector<llvm::thread> Threads;
  for (size_t Slot = 0; Slot < Workers.size(); ++Slot)
    Threads.emplace_back([&, Slot] {
      for (size_t I; (I = NextFile++) < Files.size();) {
        FileOutcome Outcome = checkWith(Slot, Files[I]);
        {
          std::lock_guard<std::mutex> Lock(OutcomesMutex);
          Outcomes[I] = std::move(Outcome);
        }
        OutcomeReady.notify_all();
      }
    });
  for (size_t I = 0; I < Files.size(); ++I) {
    std::optional<FileOutcome> Outcome;
    {
      std::unique_lock<std::mutex> Lock(OutcomesMutex);
      OutcomeReady.wait(Lock, [&] { return Outcomes[I].has_value(); });
      Outcome = std::move(Outcomes[I]);
      Outcomes[I].reset();
    }
    Report(Files[I], std::move(*Outcome));
  }
  for (llvm::thread &T : Threads)
    T.join();
}

ClangTidyStats WorkerPool::suppressed() const {
  ClangTidyStats Total;
  for (const std::unique_ptr<Worker> &W : Workers)
    addSuppressed(Total, W->suppressed());
  for (const Worker *W : Retired)
    addSuppressed(Total, W->suppressed());
  return Total;
}

void enableCrashRecovery() {
  llvm::CrashRecoveryContext::Enable();
  // The handlers must run on the alternate stack each analysis thread sets
  // up, or a stack overflow kills the process before recovery starts.
  for (int Signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) {
    struct sigaction Action;
    if (sigaction(Signal, nullptr, &Action) == 0) {
      Action.sa_flags |= SA_ONSTACK;
      sigaction(Signal, &Action, nullptr);
    }
  }
}

} // namespace gpuguard
