//===--- UncheckedIndexCheck.cpp - cuda-unchecked-index -------------------===//

#include "cuda/UncheckedIndexCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Core/TestOrder.h"
#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/IndexEvidence.h"
#include "Analysis/Cuda/OffsetLaunchArguments.h"
#include "Analysis/Cuda/ThreadIndexProvenance.h"
#include "Instrument/Cuda/IndexSites.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

// CSR row pointers, segment offsets and the like hold one entry more than
// the rows they describe.
static constexpr llvm::StringLiteral DefaultExtentPlusOneArrays =
    "([Pp]tr|PTR|[Oo]ffsets?|OFFSETS?|[Ss]tarts?|[Ii]ndptr|[Bb]ounds|"
    "[Bb]oundaries)$";

UncheckedIndexCheck::UncheckedIndexCheck(StringRef Name,
                                         tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Strict(Options.get("Strict", false)),
      CheckBlockLocalIndexes(Options.get("CheckBlockLocalIndexes", false)),
      CheckLoadedIndexes(Options.get("CheckLoadedIndexes", false)),
      CheckFloatIndexes(Options.get("CheckFloatIndexes", true)),
      ExtentPlusOneArrays(
          Options.get("ExtentPlusOneArrays", DefaultExtentPlusOneArrays)),
      ExtentPlusOneRegex(ExtentPlusOneArrays) {}

void UncheckedIndexCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Strict", Strict);
  Options.store(Opts, "CheckBlockLocalIndexes", CheckBlockLocalIndexes);
  Options.store(Opts, "CheckLoadedIndexes", CheckLoadedIndexes);
  Options.store(Opts, "CheckFloatIndexes", CheckFloatIndexes);
  Options.store(Opts, "ExtentPlusOneArrays", ExtentPlusOneArrays);
}

void UncheckedIndexCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition(anyOf(hasAttr(attr::CUDAGlobal),
                                                     hasAttr(attr::CUDADevice)))
                         .bind("function"),
                     this);
}

void UncheckedIndexCheck::reportProblem(const UnguardedAccess &Finding,
                                        const IndexProblem &Problem,
                                        const ThreadIndexProvenance &Provenance,
                                        ASTContext &Context) {
  const Expr *Access = Finding.Access.Access;
  const Expr *Index = stripIndexCasts(Finding.Access.Index);
  SourceLocation Loc = Access->getBeginLoc();
  std::string AccessText = quoteSource(Access, Context);
  std::string IndexText = quoteSource(Index, Context);
  // An index passed to a helper is used there with the helper's offset.
  if (Finding.Helper && Problem.Offset > 0)
    IndexText += " + " + std::to_string(Problem.Offset);
  else if (Finding.Helper && Problem.Offset < 0)
    IndexText += " - " + std::to_string(-Problem.Offset);
  std::string PartText = quoteSource(Problem.Part, Context);
  bool WholeIndex = stripIndexCasts(Problem.Part) == Index;
  std::string PartName =
      Problem.Variable ? Problem.Variable->getName().str() : PartText;

  switch (Problem.Kind) {
  case IndexProblemKind::Unbounded: {
    const char *What = nullptr;
    switch (Problem.Source) {
    case IndexSource::ThreadIndex:
      What = "depends on the thread index and is not bounded by a guard on "
             "every path";
      break;
    case IndexSource::Loaded:
      What = Problem.MissingLowerBound
                 ? "is loaded from memory and is not checked against zero on "
                   "every path"
                 : "is loaded from memory and is not checked against a bound "
                   "on every path";
      break;
    case IndexSource::FromFloat:
      What = Problem.MissingLowerBound
                 ? "is converted from floating point and is not bounded below "
                   "on every path; NaN or a negative value becomes a garbage "
                   "index"
                 : "is converted from floating point and is not bounded on "
                   "every path; NaN or an out-of-range value becomes a "
                   "garbage index";
      break;
    }
    if (Finding.Helper)
      diag(Loc, "index '%0' passed to '%1' %2")
          << PartText << Finding.Helper->getName() << What
          << Index->getSourceRange();
    else if (WholeIndex && (Problem.Variable || isa<DeclRefExpr>(Index)))
      diag(Loc, "index '%0' of '%1' %2")
          << PartName << AccessText << What << Index->getSourceRange();
    else if (WholeIndex)
      diag(Loc, "the index of '%0' %1")
          << AccessText << What << Index->getSourceRange();
    else
      diag(Loc, "'%0' in the index of '%1' %2")
          << PartName << AccessText << What << Index->getSourceRange();
    break;
  }
  case IndexProblemKind::OnePastTheBound: {
    std::string Bound =
        Problem.Bound ? quoteSource(Problem.Bound, Context) : std::string();
    if (Bound.empty())
      diag(Loc, "the guard lets index '%0' of '%1' reach its bound, one past "
                "the end")
          << PartName << AccessText << Index->getSourceRange();
    else
      diag(Loc, "the guard lets index '%0' of '%1' reach '%2', one past the "
                "end")
          << PartName << AccessText << Bound << Index->getSourceRange();
    if (Problem.PastRangeEnd)
      diag(Problem.Guard->getBeginLoc(),
           "'%0' starts the next range; the loop visits it too",
           DiagnosticIDs::Note)
          << Bound;
    else if (Problem.Guard)
      diag(Problem.Guard->getBeginLoc(),
           "'%0' can be equal to its bound past this guard",
           DiagnosticIDs::Note)
          << PartName;
    return;
  }
  case IndexProblemKind::OffsetNotCovered:
  case IndexProblemKind::LaunchExtentOffset:
    if (!Problem.Guard && Provenance.originOf(Problem.Part).IsBareCoordinate) {
      diag(Loc, "index '%0' of '%1' may pass the end: the launch bounds "
                "'%2', not '%0'")
          << IndexText << AccessText << PartName << Index->getSourceRange();
      return;
    }
    if (!Problem.Guard) {
      // No guard at all: "the guard on 'i'" would name one that is not there.
      diag(Loc, "index '%0' of '%1' depends on the thread index and is not "
                "bounded by a guard on every path")
          << IndexText << AccessText << Index->getSourceRange();
      if (Problem.Variable)
        noteDefinition(Problem.Variable, Provenance, Problem.AssignedValue);
      return;
    }
    diag(Loc, "index '%0' of '%1' is not covered by the guard on '%2'")
        << IndexText << AccessText << PartName << Index->getSourceRange();
    if (Problem.Guard)
      diag(Problem.Guard->getBeginLoc(), "guard here bounds '%0', not '%1'",
           DiagnosticIDs::Note)
          << PartName
          << (Problem.Addend
                  ? PartName + " + " + quoteSource(Problem.Addend, Context)
              : Problem.Offset > 0
                  ? PartName + " + " + std::to_string(Problem.Offset)
                  : IndexText);
    return;
  case IndexProblemKind::NegativeOffset:
    if (!Problem.OriginCoordinates.empty()) {
      std::vector<std::string> Coordinates;
      for (const Expr *Coordinate : Problem.OriginCoordinates)
        Coordinates.push_back(quoteSource(Coordinate, Context));
      // The columns of a row are below its width, so one row up from the
      // first row is below zero.
      bool RowAbove = Problem.RowWidth != nullptr;
      diag(Loc, "index '%0' of '%1' %select{is %2|subtracts '%2' from a row "
                "offset that is 0}3 where %4 %select{is|are}5 0; no guard "
                "bounds %4 from below")
          << IndexText << AccessText
          << (RowAbove ? quoteSource(Problem.RowWidth, Context)
                       : std::to_string(Problem.Offset))
          << static_cast<unsigned>(RowAbove) << joinQuoted(Coordinates)
          << static_cast<unsigned>(Coordinates.size() > 1)
          << Index->getSourceRange();
    } else if (Problem.Offset == -1)
      diag(Loc, "index '%0' of '%1' is negative when '%2' is 0; no guard "
                "bounds '%2' from below")
          << IndexText << AccessText << PartName << Index->getSourceRange();
    else
      diag(Loc, "index '%0' of '%1' is negative when '%2' is below %3; no "
                "guard bounds '%2' from below")
          << IndexText << AccessText << PartName << -Problem.Offset
          << Index->getSourceRange();
    break;
  case IndexProblemKind::UnboundedTileColumn:
    diag(Loc, "the tile column in the index of '%0' is not bounded by a "
              "guard on every path; in the last, partial tile it runs past "
              "the end")
        << AccessText << Index->getSourceRange();
    return;
  }
  if (Problem.Variable)
    noteDefinition(Problem.Variable, Provenance, Problem.AssignedValue);
}

void UncheckedIndexCheck::notePointerAccess(const UnguardedAccess &Finding,
                                            const IndexProblem &Problem,
                                            ASTContext &Context) {
  const IndexedAccess &Access = Finding.Access;
  if (const CallExpr *Call = Access.PassedTo)
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      diag(Call->getBeginLoc(), "'%0' accesses memory through the pointer",
           DiagnosticIDs::Note)
          << Callee->getName();
  // The faulty part is in the offset a row pointer was made with.
  const Expr *Part = Problem.Part;
  if (!Access.BaseOffset || !Part ||
      !Access.BaseOffset->getSourceRange().fullyContains(
          Part->getSourceRange()))
    return;
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(Access.Base->IgnoreParenImpCasts()))
    diag(Ref->getDecl()->getLocation(),
         "'%0' points '%1' elements into the data it is made from",
         DiagnosticIDs::Note)
        << Ref->getDecl()->getName() << quoteSource(Access.BaseOffset, Context);
}

void UncheckedIndexCheck::noteDefinition(
    const VarDecl *Variable, const ThreadIndexProvenance &Provenance,
    const Expr *AssignedValue) {
  // The value the variable holds at the access, when the analysis knows
  // it; else its first thread-dependent definition.
  const VariableDefinition *Definition = Provenance.definitionOf(Variable);
  if (!Definition && !AssignedValue)
    return;
  const Expr *Value = AssignedValue ? AssignedValue : Definition->Value;
  SourceLocation Loc =
      AssignedValue ? AssignedValue->getBeginLoc() : Definition->Loc;
  std::string Inputs = joinQuoted(Provenance.inputsOf(Value));
  if (Inputs.empty())
    diag(Loc, "'%0' is computed here", DiagnosticIDs::Note)
        << Variable->getName();
  else
    diag(Loc, "'%0' is computed here from %1", DiagnosticIDs::Note)
        << Variable->getName() << Inputs;
}

void UncheckedIndexCheck::instrumentAccess(const UnguardedAccess &Finding,
                                           const FunctionDecl &Function,
                                           ASTContext &Context,
                                           SourceLocation Flagged) {
  if (instrument::Recorder *R = instrument::Recorder::active())
    instrument::addIndexSite(*R, Finding, Function, Context, getID(), Flagged,
                             ExtentPlusOneArrays.empty() ||
                                     !ExtentPlusOneRegex.isValid()
                                 ? nullptr
                                 : &ExtentPlusOneRegex);
}

void UncheckedIndexCheck::instrumentUnflagged(
    const FunctionDecl &Function, ASTContext &Context,
    const ThreadIndexProvenance &Provenance,
    const GuardAnalysisOptions &Options,
    const llvm::SmallPtrSetImpl<const Expr *> &Flagged) {
  // Every index from the launch, memory or floating point that no guard
  // proves in bounds, whatever the options and the launch let pass.
  GuardAnalysisOptions Wide = Options;
  Wide.TrustBlockSizedStorage = false;
  Wide.CheckLoadedIndexes = true;
  Wide.CheckFloatIndexes = true;
  std::vector<IndexedAccess> Unproven;
  Wide.Unproven = &Unproven;
  llvm::SmallPtrSet<const Expr *, 16> Done(Flagged.begin(), Flagged.end());
  for (const UnguardedAccess &Finding :
       findUnguardedAccesses(Function, Context, Provenance, Wide))
    if (Done.insert(Finding.Access.Access).second)
      instrumentAccess(Finding, Function, Context, SourceLocation());
  for (const IndexedAccess &Access : Unproven)
    if (Done.insert(Access.Access).second)
      instrumentAccess(UnguardedAccess{Access, {}, nullptr, nullptr}, Function,
                       Context, SourceLocation());
}

/// Whether two problems are one fault: the same unbounded value, kind,
/// offset and guard.
static bool isSameFault(const IndexProblem &A, const IndexProblem &B,
                        const ASTContext &Context) {
  // `pos + 0`, `pos + 1`: one unbounded `pos`, whatever is added.
  bool OffsetMatters = A.Kind != IndexProblemKind::Unbounded;
  if (A.Kind != B.Kind || A.Source != B.Source ||
      (OffsetMatters && A.Offset != B.Offset) || A.Guard != B.Guard ||
      A.MissingLowerBound != B.MissingLowerBound)
    return false;
  if (A.Variable || B.Variable)
    return A.Variable == B.Variable;
  return isSameValue(A.Part, B.Part, Context);
}

void UncheckedIndexCheck::reportOffsetLaunches(const FunctionDecl &Kernel,
                                               ASTContext &Context) {
  llvm::SmallPtrSet<const Expr *, 4> Instrumented;
  for (const OffsetPastAllocation &Past :
       offsetLaunchesPastAllocation(Kernel, launches(Context), Context)) {
    std::string Value = quoteSource(Past.Value, Context);
    if (Past.Offset)
      diag(Past.Argument->getBeginLoc(),
           "'%0' points '%1' elements into '%2', but the launch passes the "
           "size of all of '%2' for '%3': the last threads of '%4' run past "
           "its end")
          << quoteSource(Past.Argument, Context)
          << quoteSource(Past.Offset, Context) << Past.Buffer->getName()
          << Past.Bound->getName() << Kernel.getName()
          << Past.Argument->getSourceRange();
    else
      diag(Past.Argument->getBeginLoc(),
           "'%0' holds the count the launch passes for '%1', but '%2' "
           "indexes it at '%3' with '%4' below '%1': threads with '%4' from "
           "'%1' / %5 on run past its end")
          << Past.Buffer->getName() << Past.Bound->getName() << Kernel.getName()
          << quoteSource(getIndexedAccess(Past.Access)->Index, Context) << Value
          << Past.Scale << Past.Argument->getSourceRange();
    diag(Past.Allocation->getBeginLoc(), "'%0' is allocated here",
         DiagnosticIDs::Note)
        << Past.Buffer->getName();
    if (Past.Offset)
      diag(Past.Comparison->getBeginLoc(),
           "'%0' keeps its index into '%1' below '%2' here, as if '%1' were "
           "the start of the allocation",
           DiagnosticIDs::Note)
          << Kernel.getName() << Past.Pointer->getName()
          << Past.Bound->getName();
    else
      diag(Past.Comparison->getBeginLoc(), "'%0' keeps '%1' below '%2' here",
           DiagnosticIDs::Note)
          << Kernel.getName() << Value << Past.Bound->getName();
    // At run time the access is checked against the allocation its pointer
    // points into, which the registry knows: the guard's bound is what is
    // wrong here. Once per access, in the kernel as written.
    std::optional<IndexedAccess> Access = getIndexedAccess(Past.Access);
    if (!Access || !Instrumented.insert(Past.Access).second ||
        Past.Pointer->getDeclContext() != &Kernel)
      continue;
    UnguardedAccess Site;
    Site.Access = *Access;
    Site.Problems.push_back({});
    Site.Problems.back().Part = Access->Index;
    instrumentAccess(Site, Kernel, Context, Past.Argument->getBeginLoc());
  }
}

void UncheckedIndexCheck::reportReadsBeforeTheirTest(
    const FunctionDecl &Function, ASTContext &Context,
    const llvm::SmallPtrSetImpl<const Expr *> &Flagged) {
  const SourceManager &SM = Context.getSourceManager();
  for (const ReadBeforeTest &Found :
       findReadsBeforeTheirTest(*Function.getBody(), Context)) {
    if (Flagged.contains(Found.Read))
      continue;
    const Expr *Index = stripIndexCasts(Found.Read->getIdx());
    StringRef Operator = Found.Chain->getOpcodeStr();
    auto Diagnostic =
        diag(Found.Read->getBeginLoc(),
             "'%0' reads index '%1' before '%2' tests it; '%3' evaluates "
             "its operands in order")
        << quoteSource(Found.Read, Context) << quoteSource(Index, Context)
        << quoteSource(Found.Test, Context) << Operator
        << Found.Read->getSourceRange();
    // `a && b` with the test as `b`: swapping the operands is the fix when
    // neither has side effects and both are spelled in the file.
    const Expr *Left = Found.Chain->getLHS();
    const Expr *Right = Found.Chain->getRHS();
    if (Right->IgnoreParenImpCasts() != Found.Test ||
        Left->HasSideEffects(Context) || Right->HasSideEffects(Context) ||
        Left->getBeginLoc().isMacroID() || Left->getEndLoc().isMacroID() ||
        Right->getBeginLoc().isMacroID() || Right->getEndLoc().isMacroID())
      continue;
    auto TextOf = [&](const Expr *E) {
      return Lexer::getSourceText(
          CharSourceRange::getTokenRange(E->getSourceRange()), SM,
          Context.getLangOpts());
    };
    Diagnostic << FixItHint::CreateReplacement(Left->getSourceRange(),
                                               TextOf(Right))
               << FixItHint::CreateReplacement(Right->getSourceRange(),
                                               TextOf(Left));
  }
}

void UncheckedIndexCheck::notePastAllocation(const ReachPastAllocation &Reach,
                                             const FunctionDecl &Kernel,
                                             ASTContext &Context) {
  auto Coordinates = [&](const std::array<int64_t, 3> &At) {
    std::string Text;
    for (unsigned Axis = 0; Axis < Reach.Dimensions; ++Axis)
      Text += (Axis ? ", " : "") + std::to_string(At[Axis]);
    return Text;
  };
  std::vector<std::string> Sampled;
  for (const VarDecl *Var : Reach.Sampled)
    Sampled.push_back(Var->getName().str());
  if (Reach.GuardedPart)
    diag(Reach.Launch->getBeginLoc(),
         "'%0' is launched here%select{|, with %2 at %3}1: where '%4' is %5, "
         "the largest its guard allows, the index is %6, past the %7 "
         "elements of '%8'",
         DiagnosticIDs::Note)
        << Kernel.getName() << static_cast<unsigned>(!Sampled.empty())
        << joinQuoted(Sampled) << std::to_string(Reach.Sample)
        << quoteSource(Reach.GuardedPart, Context)
        << std::to_string(Reach.GuardedValue) << std::to_string(Reach.Reached)
        << std::to_string(Reach.Count) << Reach.Buffer->getName();
  else
    diag(Reach.Launch->getBeginLoc(),
         "'%0' is launched here%select{|, with %2 at %3}1: thread (%4) of "
         "block (%5) computes index %6, past the %7 elements of '%8'",
         DiagnosticIDs::Note)
        << Kernel.getName() << static_cast<unsigned>(!Sampled.empty())
        << joinQuoted(Sampled) << std::to_string(Reach.Sample)
        << Coordinates(Reach.Thread) << Coordinates(Reach.Block)
        << std::to_string(Reach.Reached) << std::to_string(Reach.Count)
        << Reach.Buffer->getName();
  diag(Reach.Allocation->getBeginLoc(), "'%0' is allocated here",
       DiagnosticIDs::Note)
      << Reach.Buffer->getName();
}

const KernelLaunches &UncheckedIndexCheck::launches(ASTContext &Context) {
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Context);
  return *Launches;
}

void UncheckedIndexCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  ThreadIndexProvenance Provenance(*Function, Context);
  GuardAnalysisOptions AnalysisOptions;
  AnalysisOptions.TrustBlockSizedStorage = !CheckBlockLocalIndexes;
  AnalysisOptions.CheckLoadedIndexes = CheckLoadedIndexes;
  AnalysisOptions.CheckFloatIndexes = CheckFloatIndexes;
  if (!ExtentPlusOneArrays.empty() && ExtentPlusOneRegex.isValid())
    AnalysisOptions.ExtentPlusOneArrays = &ExtentPlusOneRegex;
  llvm::SmallPtrSet<const Expr *, 16> Flagged;
  ComparedValues Compared(*Function, Context);
  IndexEvidenceContext Where(*Function, Context, Compared, Provenance,
                             launches(Context));
  Where.CheckBlockLocalIndexes = CheckBlockLocalIndexes;
  // One warning per fault: accesses that share the unbounded value, the
  // guard and the offset are one bug, noted under the first.
  struct Group {
    const UnguardedAccess *Leader;
    /// The leader's problem reported: the first with evidence.
    const IndexProblem *Problem;
    IndexEvidence Evidence;
    llvm::SmallVector<const UnguardedAccess *, 2> Others;
  };
  std::vector<Group> Groups;
  std::vector<UnguardedAccess> Findings =
      findUnguardedAccesses(*Function, Context, Provenance, AnalysisOptions);
  for (const UnguardedAccess &Finding : Findings) {
    // Each unbounded part of an index may have its own evidence: a grid
    // rounded up along y is evidence for the column, not for the row.
    const IndexProblem *Chosen = &Finding.Problems.front();
    IndexEvidence Evidence;
    for (const IndexProblem &Candidate : Finding.Problems)
      if ((Evidence = evidenceFor(Finding, Candidate, Where))) {
        Chosen = &Candidate;
        break;
      }
    const IndexProblem &Problem = *Chosen;
    // Unproven accesses stay for --instrument=all, as unflagged sites.
    if (!Evidence && !Strict)
      continue;
    Flagged.insert(Finding.Access.Access);
    auto Same = llvm::find_if(Groups, [&](const Group &G) {
      return isSameFault(*G.Problem, Problem, Context);
    });
    if (Same != Groups.end())
      Same->Others.push_back(&Finding);
    else
      Groups.push_back({&Finding, &Problem, Evidence, {}});
  }
  for (const Group &G : Groups) {
    const UnguardedAccess &Finding = *G.Leader;
    SourceLocation Loc = Finding.Access.Access->getBeginLoc();
    reportProblem(Finding, *G.Problem, Provenance, Context);
    if (G.Evidence.Kind == IndexEvidenceKind::RoundedUpLaunch)
      diag(G.Evidence.Launch->RoundedUpExtent->getBeginLoc(),
           "'%0' is launched with this grid, rounded up from the data size; "
           "the last block has threads past the end",
           DiagnosticIDs::Note)
          << Function->getName();
    else if (G.Evidence.Kind == IndexEvidenceKind::PastAllocation)
      notePastAllocation(*G.Evidence.Reach, *Function, Context);
    else if (G.Evidence.Kind == IndexEvidenceKind::BoundedElsewhere)
      diag(G.Evidence.Comparison->getBeginLoc(),
           "'%0' is compared with a bound here, which does not hold at this "
           "access",
           DiagnosticIDs::Note)
          << quoteSource(G.Problem->Part, Context);
    notePointerAccess(Finding, *G.Problem, Context);
    if (Finding.Helper) {
      diag(Finding.HelperAccess->getBeginLoc(),
           "'%0' uses it as an index here, with no guard of its own",
           DiagnosticIDs::Note)
          << Finding.Helper->getName();
    }
    // Other unbounded variables of the same index get their origin noted.
    for (const IndexProblem &Other : Finding.Problems)
      if (&Other != G.Problem && Other.Kind == IndexProblemKind::Unbounded &&
          Other.Variable)
        noteDefinition(Other.Variable, Provenance, Other.AssignedValue);
    // The diagnostic's location, as reportProblem() words it, keeps every
    // access of the group in a flagged-only instrumented copy.
    instrumentAccess(Finding, *Function, Context, Loc);
    for (const UnguardedAccess *Other : G.Others) {
      diag(Other->Access.Access->getBeginLoc(),
           "the same index reaches '%0' here", DiagnosticIDs::Note)
          << quoteSource(Other->Access.Access, Context);
      instrumentAccess(*Other, *Function, Context, Loc);
    }
  }
  reportReadsBeforeTheirTest(*Function, Context, Flagged);
  if (Function->hasAttr<CUDAGlobalAttr>())
    reportOffsetLaunches(*Function, Context);
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    instrumentUnflagged(*Function, Context, Provenance, AnalysisOptions,
                        Flagged);
}

} // namespace gpuguard::cuda
