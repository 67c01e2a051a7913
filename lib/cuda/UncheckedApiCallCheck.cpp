//===--- UncheckedApiCallCheck.cpp - cuda-unchecked-api-call --------------===//

#include "cuda/UncheckedApiCallCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/ResultUse.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/CudaApi.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Cuda/UncheckedLaunchAnalysis.h"
#include "Analysis/Torch/TorchApi.h"
#include "Instrument/Recorder.h"
#include "Instrument/SiteSupport.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

UncheckedApiCallCheck::UncheckedApiCallCheck(StringRef Name,
                                             tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      CheckedFunctionsOption(Options.get("CheckedFunctions", "")),
      AllowVoidCast(Options.get("AllowVoidCast", true)),
      CheckedReturnTypesOption(Options.get(
          "CheckedReturnTypes",
          std::string(DefaultStatusTypes) + ";" + DefaultLibraryStatusTypes)),
      RequireCheckBeforeReturn(Options.get("RequireCheckBeforeReturn", true)),
      CheckTeardownResults(Options.get("CheckTeardownResults", false)),
      Strict(Options.get("Strict", false)) {
  CheckedFunctions =
      tidy::utils::options::parseStringList(CheckedFunctionsOption);
  CheckedReturnTypes =
      tidy::utils::options::parseStringList(CheckedReturnTypesOption);
}

void UncheckedApiCallCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckedFunctions", CheckedFunctionsOption);
  Options.store(Opts, "AllowVoidCast", AllowVoidCast);
  Options.store(Opts, "CheckedReturnTypes", CheckedReturnTypesOption);
  Options.store(Opts, "RequireCheckBeforeReturn", RequireCheckBeforeReturn);
  Options.store(Opts, "CheckTeardownResults", CheckTeardownResults);
  Options.store(Opts, "Strict", Strict);
}

UncheckedApiCallCheck::~UncheckedApiCallCheck() = default;

void UncheckedApiCallCheck::onStartOfTranslationUnit() {
  AnalysedFunctions.clear();
  CheckingCallees.clear();
  Pending.clear();
  LeavesPending.clear();
  Calls.reset();
  Reads.reset();
  Habit.reset();
  ReportedStatuses.clear();
}

void UncheckedApiCallCheck::registerMatchers(MatchFinder *Finder) {
  // Templates are analysed once, as written; their instantiations would
  // repeat every finding.
  Finder->addMatcher(callExpr(unless(cudaKernelCallExpr()),
                              unless(isInTemplateInstantiation()),
                              unless(isExpansionInSystemHeader()))
                         .bind("call"),
                     this);
  Finder->addMatcher(cudaKernelCallExpr(unless(isInTemplateInstantiation()),
                                        unless(isExpansionInSystemHeader()))
                         .bind("launch"),
                     this);
}

/// The name to show for the function \p Call calls. API functions are named
/// as the user writes them, without the suffixes of the header macros.
static std::string displayedCallee(const CallExpr &Call,
                                   const ASTContext &Context) {
  StringRef Name = calleeName(Call);
  if (Name.empty())
    return quoteSource(Call.getCallee(), Context);
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (Callee &&
      Context.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return canonicalApiName(Name).str();
  return Name.str();
}

static SourceLocation fileLoc(SourceLocation Loc, const ASTContext &Context) {
  return Context.getSourceManager().getFileLoc(Loc);
}

void UncheckedApiCallCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  ASTContext &Context = *Result.Context;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    checkDiscardedStatus(*Call, Context);
    useRuntimeWrapper(*Call, Context);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      registerTensorMemory(*Member, Context);
    return;
  }
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  const FunctionDecl *Function = enclosingFunction(*Launch, Context);
  if (!Function || isDeviceOnly(*Function))
    return;
  refreshRegistryBefore(*Launch, Context);
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    instrumentLaunch(*Launch, Context, SourceLocation());
  if (!AnalysedFunctions.insert(Function).second)
    return;
  checkLaunches(*Function, Context);
}

bool UncheckedApiCallCheck::isHandled(const Expr &E,
                                      ASTContext &Context) const {
  switch (getResultUse(E, Context)) {
  case ResultUse::Used:
    return true;
  case ResultUse::DiscardedByVoidCast:
    return AllowVoidCast;
  case ResultUse::Discarded:
    return false;
  }
  return false;
}

bool UncheckedApiCallCheck::isUncheckedStatus(const CallExpr &Call,
                                              ASTContext &Context) const {
  StringRef Status = returnedStatusType(Call, CheckedReturnTypes, Context);
  if (Status.empty())
    return false;
  // `checkCuda(cudaMalloc(...))`: the handler was given the status (in a
  // template, whichever function the dependent call may resolve to).
  llvm::SmallVector<const FunctionDecl *, 2> Callees = calleeCandidates(Call);
  if (!Callees.empty() && llvm::all_of(Callees, [&](const FunctionDecl *F) {
        return passesStatusThrough(*F, CheckedReturnTypes, Context);
      }))
    return false;
  StringRef Api = canonicalApiName(calleeName(Call));
  // A release that fails is seldom worth a report; a kernel fault it would
  // surface is the launch's finding.
  bool Teardown = !CheckTeardownResults && isTeardownApi(Api);
  // A readiness query's answer dropped flushes the queue; nothing failed.
  if (!Strict && isReadinessQuery(Api))
    return false;
  // Nor does a profiler's start or stop decide any result of the program.
  if (!Strict && isProfilerControl(Api))
    return false;
  // A failure leaves an output at its initial value, which the next
  // statement tests.
  if (!Strict && isCheckedThroughOutput(Call, Context))
    return false;
  return !Teardown && !isHandled(Call, Context);
}

void UncheckedApiCallCheck::checkDiscardedStatus(const CallExpr &Call,
                                                 ASTContext &Context) {
  if (returnedStatusType(Call, CheckedReturnTypes, Context).empty())
    return;
  if (!isUncheckedStatus(Call, Context)) {
    if (instrument::Recorder *R = instrument::Recorder::active();
        R && R->instrumentsUnflagged() &&
        getResultUse(Call, Context) != ResultUse::Used)
      instrumentStatus(Call, Context, SourceLocation());
    return;
  }
  // A library's status never becomes the thread's last error: dropped, it
  // is lost at once. Where the file checks that status elsewhere, this drop
  // is the oversight.
  StringRef Status = returnedStatusType(Call, CheckedReturnTypes, Context);
  if (!isLastErrorStatusType(Status)) {
    if (Strict || statusReads(Context).StatusTypes.contains(Status))
      instrumentStatus(Call, Context, reportDiscardedStatus(Call, Context));
    return;
  }
  // A failed call also leaves its error as the thread's last error: in host
  // code, a later cudaGetLastError() on every path checks it, so the
  // function's paths decide (checkLaunches).
  const FunctionDecl *Function = enclosingFunction(Call, Context);
  if (!Strict && Function && Function->hasBody() && !isDeviceOnly(*Function)) {
    if (AnalysedFunctions.insert(Function).second)
      checkLaunches(*Function, Context);
    // The function's analysis has decided; the site is added here, in the
    // order of the calls, flagged or (for --instrument=all) not.
    auto Reported = ReportedStatuses.find(&Call);
    if (Reported != ReportedStatuses.end())
      instrumentStatus(Call, Context, Reported->second);
    else if (instrument::Recorder *R = instrument::Recorder::active();
             R && R->instrumentsUnflagged())
      instrumentStatus(Call, Context, SourceLocation());
    return;
  }
  // Device code (dynamic parallelism) seldom checks the device runtime's
  // statuses: a drop is evidence where the file's device code reads a
  // status elsewhere, or where a failed allocation leaves a pointer unset
  // for the code after it.
  if (!Strict && Function && isDeviceOnly(*Function) &&
      !canonicalApiName(calleeName(Call)).starts_with("cudaMalloc") &&
      !statusReads(Context).InDeviceCode) {
    if (instrument::Recorder *R = instrument::Recorder::active();
        R && R->instrumentsUnflagged())
      instrumentStatus(Call, Context, SourceLocation());
    return;
  }
  instrumentStatus(Call, Context, reportDiscardedStatus(Call, Context));
}

SourceLocation
UncheckedApiCallCheck::reportDiscardedStatus(const CallExpr &Call,
                                             ASTContext &Context) {
  StringRef Status = returnedStatusType(Call, CheckedReturnTypes, Context);
  StringRef Api = canonicalApiName(calleeName(Call));
  StringRef Message = "the '%0' result of '%1' is discarded";
  if (isLastErrorQuery(Api))
    Message = "the '%0' result of '%1' is discarded, so the launch error it "
              "reports is lost";
  else if (isSynchronizingApi(Api))
    Message = "the '%0' result of '%1' is discarded; it waits for the device "
              "and reports the faults of earlier kernels";
  else if (!isLastErrorStatusType(Status))
    Message = "the '%0' result of '%1' is discarded; a library's status is "
              "not the last CUDA error, and no later check can read it";
  SourceLocation Loc = fileLoc(Call.getBeginLoc(), Context);
  diag(Loc, Message) << Status << displayedCallee(Call, Context)
                     << Call.getSourceRange();
  ReportedStatuses.try_emplace(&Call, Loc);
  return Loc;
}

bool UncheckedApiCallCheck::isListedCheck(const CallExpr &Call,
                                          const ASTContext &Context) const {
  if (CheckedFunctions.empty())
    return false;
  for (const FunctionDecl *Callee : calleeCandidates(Call)) {
    std::string Qualified = Callee->getQualifiedNameAsString();
    for (StringRef Entry : CheckedFunctions) {
      // `::ns::f` is anchored at the global namespace; `ns::f` may sit in
      // any namespace; `f` is any function of that name.
      bool Anchored = Entry.consume_front("::");
      if (Anchored || Entry.contains("::")) {
        if (Qualified == Entry ||
            (!Anchored && StringRef(Qualified).ends_with(("::" + Entry).str())))
          return true;
      } else if (Callee->getIdentifier() && Callee->getName() == Entry) {
        return true;
      }
    }
  }
  // A call written in the body of a listed macro; a call passed to the macro
  // as an argument is the macro's input, not its check.
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation Loc = Call.getBeginLoc();
  while (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc) &&
        llvm::is_contained(
            CheckedFunctions,
            Lexer::getImmediateMacroName(Loc, SM, Context.getLangOpts())))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

/// Calls \p Visit on every call in \p S, lambdas excluded.
static void forEachCall(const Stmt *S,
                        llvm::function_ref<void(const CallExpr &)> Visit) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Visit(*Call);
  for (const Stmt *Child : S->children())
    forEachCall(Child, Visit);
}

PendingLaunchEffect
UncheckedApiCallCheck::checksInBody(const FunctionDecl &Callee,
                                    ASTContext &Context, unsigned Depth) {
  const FunctionDecl *Definition = nullptr;
  if (Depth > 3 || !Callee.hasBody(Definition))
    return PendingLaunchEffect::None;
  // Every nested call is one deeper, so recursion ends at the limit.
  if (auto It = CheckingCallees.find({Definition, Depth});
      It != CheckingCallees.end())
    return It->second;
  PendingLaunchEffect Effect = PendingLaunchEffect::None;
  forEachCall(Definition->getBody(), [&](const CallExpr &Call) {
    if (Effect == PendingLaunchEffect::Check)
      return;
    StringRef Api = canonicalApiName(calleeName(Call));
    if (isLastErrorQuery(Api)) {
      if (getResultUse(Call, Context) == ResultUse::Used)
        Effect = PendingLaunchEffect::Check;
      return;
    }
    // `checkCudaErrors(cudaMemcpy(...))` in a helper that copies results
    // back reports the faults of the kernels before it.
    if (isSynchronizingApi(Api)) {
      if (isHandled(Call, Context))
        Effect = PendingLaunchEffect::CheckedSynchronize;
      return;
    }
    const FunctionDecl *Nested = Call.getDirectCallee();
    if (!Nested ||
        Context.getSourceManager().isInSystemHeader(Nested->getLocation()))
      return;
    PendingLaunchEffect Inner = checksInBody(*Nested, Context, Depth + 1);
    if (Inner != PendingLaunchEffect::None)
      Effect = Inner;
  });
  CheckingCallees[{Definition, Depth}] = Effect;
  return Effect;
}

PendingLaunchEffect UncheckedApiCallCheck::classify(const CallExpr &Call,
                                                    ASTContext &Context) {
  StringRef Api = canonicalApiName(calleeName(Call));
  if (isLastErrorQuery(Api))
    return isHandled(Call, Context) ? PendingLaunchEffect::Check
                                    : PendingLaunchEffect::None;
  if (isListedCheck(Call, Context))
    return PendingLaunchEffect::Check;
  // A helper that returns with an error unchecked hands it to this caller,
  // whatever else it checks.
  if (const FunctionDecl *Callee = Call.getDirectCallee();
      !Strict && Callee && leavesErrorPending(*Callee, Context))
    return PendingLaunchEffect::Pending;
  // A helper that returns the error it reads checks only if its caller reads
  // the result in turn.
  if (const FunctionDecl *Callee = Call.getDirectCallee()) {
    PendingLaunchEffect Helper = checksInBody(*Callee, Context);
    bool ResultRead =
        returnedStatusType(Call, CheckedReturnTypes, Context).empty() ||
        isHandled(Call, Context);
    if (Helper == PendingLaunchEffect::Check && ResultRead)
      return PendingLaunchEffect::Check;
    if (Helper == PendingLaunchEffect::CheckedSynchronize && !Strict)
      return PendingLaunchEffect::CheckedSynchronize;
  }
  if (isSynchronizingApi(Api)) {
    // A checked synchronisation reports the faults of the kernels before it
    // (device-side asserts, illegal addresses), the errors this check is
    // for; a launch the driver rejects for its configuration only
    // cudaGetLastError() reports, and the strict profile asks for that. A
    // dropped status it does not report.
    if (!Strict && isHandled(Call, Context))
      return PendingLaunchEffect::CheckedSynchronize;
    if (Strict || !isUncheckedStatus(Call, Context))
      return PendingLaunchEffect::Synchronize;
  }
  if (Strict)
    return PendingLaunchEffect::None;
  // A dropped library status is no last error for a later check to read.
  if (isUncheckedStatus(Call, Context) &&
      isLastErrorStatusType(
          returnedStatusType(Call, CheckedReturnTypes, Context)))
    return PendingLaunchEffect::Pending;
  return PendingLaunchEffect::None;
}

const UncheckedApiCallCheck::StatusReads &
UncheckedApiCallCheck::statusReads(ASTContext &Context) {
  if (Reads)
    return *Reads;
  Reads.emplace();
  const SourceManager &SM = Context.getSourceManager();
  for (const CallSite &Site : callSites(Context).all()) {
    const CallExpr &Call = *Site.Call;
    if (!SM.isInMainFile(SM.getExpansionLoc(Call.getBeginLoc())) ||
        isLaunchConfiguration(Call, Context))
      continue;
    StringRef Status = returnedStatusType(Call, CheckedReturnTypes, Context);
    if ((Status.empty() &&
         !isLastErrorQuery(canonicalApiName(calleeName(Call)))) ||
        getResultUse(Call, Context) != ResultUse::Used)
      continue;
    Reads->Any = true;
    Reads->InDeviceCode |= Site.Caller && isDeviceOnly(*Site.Caller);
    if (!Status.empty())
      Reads->StatusTypes.insert(Status);
  }
  return *Reads;
}

const LauncherHabit &UncheckedApiCallCheck::launcherHabit(ASTContext &Context) {
  if (!Habit)
    Habit = gpuguard::launcherHabit(
        Context, callSites(Context), [&](const FunctionDecl &Launcher) {
          return llvm::any_of(
              pendingIn(Launcher, Context), [](const UncheckedLaunch &U) {
                return isa<CUDAKernelCallExpr>(U.Launch) && U.Exit.isValid();
              });
        });
  return *Habit;
}

const CallSites &UncheckedApiCallCheck::callSites(ASTContext &Context) {
  if (!Calls)
    Calls = std::make_unique<CallSites>(Context);
  return *Calls;
}

const std::vector<UncheckedLaunch> &
UncheckedApiCallCheck::pendingIn(const FunctionDecl &Function,
                                 ASTContext &Context, bool ForLaunches) {
  if (auto It = Pending.find({&Function, unsigned(ForLaunches)});
      It != Pending.end())
    return *It->second;
  // Classifying may analyse helpers first, which grows the map: insert only
  // once the analysis is done.
  auto Found =
      std::make_unique<std::vector<UncheckedLaunch>>(findUncheckedLaunches(
          Function, Context,
          [&](const CallExpr &Call) { return classify(Call, Context); },
          // Launches, and helpers that leave launches pending (for the
          // dropped statuses of helpers: only launches).
          [&](const CallExpr &Pending) {
            if (isUncheckedStatus(Pending, Context))
              return false;
            const FunctionDecl *Callee = Pending.getDirectCallee();
            return ForLaunches || !Callee ||
                   !leavesStatusPending(*Callee, Context);
          }));
  auto [It, Inserted] =
      Pending.try_emplace({&Function, unsigned(ForLaunches)}, std::move(Found));
  return *It->second;
}

bool UncheckedApiCallCheck::leavesErrorPending(const FunctionDecl &Callee,
                                               ASTContext &Context) {
  const FunctionDecl *Definition = nullptr;
  if (!Callee.hasBody(Definition) || isDeviceOnly(*Definition) ||
      Context.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return false;
  auto [It, Inserted] = LeavesPending.try_emplace(Definition, false);
  if (!Inserted)
    return It->second;
  bool Leaves =
      llvm::any_of(pendingIn(*Definition, Context),
                   [](const UncheckedLaunch &F) { return F.Exit.isValid(); });
  LeavesPending[Definition] = Leaves;
  return Leaves;
}

bool UncheckedApiCallCheck::leavesStatusPending(const FunctionDecl &Callee,
                                                ASTContext &Context) {
  const FunctionDecl *Definition = nullptr;
  if (!leavesErrorPending(Callee, Context) || !Callee.hasBody(Definition))
    return false;
  auto [It, Inserted] = LeavesStatusPending.try_emplace(Definition, false);
  if (!Inserted)
    return It->second;
  bool Leaves = llvm::any_of(
      pendingIn(*Definition, Context), [&](const UncheckedLaunch &F) {
        if (F.Exit.isInvalid() || isa<CUDAKernelCallExpr>(F.Launch))
          return false;
        if (isUncheckedStatus(*F.Launch, Context))
          return true;
        const FunctionDecl *Helper = F.Launch->getDirectCallee();
        return Helper && leavesStatusPending(*Helper, Context);
      });
  LeavesStatusPending[Definition] = Leaves;
  return Leaves;
}

const CallExpr *
UncheckedApiCallCheck::uncheckedCaller(const FunctionDecl &Function,
                                       ASTContext &Context, bool ForLaunches,
                                       unsigned Depth) {
  if (Depth > 4)
    return nullptr;
  for (const CallSite &Site : callSites(Context).callersOf(Function)) {
    if (!Site.Caller->hasBody() || isDeviceOnly(*Site.Caller))
      continue;
    for (const UncheckedLaunch &F :
         pendingIn(*Site.Caller, Context, ForLaunches)) {
      if (F.Launch != Site.Call || F.Exit.isInvalid())
        continue;
      if (Site.Caller->isMain() ||
          uncheckedCaller(*Site.Caller, Context, ForLaunches, Depth + 1))
        return Site.Call;
    }
  }
  return nullptr;
}

void UncheckedApiCallCheck::checkLaunches(const FunctionDecl &Function,
                                          ASTContext &Context) {
  // Copied: the reports below may analyse callers and grow the cache.
  std::vector<UncheckedLaunch> Findings = pendingIn(Function, Context);
  for (const UncheckedLaunch &Finding : Findings) {
    const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Finding.Launch);
    bool DroppedStatus = !Launch && isUncheckedStatus(*Finding.Launch, Context);
    // A call of a helper that left an error pending: the helper's own
    // launch or call is the report.
    if (!Launch && !DroppedStatus)
      continue;
    // A dropped status is reported where a path leaves with it unchecked. A
    // launch followed by a synchronisation and then a check is checked: the
    // check still sees the faults the synchronisation surfaced.
    // A dropped setup call (a copy, a fill, an allocation) that a kernel
    // runs after, unchecked, is reported even if a check follows: the
    // kernel has already run on garbage.
    const CUDAKernelCallExpr *RunsOnIt =
        DroppedStatus &&
                isKernelSetupApi(canonicalApiName(calleeName(*Finding.Launch)))
            ? Finding.LaunchedWhilePending
            : nullptr;
    if (DroppedStatus
            ? Finding.Exit.isInvalid() && !RunsOnIt
            : !Finding.UncheckedAfterSynchronization &&
                  (!RequireCheckBeforeReturn || Finding.Exit.isInvalid()))
      continue;
    // A file that checks no error anywhere has chosen not to: no evidence.
    if (!Strict && !statusReads(Context).Any)
      continue;
    // Returned to a caller: main's end is the program's; any other
    // function's callers may still check, and those out of sight decide.
    const CallExpr *Caller = nullptr;
    // A launcher with no caller in sight, in a file whose launchers check
    // their own launches as a rule: the one that does not is the oversight.
    const FunctionDecl *HabitExample = nullptr;
    if (!Strict && Finding.Exit.isValid() && !RunsOnIt && !Function.isMain()) {
      Caller =
          uncheckedCaller(Function, Context, /*ForLaunches=*/!DroppedStatus);
      if (!Caller) {
        if (DroppedStatus || !callSites(Context).callersOf(Function).empty() ||
            !launcherHabit(Context).checksOwnLaunches())
          continue;
        HabitExample = launcherHabit(Context).Example;
      }
    }
    if (DroppedStatus) {
      reportDiscardedStatus(*Finding.Launch, Context);
      if (RunsOnIt) {
        diag(fileLoc(RunsOnIt->getBeginLoc(), Context),
             "'%0' is launched here before the error is checked",
             DiagnosticIDs::Note)
            << displayedCallee(*RunsOnIt, Context);
        continue;
      }
    } else {
      SourceLocation Loc = fileLoc(Launch->getBeginLoc(), Context);
      diag(Loc, "the launch of '%0' is not checked with cudaGetLastError() or "
                "cudaPeekAtLastError() on every path")
          << displayedCallee(*Launch, Context)
          << Launch->getCallee()->getSourceRange();
      instrumentLaunch(*Launch, Context, Loc);
      if (Finding.UncheckedAfterSynchronization && Finding.Synchronization) {
        diag(fileLoc(Finding.Synchronization->getBeginLoc(), Context),
             isHandled(*Finding.Synchronization, Context) &&
                     !hasFixedValidConfiguration(*Launch, Context)
                 ? "the result of '%0' reports the kernel's faults, but not a "
                   "launch rejected for its configuration"
                 : "the kernel's errors surface here instead, in the result "
                   "of '%0'",
             DiagnosticIDs::Note)
            << displayedCallee(*Finding.Synchronization, Context);
        continue;
      }
    }
    diag(fileLoc(Finding.Exit, Context),
         DroppedStatus ? "the function returns here with the error unchecked"
                       : "the function returns here with the launch unchecked",
         DiagnosticIDs::Note);
    if (HabitExample)
      diag(HabitExample->getLocation(),
           "%0 of the %1 functions in this file that launch kernels check "
           "their launches before they return, as '%2' does",
           DiagnosticIDs::Note)
          << launcherHabit(Context).CheckOwnLaunches
          << launcherHabit(Context).CheckOwnLaunches +
                 launcherHabit(Context).LeaveLaunchesPending
          << HabitExample->getName();
    if (Caller)
      diag(fileLoc(Caller->getBeginLoc(), Context),
           "'%0' is called here, and no caller checks the error before "
           "'main' returns",
           DiagnosticIDs::Note)
          << Function.getName();
  }
}

void UncheckedApiCallCheck::instrumentStatus(const CallExpr &Call,
                                             ASTContext &Context,
                                             SourceLocation Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  // The runtime and driver APIs' statuses, whose success is 0; a status type
  // a user adds may not compare with 0 and is left out.
  if (!R || !instrument::isRuntimeCallableCudaHostCode(Call, Context) ||
      returnedStatusType(
          Call, {"cudaError_t", "cudaError", "CUresult", "cudaError_enum"},
          Context)
          .empty())
    return;
  SourceLocation Loc = fileLoc(Call.getBeginLoc(), Context);
  if (instrument::involvesMacro(Call)) {
    R->skipSite(Context, Call.getBeginLoc());
    return;
  }
  int Site = R->addSite(Context, Loc, instrument::SiteKind::ApiResult, getID(),
                        displayedCallee(Call, Context),
                        enclosingFunction(Call, Context), Flagged);
  R->wrap(Context, Site, &Call,
          instrument::entryPointCall(instrument::SiteKind::ApiResult),
          ", @SITE@)");
}

void UncheckedApiCallCheck::instrumentLaunch(const CUDAKernelCallExpr &Launch,
                                             ASTContext &Context,
                                             SourceLocation Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || !instrument::isRuntimeCallableCudaHostCode(Launch, Context))
    return;
  SourceLocation Loc = fileLoc(Launch.getBeginLoc(), Context);
  if (instrument::involvesMacro(Launch)) {
    R->skipSite(Context, Launch.getBeginLoc());
    return;
  }
  int Site = R->addSite(Context, Loc, instrument::SiteKind::KernelLaunch,
                        getID(), displayedCallee(Launch, Context),
                        enclosingFunction(Launch, Context), Flagged);
  // A comma expression keeps the launch's own (void) value.
  R->wrap(Context, Site, &Launch, "(",
          ", " +
              instrument::entryPointCall(instrument::SiteKind::KernelLaunch) +
              "@SITE@))");
}

void UncheckedApiCallCheck::useRuntimeWrapper(const CallExpr &Call,
                                              ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || !instrument::isRuntimeCallableCudaHostCode(Call, Context))
    return;
  const FunctionDecl *Callee = Call.getDirectCallee();
  const auto *Name = dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreImpCasts());
  const SourceManager &SM = Context.getSourceManager();
  // The CUDA runtime's own functions, declared by the toolkit's headers,
  // called by their name or as `::cudaMalloc`.
  bool GloballyQualified =
      Name && Name->hasQualifier() &&
      Name->getQualifier().getKind() == NestedNameSpecifier::Kind::Global;
  if (!Callee || !Name || (Name->hasQualifier() && !GloballyQualified) ||
      !Callee->getIdentifier() ||
      !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !SM.isInSystemHeader(Callee->getLocation()) ||
      !instrument::hasRuntimeWrapper(Callee->getName()))
    return;
  // The name as the file spells it: directly, or in the argument of a macro
  // (`CUDA_CHECK(cudaMalloc(&p, n))`); never in a macro's own definition.
  SourceLocation NameLoc = Name->getLocation();
  while (NameLoc.isMacroID()) {
    if (!SM.isMacroArgExpansion(NameLoc))
      return;
    NameLoc = SM.getImmediateSpellingLoc(NameLoc);
  }
  std::string Replacement = instrument::runtimeWrapperCallee(
      Callee->getName(), SM.getPresumedLineNumber(NameLoc));
  // After `::`, the runtime's namespace without its own leading `::`.
  StringRef Spelled = Replacement;
  if (GloballyQualified)
    Spelled.consume_front("::");
  R->renameCallee(Context, NameLoc, Spelled);
}

void UncheckedApiCallCheck::registerTensorMemory(const CXXMemberCallExpr &Call,
                                                 ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || !instrument::isRuntimeCallableCudaHostCode(Call, Context))
    return;
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (!Method || !Method->getIdentifier() ||
      !llvm::is_contained(
          {"data_ptr", "data", "mutable_data_ptr", "const_data_ptr"},
          Method->getName()))
    return;
  // `t.data_ptr<T>()`: the tensor `t` is wrapped, evaluated once as before.
  // Through a pointer (`p->data_ptr()`) or inside a macro, it is left alone.
  const Expr *Object = instrument::wrappableAccessorObject(Call);
  if (!Object || !torch::isTensorType(Object->getType()) ||
      instrument::involvesMacro(Call))
    return;
  R->wrapAlways(Context, Object,
                instrument::hookCall(instrument::RuntimeHook::tensorMemory),
                ")");
}

void UncheckedApiCallCheck::refreshRegistryBefore(
    const CUDAKernelCallExpr &Launch, ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || !instrument::isRuntimeCallableCudaHostCode(Launch, Context) ||
      instrument::involvesMacro(Launch))
    return;
  // A comma expression keeps the launch's own (void) value.
  R->wrapAlways(
      Context, &Launch,
      "(" + instrument::hookCall(instrument::RuntimeHook::beforeLaunch) + "), ",
      ")");
}

} // namespace gpuguard::cuda
