//===--- LossShapeCheck.cpp - torch-loss-shape ----------------------------===//

#include "torch/LossShapeCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/TorchApi.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

namespace {
/// What a loss asks of its target's shape.
enum class TargetRule {
  None,
  Same,      ///< binary cross-entropy: the input's shape
  Broadcast, ///< regression losses: any, broadcast silently
  Classes,   ///< nll / cross-entropy: the input's without dimension 1
};
} // namespace

/// The rule of a loss, by ATen function name or module name.
static TargetRule ruleOf(StringRef Loss) {
  return llvm::StringSwitch<TargetRule>(Loss)
      .Cases({"binary_cross_entropy", "binary_cross_entropy_with_logits",
              "BCELoss", "BCEWithLogitsLoss"},
             TargetRule::Same)
      .Cases({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "MSELoss",
              "L1Loss", "SmoothL1Loss", "HuberLoss"},
             TargetRule::Broadcast)
      .Cases({"cross_entropy", "cross_entropy_loss", "nll_loss",
              "CrossEntropyLoss", "NLLLoss"},
             TargetRule::Classes)
      .Default(TargetRule::None);
}

/// The runtime's name of a loss: its ATen function's.
static StringRef runtimeLossName(StringRef Loss) {
  return llvm::StringSwitch<StringRef>(Loss)
      .Case("BCELoss", "binary_cross_entropy")
      .Case("BCEWithLogitsLoss", "binary_cross_entropy_with_logits")
      .Case("MSELoss", "mse_loss")
      .Case("L1Loss", "l1_loss")
      .Case("SmoothL1Loss", "smooth_l1_loss")
      .Case("HuberLoss", "huber_loss")
      .Cases({"CrossEntropyLoss", "cross_entropy_loss"}, "cross_entropy")
      .Case("NLLLoss", "nll_loss")
      .Default(Loss);
}

void LossShapeCheck::instrumentLoss(StringRef Loss, const Expr *Input,
                                    const Expr *Target, ASTContext &Context,
                                    bool Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || (!Flagged && !R->instrumentsUnflagged()))
    return;
  int Id = R->addSite(Context, Target->getBeginLoc(),
                      instrument::SiteKind::TorchLossShape, getID(),
                      runtimeLossName(Loss), CurrentFunction,
                      Flagged ? Target->getBeginLoc() : SourceLocation());
  R->wrapTorchOperand(Context, Id, Input, 0, 2);
  R->wrapTorchOperand(Context, Id, Target, 1, 2);
}

void LossShapeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

void LossShapeCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !Function->getBody() || Function->isDependentContext())
    return;
  ASTContext &Context = *Result.Context;
  CurrentFunction = Function;
  TensorFacts Facts(*Function, Context);
  Facts.forEachReachable([&](const Stmt *S, const TensorFactMap &State) {
    const auto *E = dyn_cast<CallExpr>(S);
    if (!E)
      return;
    // Modules: criterion(input, target) and criterion->forward(...).
    if (std::optional<ForwardCall> Module = getModuleCall(E)) {
      StringRef Builtin =
          builtinModuleName(moduleClass(Module->Object->getType()));
      if (ruleOf(Builtin) != TargetRule::None && Module->Args.size() == 2)
        checkLoss(Builtin, Module->Args[0], Module->Args[1], Facts, State,
                  Context);
      return;
    }
    std::optional<TensorCall> Call = getTensorCall(E);
    if (Call && Call->Form == TensorCallForm::Function && Call->Self &&
        !Call->Args.empty() && ruleOf(Call->Name) != TargetRule::None)
      checkLoss(Call->Name, Call->Self, Call->Args[0], Facts, State, Context);
  });
}

/// True when two shapes differ in rank or in a size known on both sides.
static bool definitelyDiffer(ArrayRef<int64_t> A, ArrayRef<int64_t> B) {
  if (A.size() != B.size())
    return true;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I] != UnknownSize && B[I] != UnknownSize && A[I] != B[I])
      return true;
  return false;
}

void LossShapeCheck::checkLoss(StringRef Loss, const Expr *Input,
                               const Expr *Target, const TensorFacts &Facts,
                               const TensorFactMap &State,
                               ASTContext &Context) {
  TensorFact InputFact = Facts.evaluate(Input, State);
  TensorFact TargetFact = Facts.evaluate(Target, State);
  // Unless both shapes are known to agree, --instrument=all checks them.
  if (!InputFact.Shape || !TargetFact.Shape ||
      ArrayRef<int64_t>(*InputFact.Shape) !=
          ArrayRef<int64_t>(*TargetFact.Shape) ||
      llvm::is_contained(*InputFact.Shape, UnknownSize))
    instrumentLoss(Loss, Input, Target, Context, /*Flagged=*/false);
  if (!InputFact.Shape || !TargetFact.Shape)
    return;
  const auto &In = *InputFact.Shape;
  const auto &Tg = *TargetFact.Shape;
  if (!definitelyDiffer(In, Tg) && ruleOf(Loss) != TargetRule::Classes)
    return;

  SourceLocation Loc = Target->getBeginLoc();
  std::string Shapes[] = {formatShape(Tg), formatShape(In)};
  switch (ruleOf(Loss)) {
  case TargetRule::None:
    return;
  case TargetRule::Same:
    diag(Loc, "target shape %0 differs from input shape %1; '%2' requires "
              "them to be the same")
        << Shapes[0] << Shapes[1] << Loss;
    break;
  case TargetRule::Broadcast:
    if (auto Broadcast = broadcastShapes(In, Tg))
      diag(Loc, "target shape %0 differs from input shape %1; '%2' "
                "broadcasts them to %3 and compares the wrong elements")
          << Shapes[0] << Shapes[1] << Loss << formatShape(*Broadcast);
    else
      diag(Loc, "target shape %0 differs from input shape %1 and does not "
                "broadcast with it in '%2'")
          << Shapes[0] << Shapes[1] << Loss;
    break;
  case TargetRule::Classes: {
    if (In.empty())
      return;
    // Class indices: the input's shape without the class dimension.
    llvm::SmallVector<int64_t, 4> Expected(In.begin(), In.end());
    Expected.erase(Expected.begin() + (In.size() == 1 ? 0 : 1));
    if (!definitelyDiffer(Expected, Tg))
      return;
    // Class probabilities: a floating target of the input's shape, which
    // cross_entropy (not nll_loss) accepts.
    bool Probabilities = !definitelyDiffer(In, Tg) &&
                         TargetFact.Kind != ElementKind::Integer &&
                         !Loss.contains_insensitive("nll");
    if (Probabilities)
      return;
    diag(Loc, "target shape %0 does not fit input shape %1 in '%2'; class "
              "indices need shape %3")
        << Shapes[0] << Shapes[1] << Loss << formatShape(Expected);
    break;
  }
  }
  instrumentLoss(Loss, Input, Target, Context, /*Flagged=*/true);
  const SourceManager &SM = Context.getSourceManager();
  auto Note = [&](const Expr *Origin, const Expr *Arg, const std::string &S) {
    if (!Origin || SM.isInSystemHeader(Origin->getBeginLoc()))
      return;
    SourceRange Range = Arg->getSourceRange();
    SourceLocation At = Origin->getBeginLoc();
    if (!SM.isBeforeInTranslationUnit(At, Range.getBegin()) &&
        !SM.isBeforeInTranslationUnit(Range.getEnd(), At))
      return;
    diag(At, "shape %1 of '%0' set here", DiagnosticIDs::Note)
        << quoteSource(ignoreTensorWrappers(Arg), Context) << S;
  };
  Note(InputFact.ShapeOrigin, Input, Shapes[1]);
  Note(TargetFact.ShapeOrigin, Target, Shapes[0]);
}

} // namespace gpuguard::torch
