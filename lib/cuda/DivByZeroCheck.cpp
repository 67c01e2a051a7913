//===--- DivByZeroCheck.cpp - cuda-div-by-zero ----------------------------===//

#include "cuda/DivByZeroCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/NonZeroAnalysis.h"
#include "Analysis/Core/ResultUse.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/DivisorEvidence.h"
#include "Instrument/Cuda/DivisionSites.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

static constexpr llvm::StringLiteral DefaultCountNames =
    "count;counts;cnt;cnts;num;numel;nnz;total;totals;size;sizes;len;lens;"
    "length;lengths;n";

DivByZeroCheck::DivByZeroCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Strict(Options.get("Strict", false)),
      CheckFloatDivision(Options.get("CheckFloatDivision", true)),
      CheckParameters(Options.get("CheckParameters", true)),
      CountNames(Options.get("CountNames", DefaultCountNames)),
      Counts(CountNames) {}

void DivByZeroCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Strict", Strict);
  Options.store(Opts, "CheckFloatDivision", CheckFloatDivision);
  Options.store(Opts, "CheckParameters", CheckParameters);
  Options.store(Opts, "CountNames", CountNames);
}

void DivByZeroCheck::registerMatchers(MatchFinder *Finder) {
  // Host code divides by the same values as device code, so every function
  // is analysed.
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

bool DivByZeroCheck::isReported(DivisionKind Kind,
                                const ZeroSource &Source) const {
  QualType Type = Source.Origin->getType();
  bool IntegerValue =
      !Type->isDependentType() && Type->isIntegralOrEnumerationType();
  switch (Kind) {
  case DivisionKind::Integer:
  case DivisionKind::Remainder:
    return Source.Kind != ZeroSource::Parameter || CheckParameters;
  case DivisionKind::FloatingPoint:
    // Parameters and arbitrary values are ordinary numeric code; only the
    // shapes that are zero in normal runs are flagged: see the docs.
    if (!CheckFloatDivision || Source.Kind == ZeroSource::Parameter)
      return false;
    return Source.Kind == ZeroSource::Difference || IntegerValue ||
           Counts.isCountName(loadedName(Source.Origin));
  case DivisionKind::Dependent:
    // Integer or floating point depends on the instantiation: flag what is
    // wrong either way.
    if (Source.Kind == ZeroSource::Parameter)
      return false;
    return Source.Kind == ZeroSource::Difference || IntegerValue ||
           (CheckFloatDivision &&
            Counts.isCountName(loadedName(Source.Origin)));
  }
  return false;
}

const KernelLaunches &DivByZeroCheck::launches(ASTContext &Context) {
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Context);
  return *Launches;
}

void DivByZeroCheck::instrumentDivision(const BinaryOperator &Division,
                                        DivisionKind Kind,
                                        const FunctionDecl &Function,
                                        ASTContext &Context,
                                        SourceLocation Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || Kind == DivisionKind::Dependent)
    return;
  instrument::addDivisionSites(*R, Division,
                               Kind == DivisionKind::FloatingPoint
                                   ? instrument::DivisionSort::FloatingPoint
                                   : instrument::DivisionSort::Integer,
                               Function, Context, getID(), Flagged);
}

void DivByZeroCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  NonZeroAnalysisOptions AnalysisOptions;
  AnalysisOptions.IsKnownPositive = isLaunchExtent;
  NonZeroAnalysis Analysis(*Function, Context, AnalysisOptions);
  ComparedValues Compared(*Function, Context);

  struct Finding {
    const BinaryOperator *Division;
    DivisionKind Kind;
    ZeroSource Source;
    std::optional<ZeroArgument> Launch;
  };
  std::vector<Finding> Findings;
  /// Divisions not proven non-zero that are not reported.
  std::vector<std::pair<const BinaryOperator *, DivisionKind>> Unproven;
  llvm::SmallPtrSet<const BinaryOperator *, 8> Seen;
  Analysis.forEachReachable([&](const Stmt *S, const NonZeroFacts &Facts) {
    const auto *Division = dyn_cast<BinaryOperator>(S);
    if (!Division || !Seen.insert(Division).second)
      return;
    BinaryOperatorKind Op = Division->getOpcode();
    if (Op != BO_Div && Op != BO_Rem && Op != BO_DivAssign &&
        Op != BO_RemAssign)
      return;
    QualType Type = Division->getType();
    if (const auto *Compound = dyn_cast<CompoundAssignOperator>(Division))
      Type = Compound->getComputationResultType();
    DivisionKind Kind;
    if (Op == BO_Rem || Op == BO_RemAssign)
      Kind = DivisionKind::Remainder;
    else if (Type->isDependentType())
      Kind = DivisionKind::Dependent;
    else if (Type->isIntegralOrEnumerationType())
      Kind = DivisionKind::Integer;
    else if (Type->isRealFloatingType())
      Kind = DivisionKind::FloatingPoint;
    else
      return;
    const Expr *Divisor = Division->getRHS();
    if (Analysis.isNonZero(Divisor, Facts))
      return;
    // A quotient that is only printed shows inf or NaN and stops nothing:
    // timing reports divide by elapsed times that are never zero in practice.
    if (!Strict && Kind == DivisionKind::FloatingPoint &&
        isOnlyFormatted(*Division, Context)) {
      Unproven.push_back({Division, Kind});
      return;
    }
    for (const ZeroSource &Source : Analysis.zeroSourcesOf(Divisor)) {
      if (!isReported(Kind, Source))
        continue;
      DivisorEvidence Shown = divisorEvidence(
          Source, *Divisor, *Function, Analysis, Compared,
          [&]() -> const KernelLaunches & { return launches(Context); }, Counts,
          Context);
      if (Strict || Shown.Found) {
        Findings.push_back({Division, Kind, Source, Shown.Launch});
        return;
      }
    }
    Unproven.push_back({Division, Kind});
  });

  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Findings, [&](const Finding &A, const Finding &B) {
    return SM.isBeforeInTranslationUnit(A.Division->getOperatorLoc(),
                                        B.Division->getOperatorLoc());
  });
  for (const Finding &F : Findings) {
    const Expr *Divisor = F.Division->getRHS()->IgnoreParenImpCasts();
    std::string DivisorText = quoteSource(Divisor, Context);
    const char *Message = "";
    switch (F.Kind) {
    case DivisionKind::Integer:
      Message = "integer division by '%0', which may be zero";
      break;
    case DivisionKind::Remainder:
      Message = "remainder by '%0', which may be zero";
      break;
    case DivisionKind::FloatingPoint:
      Message = "floating-point division by '%0', which may be zero and "
                "yield inf or NaN";
      break;
    case DivisionKind::Dependent:
      Message = "division by '%0', which may be zero";
      break;
    }
    diag(F.Division->getOperatorLoc(), Message)
        << DivisorText << Divisor->getSourceRange();
    for (const ZeroSource::Copy &Copy : F.Source.Copies)
      diag(Copy.Loc, "'%0' is computed here from '%1'", DiagnosticIDs::Note)
          << Copy.Var->getName()
          << quoteSource(Copy.Value->IgnoreParenImpCasts(), Context);
    if (F.Launch) {
      std::string Argument = quoteSource(F.Launch->Argument, Context);
      std::string Value = quoteSource(F.Launch->Value, Context);
      // The value behind the argument, when the argument only names it.
      std::string Behind =
          Value == Argument ? std::string() : "which is '" + Value + "', ";
      static constexpr const char *Why[] = {
          "'%0' is launched here with '%1', which is 0",
          "'%0' is launched here with '%1', %2a quotient that is 0 whenever "
          "the divisor is the larger",
          "'%0' is launched here with '%1', %2a difference that is 0 whenever "
          "the two are equal"};
      diag(F.Launch->Argument->getBeginLoc(),
           Why[static_cast<int>(F.Launch->Kind)], DiagnosticIDs::Note)
          << Function->getName() << Argument << Behind
          << F.Launch->Argument->getSourceRange();
    }
    instrumentDivision(*F.Division, F.Kind, *Function, Context,
                       F.Division->getOperatorLoc());
  }
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    for (auto [Division, Kind] : Unproven)
      instrumentDivision(*Division, Kind, *Function, Context, SourceLocation());
}

} // namespace gpuguard::cuda
