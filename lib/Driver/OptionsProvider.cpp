//===--- OptionsProvider.cpp - The configuration of a run -----------------===//

#include "Driver/OptionsProvider.h"
#include "Driver/Config.h"
#include "Driver/Messages.h"
#include "Driver/Options.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

using namespace clang::tidy;
using llvm::StringRef;

namespace gpuguard {
namespace {

constexpr llvm::StringLiteral DefaultChecks = "cuda-*,torch-*";

thread_local bool ForMatchers = false;

/// Appends `-clang-analyzer-*` to every configuration: the Static Analyzer
/// ships inside clang-tidy's library but is not part of gpuguard.
class GpuGuardOptionsProvider : public ClangTidyOptionsProvider {
public:
  explicit GpuGuardOptionsProvider(
      std::unique_ptr<ClangTidyOptionsProvider> Underlying)
      : Underlying(std::move(Underlying)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Underlying->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Sources = Underlying->getRawOptions(FileName);
    ClangTidyOptions OnlyGpuGuard;
    OnlyGpuGuard.Checks = "-clang-analyzer-*";
    if (ForMatchers)
      OnlyGpuGuard.SystemHeaders = true;
    Sources.emplace_back(std::move(OnlyGpuGuard), GpuGuardOptionsSource);
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Underlying;
};

} // namespace

MatchersWithoutHeaderFilter::MatchersWithoutHeaderFilter() {
  ForMatchers = true;
}
MatchersWithoutHeaderFilter::~MatchersWithoutHeaderFilter() {
  ForMatchers = false;
}

std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      bool &Failed) {
  ClangTidyGlobalOptions GlobalOptions;
  if (std::error_code EC =
          parseLineFilter(options::LineFilter, GlobalOptions)) {
    error("invalid --line-filter: " + EC.message() +
          R"(; expected JSON such as '[{"name":"k.cu","lines":[[1,20]]}]')");
    Failed = true;
    return nullptr;
  }
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = DefaultChecks.str();
  DefaultOptions.WarningsAsErrors = "";
  // With --diff, the changed lines of headers are reported too.
  DefaultOptions.HeaderFilterRegex =
      options::DiffSource.getNumOccurrences() > 0 &&
              options::HeaderFilter.getNumOccurrences() == 0
          ? std::string(".*")
          : std::string(options::HeaderFilter);
  DefaultOptions.ExcludeHeaderFilterRegex = options::ExcludeHeaderFilter;
  DefaultOptions.SystemHeaders = options::SystemHeaders;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  if (options::Checks.getNumOccurrences() > 0)
    OverrideOptions.Checks = options::Checks;
  if (options::WarningsAsErrorsGlob.getNumOccurrences() > 0)
    OverrideOptions.WarningsAsErrors = options::WarningsAsErrorsGlob;
  if (options::HeaderFilter.getNumOccurrences() > 0)
    OverrideOptions.HeaderFilterRegex = options::HeaderFilter;
  if (options::ExcludeHeaderFilter.getNumOccurrences() > 0)
    OverrideOptions.ExcludeHeaderFilterRegex = options::ExcludeHeaderFilter;
  if (options::SystemHeaders.getNumOccurrences() > 0)
    OverrideOptions.SystemHeaders = options::SystemHeaders;
  if (options::UseColor.getNumOccurrences() > 0)
    OverrideOptions.UseColor = options::UseColor;
  if (!options::ExtraArgs.empty())
    OverrideOptions.ExtraArgs = std::vector<std::string>(
        options::ExtraArgs.begin(), options::ExtraArgs.end());
  if (!options::ExtraArgsBefore.empty())
    OverrideOptions.ExtraArgsBefore = std::vector<std::string>(
        options::ExtraArgsBefore.begin(), options::ExtraArgsBefore.end());

  if (options::ConfigFile.getNumOccurrences() > 0 &&
      options::Config.getNumOccurrences() > 0) {
    error("--config and --config-file cannot be combined; pass one of them");
    Failed = true;
    return nullptr;
  }
  std::unique_ptr<ClangTidyOptionsProvider> Provider;
  if (options::ConfigFile.getNumOccurrences() > 0 ||
      options::Config.getNumOccurrences() > 0) {
    std::string Text = options::Config, Source = "--config";
    if (options::ConfigFile.getNumOccurrences() > 0) {
      auto Buffer = llvm::MemoryBuffer::getFile(options::ConfigFile);
      if (!Buffer) {
        error("cannot read --config-file '" + options::ConfigFile +
              "': " + Buffer.getError().message() + "; check the path");
        Failed = true;
        return nullptr;
      }
      Text = (*Buffer)->getBuffer().str();
      Source = options::ConfigFile;
    }
    llvm::Expected<ClangTidyOptions> Parsed = parseConfigText(Text, Source);
    if (!Parsed) {
      error(llvm::toString(Parsed.takeError()));
      Failed = true;
      return nullptr;
    }
    Provider = std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions),
        ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
        std::move(*Parsed), std::move(OverrideOptions), std::move(FS));
  } else {
    Provider = std::make_unique<FileOptionsProvider>(
        std::move(GlobalOptions), std::move(DefaultOptions),
        std::move(OverrideOptions), std::move(FS));
  }
  return std::make_unique<GpuGuardOptionsProvider>(std::move(Provider));
}

} // namespace gpuguard
