//===--- WorkerPool.cpp - Checks files on several threads -----------------===//

#include "Driver/WorkerPool.h"
#include "Driver/CheckRunner.h"
#include "Driver/Options.h"
#include "Driver/OptionsProvider.h"
#include "Driver/Paths.h"
#include "Instrument/OutputWriter.h"
#include "Instrument/Recorder.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/thread.h"
#include <atomic>
#include <condition_variable>
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

/// Everything one thread needs to check files on its own: Clang's and
/// clang-tidy's per-run state is not shared between threads. Each worker has
/// its own file system too, so that a compile command's working directory
/// never changes the process's.
class Worker {
public:
  Worker(const CompilationDatabase &Database, bool Instrumenting)
      : BaseFS(createOwnFileSystem()),
        Context(createProvider(BaseFS),
                /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                /*EnableModuleHeadersParsing=*/false,
                /*ExperimentalCustomChecks=*/false),
        Runner(Context, Database, BaseFS, options::FixNotes),
        Recorder(options::InstrumentWhat), Instrumenting(Instrumenting) {}

  FileOutcome check(const std::string &File) {
    FileOutcome Outcome;
    if (Instrumenting)
      instrument::Recorder::setActive(&Recorder);
    collectSetupMessages(&Outcome.Setup);
    Outcome.Errors = Runner.run(File, Outcome.Parsed);
    collectSetupMessages(nullptr);
    instrument::Recorder::setActive(nullptr);
    if (Instrumenting)
      writeInstrumentedCopy(Recorder, File, Outcome);
    return Outcome;
  }

  const ClangTidyStats &suppressed() const { return Runner.suppressed(); }

private:
  static std::unique_ptr<ClangTidyOptionsProvider>
  createProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  ClangTidyContext Context;
  CheckRunner Runner;
  instrument::Recorder Recorder;
  bool Instrumenting;
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
                       unsigned Jobs, size_t FileCount) {
  unsigned WorkerCount =
      Jobs ? Jobs : llvm::hardware_concurrency().compute_thread_count();
  WorkerCount = std::max<unsigned>(1, std::min<size_t>(WorkerCount, FileCount));
  for (unsigned I = 0; I < WorkerCount; ++I)
    Workers.push_back(std::make_unique<Worker>(Database, Instrumenting));
}

WorkerPool::~WorkerPool() = default;

void WorkerPool::checkAll(
    const std::vector<std::string> &Files,
    llvm::function_ref<void(const std::string &, FileOutcome)> Report) {
  if (Workers.size() == 1) {
    // Findings are printed file by file, as each file finishes.
    for (const std::string &File : Files)
      Report(File, Workers.front()->check(File));
  } else {
    std::vector<std::optional<FileOutcome>> Outcomes(Files.size());
    std::mutex OutcomesMutex;
    std::condition_variable OutcomeReady;
    std::atomic<size_t> NextFile{0};
    std::vector<llvm::thread> Threads;
    for (std::unique_ptr<Worker> &W : Workers)
      // Parsing recurses deeply on large translation units: give each thread
      // the stack a main thread has.
      Threads.emplace_back(
          std::optional<unsigned>(8u << 20), [&, Self = W.get()] {
            for (size_t I; (I = NextFile++) < Files.size();) {
              FileOutcome Outcome = Self->check(Files[I]);
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
}

ClangTidyStats WorkerPool::suppressed() const {
  ClangTidyStats Total;
  for (const std::unique_ptr<Worker> &W : Workers)
    addSuppressed(Total, W->suppressed());
  return Total;
}

} // namespace gpuguard
