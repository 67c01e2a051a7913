//===--- UncheckedIndexCheck.cpp - cuda-unchecked-index -------------------===//

#include "cuda/UncheckedIndexCheck.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/ThreadIndexProvenance.h"
#include "Instrument/Cuda/IndexSites.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

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
    : ClangTidyCheck(Name, Context),
      CheckBlockLocalIndexes(Options.get("CheckBlockLocalIndexes", false)),
      CheckLoadedIndexes(Options.get("CheckLoadedIndexes", false)),
      CheckFloatIndexes(Options.get("CheckFloatIndexes", true)),
      ExtentPlusOneArrays(
          Options.get("ExtentPlusOneArrays", DefaultExtentPlusOneArrays)),
      ExtentPlusOneRegex(ExtentPlusOneArrays) {}

void UncheckedIndexCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
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
    if (Problem.Guard)
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
    if (Problem.Offset == -1)
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
    noteDefinition(Problem.Variable, Provenance);
}

void UncheckedIndexCheck::noteDefinition(
    const VarDecl *Variable, const ThreadIndexProvenance &Provenance) {
  const VariableDefinition *Definition = Provenance.definitionOf(Variable);
  if (!Definition)
    return;
  std::string Inputs = joinQuoted(Provenance.inputsOf(Definition->Value));
  if (Inputs.empty())
    diag(Definition->Loc, "'%0' is computed here", DiagnosticIDs::Note)
        << Variable->getName();
  else
    diag(Definition->Loc, "'%0' is computed here from %1", DiagnosticIDs::Note)
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

void UncheckedIndexCheck::check(const MatchFinder::MatchResult &Result) {
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
  for (const UnguardedAccess &Finding :
       findUnguardedAccesses(*Function, Context, Provenance, AnalysisOptions)) {
    reportProblem(Finding, Finding.Problems.front(), Provenance, Context);
    // The diagnostic's location, as reportProblem() words it.
    instrumentAccess(Finding, *Function, Context,
                     Finding.Access.Access->getBeginLoc());
    Flagged.insert(Finding.Access.Access);
    if (Finding.Helper) {
      diag(Finding.HelperAccess->getBeginLoc(),
           "'%0' uses it as an index here, with no guard of its own",
           DiagnosticIDs::Note)
          << Finding.Helper->getName();
    }
    // Other unbounded variables of the same index get their origin noted.
    for (const IndexProblem &Other : llvm::drop_begin(Finding.Problems))
      if (Other.Kind == IndexProblemKind::Unbounded && Other.Variable)
        noteDefinition(Other.Variable, Provenance);
  }
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    instrumentUnflagged(*Function, Context, Provenance, AnalysisOptions,
                        Flagged);
}

} // namespace gpuguard::cuda
