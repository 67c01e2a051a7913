//===--- MissingDeviceGuardCheck.cpp - torch-missing-device-guard ---------===//

#include "torch/MissingDeviceGuardCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/ExtensionLaunches.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

MissingDeviceGuardCheck::MissingDeviceGuardCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {}

MissingDeviceGuardCheck::~MissingDeviceGuardCheck() = default;

void MissingDeviceGuardCheck::onStartOfTranslationUnit() { Calls.reset(); }

void MissingDeviceGuardCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cudaKernelCallExpr(unless(isInTemplateInstantiation()),
                         unless(isExpansionInSystemHeader()),
                         hasAncestor(functionDecl().bind("function")))
          .bind("launch"),
      this);
}

void MissingDeviceGuardCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  auto Accessors = tensorMemoryArguments(*Launch);
  if (Accessors.empty() || hasDeviceGuardBefore(*Function, *Launch, Context))
    return;
  // A launch in a lambda (`AT_DISPATCH_*`'s) runs in the function that
  // writes the lambda, under the guards made there before it.
  const Stmt *Holder = nullptr;
  const FunctionDecl *Defining = definingFunction(*Launch, Context, Holder);
  if (!Defining)
    return;
  if (Defining != Function && hasDeviceGuardBefore(*Defining, *Holder, Context))
    return;
  // A helper whose every caller here made a device current first.
  if (!Calls)
    Calls = std::make_unique<CallSites>(Context);
  llvm::ArrayRef<CallSite> Callers = Calls->callersOf(*Defining);
  if (!Callers.empty() && llvm::all_of(Callers, [&](const CallSite &Site) {
        return hasDeviceGuardBefore(*Site.Caller, *Site.Call, Context);
      }))
    return;

  const Expr *Tensor = Accessors.front()->getImplicitObjectArgument();
  std::string TensorText = quoteSource(Tensor, Context);
  diag(Launch->getBeginLoc(),
       "kernel '%0' is launched on the memory of '%1' with no device guard: "
       "on a host with several GPUs it runs on the current device, not on "
       "'%1''s")
      << launchedKernelName(*Launch, Context) << TensorText;
  diag(Defining->getBody()->getBeginLoc(),
       "make the tensor's device current first, e.g. 'const "
       "at::cuda::OptionalCUDAGuard device_guard(device_of(%0));'",
       DiagnosticIDs::Note)
      << TensorText;
}

} // namespace gpuguard::torch
