//===--- InplaceAutogradCheck.cpp - torch-inplace-autograd ----------------===//

#include "torch/InplaceAutogradCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Torch/TorchApi.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void InplaceAutogradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

/// How a finding names the written tensor: 'w', or "a temporary".
static std::string tensorName(const InplaceAutogradFinding &Finding) {
  if (!Finding.Tensor || !Finding.Tensor->getIdentifier())
    return "a temporary tensor";
  std::string Name = "'" + Finding.Tensor->getName().str() + "'";
  return Finding.ThroughView ? "a view of " + Name : Name;
}

void InplaceAutogradCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !Function->hasBody())
    return;
  if (!Parameters)
    Parameters = collectParameterFields(*Result.Context);
  if (!InplaceModules)
    InplaceModules = collectInplaceModuleFields(*Result.Context);
  instrument::Recorder *R = instrument::Recorder::active();
  bool WithCandidates = R && R->instrumentsUnflagged();
  for (const InplaceAutogradFinding &Finding :
       findInplaceAutogradErrors(*Function, *Result.Context, *Parameters,
                                 WithCandidates, *InplaceModules)) {
    if (Finding.Kind == InplaceAutogradFinding::MaybeSavedForBackward) {
      instrumentCandidate(Finding, Function, *Result.Context);
      continue;
    }
    std::string Written = tensorName(Finding);
    // A call of a function of the file that writes its argument: the
    // finding is at the call, the note at the write inside.
    auto NoteHelperWrite = [&] {
      const auto *Call = dyn_cast<CallExpr>(Finding.Op);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (Finding.HelperOp && Callee)
        diag(Finding.HelperOp->getBeginLoc(),
             "'%0' writes its argument in place here", DiagnosticIDs::Note)
            << Callee->getNameAsString() << Finding.HelperOp->getSourceRange();
    };
    if (Finding.Kind == InplaceAutogradFinding::LeafRequiresGrad) {
      diag(Finding.Op->getBeginLoc(),
           "in-place '%0' on %1, a leaf tensor that requires grad; autograd "
           "rejects it outside a no-grad scope")
          << Finding.OpName << Written << Finding.Op->getSourceRange();
      if (Finding.Origin.isValid())
        diag(Finding.Origin, "%0 is made to require grad here",
             DiagnosticIDs::Note)
            << (Finding.Tensor ? "'" + Finding.Tensor->getName().str() + "'"
                               : std::string("the tensor"));
      NoteHelperWrite();
      instrumentFinding(Finding, Function, *Result.Context);
      continue;
    }
    diag(Finding.Op->getBeginLoc(),
         "in-place '%0' modifies %1, which '%2' saved for backward; %select{"
         "the backward() that follows|a backward() through the result of "
         "this module's forward()}3 will fail")
        << Finding.OpName << Written << Finding.OriginOp
        << Finding.BackwardByCaller << Finding.Op->getSourceRange();
    diag(Finding.Origin, "'%0' was saved for backward by '%1' here",
         DiagnosticIDs::Note)
        << Finding.Tensor->getName() << Finding.OriginOp;
    NoteHelperWrite();
    instrumentFinding(Finding, Function, *Result.Context);
  }
}

void InplaceAutogradCheck::instrumentFinding(
    const InplaceAutogradFinding &Finding, const FunctionDecl *Function,
    ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || !Finding.Written)
    return;
  int Write = R->addSite(Context, Finding.Op->getBeginLoc(),
                         instrument::SiteKind::TorchInplaceWrite, getID(),
                         Finding.OpName, Function, Finding.Op->getBeginLoc());
  R->wrapTorchOperand(Context, Write, Finding.Written, 0, 1);
  if (Finding.Kind != InplaceAutogradFinding::SavedForBackward ||
      !Finding.Saved)
    return;
  // The saving op records the version the in-place write must not change.
  int Save = R->addSite(Context, Finding.Saved->getBeginLoc(),
                        instrument::SiteKind::TorchSavedForBackward, getID(),
                        Finding.OriginOp, Function);
  if (R->wrapTorchOperand(Context, Save, Finding.Saved, 0, 1))
    R->setRelated(Write, Save);
}

void InplaceAutogradCheck::instrumentCandidate(
    const InplaceAutogradFinding &Finding, const FunctionDecl *Function,
    ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  // An in-place saving op saves after its own write; its version is not the
  // one the result shows afterwards.
  if (!R || !Finding.Written || !Finding.Saved || !Finding.SavingCall ||
      StringRef(Finding.OriginOp).ends_with("_"))
    return;
  // The write only records where the saved tensor changed; the report waits
  // until a backward() reaches the node that saved it.
  int Write = R->addSite(Context, Finding.Op->getBeginLoc(),
                         instrument::SiteKind::TorchInplaceWriteDeferred,
                         getID(), Finding.OpName, Function);
  if (!R->wrapTorchOperand(Context, Write, Finding.Written, 0, 1))
    return;
  // The saving op hands over the saved tensor and its result, whose grad_fn
  // is the node that saved it; a saved result is both.
  int Save = R->addSite(Context, Finding.SavingCall->getBeginLoc(),
                        instrument::SiteKind::TorchSavedForBackwardNode,
                        getID(), Finding.OriginOp, Function);
  bool Wrapped =
      Finding.Saved == Finding.SavingCall
          ? R->wrapTorchOperand(Context, Save, Finding.SavingCall, 0, 1)
          : R->wrapTorchOperand(Context, Save, Finding.Saved, 0, 2) &&
                R->wrapTorchOperand(Context, Save, Finding.SavingCall, 1, 2);
  if (Wrapped)
    R->setRelated(Write, Save);
}

} // namespace gpuguard::torch
