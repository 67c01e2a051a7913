//===--- OutcomePrinter.cpp - Prints what a run found ---------------------===//

#include "Driver/OutcomePrinter.h"
#include "Driver/Config.h"
#include "Driver/Messages.h"
#include "Driver/Options.h"
#include <fmt/format.h>

using namespace clang::tidy;

namespace gpuguard {

OutcomePrinter::OutcomePrinter(
    output::Reporter &Reporter, ClangTidyContext &Context,
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
    bool Instrumenting)
    : Reporter(Reporter), Context(Context), BaseFS(std::move(BaseFS)),
      Instrumenting(Instrumenting),
      Behaviour(options::FixNotes                      ? FB_FixNotes
                : (options::Fix || options::FixErrors) ? FB_Fix
                                                       : FB_NoFix) {}

void OutcomePrinter::print(const std::string &File, FileOutcome Outcome) {
  for (const SetupMessage &Setup : Outcome.Setup)
    if (SetupSaid.insert(Setup.Key).second)
      say(Setup);
  if (!Outcome.NotChecked.empty()) {
    std::string Text = "'" + File + "' was not checked: " + Outcome.NotChecked;
    error(Text);
    Reporter.noteNotAnalysed(File, std::move(Text));
    raise(Outcome.Exit);
    return;
  }
  std::vector<ClangTidyError> Errors = Reporter.take(std::move(Outcome.Errors));
  bool DisableFixes = !Outcome.Parsed && !options::FixErrors;
  FixesHeldBack |= DisableFixes && Behaviour != FB_NoFix;
  Context.setCurrentFile(File);
  if (Reporter.wantsEnabledChecks())
    Reporter.noteEnabledChecks(
        getCheckNames(Context.getOptionsForFile(File), false, false));
  if (Reporter.printsText())
    handleErrors(Errors, Context, DisableFixes ? FB_NoFix : Behaviour,
                 WarningsAsErrorsCount, BaseFS);
  else
    WarningsAsErrorsCount += output::countWarningsAsErrors(Errors);
  // In instrument mode, the line about the missing copy says it all.
  if (!Outcome.Parsed) {
    Reporter.noteNotAnalysed(File, "'" + File +
                                       "' has compile errors and was not "
                                       "fully checked");
    if (!Instrumenting)
      error("'" + File + "' has compile errors (" +
            Reporter.whereDiagnosticsGo() +
            ") and was not fully checked; fix them or give its real flags "
            "with -p <build dir> or after '--'");
    raise(InputError);
  }
  for (const FileOutcome::Message &Message : Outcome.InstrumentMessages)
    Message.IsError ? error(Message.Text) : note(Message.Text);
  raise(Outcome.Exit);
  if (!options::ExportFixes.empty())
    AllErrors.insert(AllErrors.end(), Errors.begin(), Errors.end());
}

void OutcomePrinter::finish(const std::string &FirstPath,
                            const ClangTidyStats &Suppressed) {
  for (const std::string &Problem :
       Reporter.finish([](const llvm::Twine &Message) {
         if (!options::Quiet)
           note(Message);
       })) {
    error(Problem);
    raise(UsageError);
  }
  if (!options::ExportFixes.empty() &&
      !writeExportedFixes(options::ExportFixes, FirstPath, AllErrors))
    raise(UsageError);

  if (!options::Quiet) {
    if (Suppressed.errorsIgnored())
      note(fmt::format("suppressed {} finding(s): {} by NOLINT, {} in headers "
                       "outside --header-filter, {} outside --line-filter, {} "
                       "that no enabled check reports (compiler warnings, "
                       "disabled checks)",
                       Suppressed.errorsIgnored(),
                       Suppressed.ErrorsIgnoredNOLINT,
                       Suppressed.ErrorsIgnoredNonUserCode,
                       Suppressed.ErrorsIgnoredLineFilter,
                       Suppressed.ErrorsIgnoredCheckFilter));
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
    raise(WarningsAsErrors);
  }
}

} // namespace gpuguard
