//===--- DivByZeroCheck.cpp - torch-div-by-zero ---------------------------===//

#include "torch/DivByZeroCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/TensorDenominatorAnalysis.h"
#include "Analysis/Torch/TorchApi.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void DivByZeroCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

/// Why a denominator of \p Kind can be zero, after "division by '...', ".
static StringRef whyZero(TensorValue::KindType Kind) {
  switch (Kind) {
  case TensorValue::Zero:
    return "which is zero everywhere";
  case TensorValue::Accumulator:
  case TensorValue::Sum:
    return "a sum of non-negative values that is zero when all of them are; "
           "add an epsilon or clamp it";
  case TensorValue::Mean:
    return "a mean of non-negative values that is zero when all of them are; "
           "add an epsilon or clamp it";
  // Unbiased, they divide by n - 1: NaN over one value, which no epsilon
  // or clamp mends.
  case TensorValue::StandardDeviation:
    return "a standard deviation that is zero when all the values are equal "
           "and NaN over a single value; add an epsilon for the first and "
           "keep two or more values (or pass unbiased=false) for the second";
  case TensorValue::Variance:
    return "a variance that is zero when all the values are equal and NaN "
           "over a single value; add an epsilon for the first and keep two or "
           "more values (or pass unbiased=false) for the second";
  case TensorValue::Norm:
    return "a norm that is zero when all the values are zero; add an epsilon "
           "or clamp it";
  default:
    return {};
  }
}

/// What made the values non-negative or zero, for the note at \p Why's site.
static StringRef sourceNote(TensorValue::SourceKind Why) {
  switch (Why) {
  case TensorValue::Comparison:
    return "the values are 0 or 1 from this comparison";
  case TensorValue::Relu:
    return "the values are made non-negative by this relu";
  case TensorValue::Abs:
    return "the values are made non-negative by this abs";
  case TensorValue::Square:
    return "the values are made non-negative by this square";
  case TensorValue::Clamp:
    return "the values are made non-negative by this clamp";
  case TensorValue::Random:
    return "the values are non-negative from this random fill";
  case TensorValue::Fill:
    return "the values are zero from here";
  case TensorValue::NoSource:
    break;
  }
  return {};
}

static bool within(const Expr *Inner, const Expr *Outer,
                   const SourceManager &SM) {
  SourceLocation Loc = SM.getExpansionLoc(Inner->getBeginLoc());
  SourceRange Range(SM.getExpansionLoc(Outer->getBeginLoc()),
                    SM.getExpansionLoc(Outer->getEndLoc()));
  return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
}

void DivByZeroCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  const SourceManager &SM = Context.getSourceManager();
  TensorDenominatorAnalysis Analysis(*Function, Context);
  for (const RiskyDivision &Division : Analysis.riskyDivisions()) {
    const TensorValue &Value = Division.Value;
    const Expr *Denominator = Division.Denominator->IgnoreParenImpCasts();
    // `v.sqrt()` of a variance `v` is not the variance itself.
    bool Derived = !Division.Variable && Value.Site &&
                   ignoreTensorWrappers(Denominator) != Value.Site &&
                   Value.Kind != TensorValue::Zero;
    diag(Denominator->getBeginLoc(), "division by '%0', %1%2")
        << quoteSource(Denominator, Context)
        << (Derived ? "computed from " : "") << whyZero(Value.Kind);
    // Point at what made the value risky when it happened elsewhere.
    if (Value.Site && !within(Value.Site, Division.Division, SM)) {
      if (Value.Kind == TensorValue::Accumulator)
        diag(Value.Site->getBeginLoc(), "the sum starts from zero here",
             DiagnosticIDs::Note);
      else if (Value.Kind != TensorValue::Zero)
        diag(Value.Site->getBeginLoc(), "'%0' is computed here",
             DiagnosticIDs::Note)
            << quoteSource(Value.Site, Context);
    }
    if (Value.Source && !within(Value.Source, Division.Division, SM) &&
        !sourceNote(Value.Why).empty())
      diag(Value.Source->getBeginLoc(), sourceNote(Value.Why),
           DiagnosticIDs::Note);
    instrumentDenominator(Denominator, Function, Context, true);
  }
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    for (const RiskyDivision &Division : Analysis.unprovenDivisions())
      instrumentDenominator(Division.Denominator->IgnoreParenImpCasts(),
                            Function, Context, false);
}

void DivByZeroCheck::instrumentDenominator(const Expr *Denominator,
                                           const FunctionDecl *Function,
                                           ASTContext &Context, bool Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R)
    return;
  int Site = R->addSite(
      Context, Denominator->getBeginLoc(), instrument::SiteKind::TorchNonZero,
      getID(), quoteSource(Denominator, Context), Function,
      Flagged ? Denominator->getBeginLoc() : SourceLocation());
  R->wrapTorchOperand(Context, Site, Denominator, 0, 1);
}

} // namespace gpuguard::torch
