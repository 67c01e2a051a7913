//===--- IndexRangeCheck.cpp - torch-index-range --------------------------===//

#include "torch/IndexRangeCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/TorchApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

/// PyTorch's default ignore_index of nll_loss and cross_entropy.
constexpr int64_t DefaultIgnoreIndex = -100;

void IndexRangeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

void IndexRangeCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !Function->getBody() || Function->isDependentContext())
    return;
  CurrentFunction = Function;
  TensorFacts Facts(*Function, *Result.Context);
  Facts.forEachReachable([&](const Stmt *S, const TensorFactMap &State) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      checkCall(Call, Facts, State, *Result.Context);
  });
}

/// The classes of a loss input: dimension 1 of [N, C, ...], or the only
/// dimension of an unbatched [C].
static std::optional<int64_t> classCount(const TensorFact &Input) {
  if (!Input.Shape || Input.Shape->empty())
    return std::nullopt;
  int64_t Classes =
      Input.Shape->size() == 1 ? (*Input.Shape)[0] : (*Input.Shape)[1];
  if (Classes == UnknownSize)
    return std::nullopt;
  return Classes;
}

/// A value \p Index provably holds that is outside [0, Bound) and not
/// ignored, when its values are known exactly enough.
static std::optional<int64_t> outOfRangeValue(const TensorFact &Index,
                                              int64_t Bound,
                                              std::optional<int64_t> Ignored,
                                              bool NegativeOnly) {
  auto Invalid = [&](int64_t Value) {
    return (Value < 0 || (!NegativeOnly && Value >= Bound)) && Value != Ignored;
  };
  if (Index.Values) {
    std::optional<int64_t> Worst;
    for (int64_t Value : *Index.Values)
      if (Invalid(Value) && (!Worst || Value > *Worst))
        Worst = Value;
    return Worst;
  }
  // Otherwise only bounds that some element really takes are evidence.
  if (!Index.hasRange() || !Index.ExactBounds)
    return std::nullopt;
  if (Invalid(*Index.High))
    return *Index.High;
  if (Invalid(*Index.Low))
    return *Index.Low;
  return std::nullopt;
}

void IndexRangeCheck::checkLabels(Site S, int64_t Ignored,
                                  const TensorFacts &Facts,
                                  const TensorFactMap &State,
                                  ASTContext &Context) {
  const Expr *Input = S.Operands[0];
  instrumentSite(S, Context, /*Flagged=*/false);
  std::optional<int64_t> Classes = classCount(Facts.evaluate(Input, State));
  TensorFact Labels = Facts.evaluate(S.Index, State);
  // Floating targets are class probabilities, not indexes.
  if (!Classes || Labels.Kind == ElementKind::Floating)
    return;
  S.Bound = *Classes;
  S.Ignored = Ignored;
  S.Target = "'" + quoteSource(ignoreTensorWrappers(Input), Context) +
             "' with " + std::to_string(S.Bound) + " classes (ignore_index " +
             std::to_string(Ignored) + ")";
  report(S, Labels, Context);
}

void IndexRangeCheck::checkCall(const Expr *E, const TensorFacts &Facts,
                                const TensorFactMap &State,
                                ASTContext &Context) {
  auto Quote = [&](const Expr *X) {
    X = ignoreTensorWrappers(X);
    // `emb->forward(x)` names the module through operator->.
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(X);
        Arrow && Arrow->getOperator() == OO_Arrow)
      X = ignoreTensorWrappers(Arrow->getArg(0));
    return "'" + quoteSource(X, Context) + "'";
  };

  // Module calls: emb(ids), emb->forward(ids), loss(logits, labels).
  if (std::optional<ForwardCall> Call = getModuleCall(E)) {
    const Expr *Module = Call->Object;
    const auto &Inputs = Call->Args;
    StringRef Builtin = builtinModuleName(moduleClass(Module->getType()));
    if (Builtin == "Embedding" && Inputs.size() == 1) {
      Site S;
      S.Index = Inputs[0];
      S.RuntimeKind = instrument::SiteKind::TorchEmbeddingRange;
      S.Operands = {Module, Inputs[0]};
      S.Op = "embedding";
      instrumentSite(S, Context, /*Flagged=*/false);
      auto Sizes = TensorFacts::moduleSizes(Module, "Embedding", Context);
      if (!Sizes || Sizes->empty())
        return;
      S.Bound = (*Sizes)[0];
      S.Target = "embedding " + Quote(Module) + " of " +
                 std::to_string(S.Bound) + " entries";
      report(S, Facts.evaluate(Inputs[0], State), Context);
    } else if ((Builtin == "CrossEntropyLoss" || Builtin == "NLLLoss") &&
               Inputs.size() == 2) {
      bool Set = false;
      std::optional<int64_t> Ignored =
          TensorFacts::moduleOption(Module, "ignore_index", Context, &Set);
      Site S;
      S.Index = Inputs[1];
      S.RuntimeKind = instrument::SiteKind::TorchClassTargetRange;
      S.Operands = {Inputs[0], Inputs[1], Module};
      S.Op = Builtin == "NLLLoss" ? "nll_loss" : "cross_entropy";
      if (Ignored || !Set)
        checkLabels(S, Ignored.value_or(DefaultIgnoreIndex), Facts, State,
                    Context);
      else
        instrumentSite(S, Context, /*Flagged=*/false);
    }
    return;
  }

  std::optional<TensorCall> Call = getTensorCall(E);
  if (!Call || !Call->Self || Call->Form == TensorCallForm::Operator)
    return;
  StringRef Name = Call->Name;
  const auto &Args = Call->Args;
  bool Functional = isInNamespace(Call->Callee, "torch::nn::functional");

  if (Name == "embedding" && !Args.empty()) {
    const Expr *Weight = Functional ? Args[0] : Call->Self;
    const Expr *Index = Functional ? Call->Self : Args[0];
    Site S;
    S.Index = Index;
    S.RuntimeKind = instrument::SiteKind::TorchEmbeddingRange;
    S.Operands = {Weight, Index};
    S.Op = "embedding";
    instrumentSite(S, Context, /*Flagged=*/false);
    TensorFact WeightFact = Facts.evaluate(Weight, State);
    if (!WeightFact.Shape || WeightFact.Shape->size() != 2 ||
        WeightFact.Shape->front() == UnknownSize)
      return;
    S.Bound = WeightFact.Shape->front();
    S.Target = "embedding weight " + Quote(Weight) + " of " +
               std::to_string(S.Bound) + " entries";
    report(S, Facts.evaluate(Index, State), Context);
    return;
  }

  if ((Name == "nll_loss" || Name == "cross_entropy" ||
       Name == "cross_entropy_loss") &&
      !Args.empty()) {
    // F::cross_entropy(x, y, options) or at::nll_loss(x, y, weight,
    // reduction, ignore_index).
    std::optional<int64_t> Ignored;
    bool Set = false;
    if (Functional && Args.size() > 1)
      Ignored =
          TensorFacts::optionValue(Args[1], "ignore_index", Context, &Set);
    else if (!Functional && Args.size() > 3) {
      Set = true;
      Ignored = integerConstant(Args[3], Context);
    }
    Site S;
    S.Index = Args[0];
    S.RuntimeKind = instrument::SiteKind::TorchClassTargetRange;
    S.Operands = {Call->Self, Args[0]};
    if (Functional && Args.size() > 1)
      S.Operands.push_back(Args[1]);
    else if (!Functional && Args.size() > 3)
      S.Operands.push_back(Args[3]);
    S.Op = Name == "nll_loss" ? "nll_loss" : "cross_entropy";
    // An ignore_index that is set but not known could be any label.
    if (Ignored || !Set)
      checkLabels(S, Ignored.value_or(DefaultIgnoreIndex), Facts, State,
                  Context);
    else
      instrumentSite(S, Context, /*Flagged=*/false);
    return;
  }

  if ((Name == "index_select" || Name == "gather") && Args.size() >= 2) {
    Site S;
    S.Index = Args[1];
    S.RuntimeKind = Name == "gather"
                        ? instrument::SiteKind::TorchGatherRange
                        : instrument::SiteKind::TorchIndexSelectRange;
    S.Operands = {Call->Self, Args[0], Args[1]};
    S.Op = Name.str();
    instrumentSite(S, Context, /*Flagged=*/false);
    TensorFact Self = Facts.evaluate(Call->Self, State);
    std::optional<int64_t> Dim = integerConstant(Args[0], Context);
    if (!Self.Shape || !Dim)
      return;
    int64_t Rank = static_cast<int64_t>(Self.Shape->size());
    int64_t D = *Dim < 0 ? *Dim + Rank : *Dim;
    if (D < 0 || D >= Rank || (*Self.Shape)[D] == UnknownSize)
      return;
    S.Bound = (*Self.Shape)[D];
    S.Target = "dimension " + std::to_string(*Dim) + " of " +
               Quote(Call->Self) + " with size " + std::to_string(S.Bound);
    report(S, Facts.evaluate(Args[1], State), Context);
    return;
  }

  if (Name == "one_hot") {
    Site S;
    S.Index = Call->Self;
    S.RuntimeKind = instrument::SiteKind::TorchOneHotRange;
    S.Operands = {Call->Self};
    if (!Args.empty())
      S.Operands.push_back(Args[0]);
    S.Op = "one_hot";
    instrumentSite(S, Context, /*Flagged=*/false);
    std::optional<int64_t> Classes = Args.empty()
                                         ? std::optional<int64_t>(-1)
                                         : integerConstant(Args[0], Context);
    if (!Classes)
      return;
    S.NegativeOnly = *Classes < 0;
    S.Bound = std::max<int64_t>(*Classes, 0);
    S.Target = S.NegativeOnly
                   ? std::string("one_hot")
                   : "one_hot with num_classes " + std::to_string(S.Bound);
    report(S, Facts.evaluate(Call->Self, State), Context);
  }
}

/// True when \p Inner is written inside \p Outer, so that a note on it would
/// point into the expression the warning already shows.
static bool isWithin(const Expr *Inner, const Expr *Outer,
                     const SourceManager &SM) {
  SourceRange Range = Outer->getSourceRange();
  SourceLocation Loc = Inner->getBeginLoc();
  return Range.isValid() && Loc.isValid() &&
         !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
}

void IndexRangeCheck::report(const Site &S, const TensorFact &Index,
                             ASTContext &Context) {
  std::string Name =
      "'" + quoteSource(ignoreTensorWrappers(S.Index), Context) + "'";
  SourceLocation Loc = S.Index->getBeginLoc();
  if (std::optional<int64_t> Value =
          outOfRangeValue(Index, S.Bound, S.Ignored, S.NegativeOnly)) {
    diag(Loc, "values of %0 go %select{up|down}1 to %2, out of range for %3")
        << Name << (*Value < 0 ? 1 : 0) << std::to_string(*Value) << S.Target;
    instrumentSite(S, Context, /*Flagged=*/true);
    const SourceManager &SM = Context.getSourceManager();
    if (Index.ValueOrigin && Index.ValueOrigin->getBeginLoc().isValid() &&
        !SM.isInSystemHeader(Index.ValueOrigin->getBeginLoc()) &&
        !isWithin(Index.ValueOrigin, S.Index, SM))
      diag(Index.ValueOrigin->getBeginLoc(), "values of %0 set here",
           DiagnosticIDs::Note)
          << Name;
    return;
  }
  if (Index.UncheckedCast) {
    diag(Loc, "%0 is cast from floating point with no check for NaN or "
              "infinity and no clamp, so it can be out of range for %1")
        << Name << S.Target;
    instrumentSite(S, Context, /*Flagged=*/true);
    instrumentCast(Index.UncheckedCast, Loc, Context);
    if (!isWithin(Index.UncheckedCast, S.Index, Context.getSourceManager()))
      diag(Index.UncheckedCast->getBeginLoc(),
           "cast here; check with torch::isfinite or clamp the integers to "
           "the valid range",
           DiagnosticIDs::Note);
  }
}

} // namespace gpuguard::torch

namespace gpuguard::torch {

void IndexRangeCheck::instrumentSite(const Site &S, ASTContext &Context,
                                     bool Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || S.Operands.empty() || (!Flagged && !R->instrumentsUnflagged()))
    return;
  int Id = R->addSite(Context, S.Index->getBeginLoc(), S.RuntimeKind, getID(),
                      S.Op, CurrentFunction,
                      Flagged ? S.Index->getBeginLoc() : SourceLocation());
  for (unsigned I = 0; I < S.Operands.size(); ++I)
    R->wrapTorchOperand(Context, Id, S.Operands[I], I, S.Operands.size());
}

void IndexRangeCheck::instrumentCast(const Expr *Cast, SourceLocation Flagged,
                                     ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  std::optional<TensorCall> Call = Cast ? getTensorCall(Cast) : std::nullopt;
  if (!R || !Call || !Call->Self)
    return;
  // The site belongs to the index finding, so it survives with it.
  int Id = R->addSite(Context, Call->Self->getBeginLoc(),
                      instrument::SiteKind::TorchFiniteBeforeCast, getID(),
                      quoteSource(ignoreTensorWrappers(Call->Self), Context),
                      CurrentFunction, Flagged);
  R->wrapTorchOperand(Context, Id, Call->Self, 0, 1);
}

} // namespace gpuguard::torch
