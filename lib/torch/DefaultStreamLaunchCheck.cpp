//===--- DefaultStreamLaunchCheck.cpp - torch-default-stream-launch -------===//

#include "torch/DefaultStreamLaunchCheck.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/ExtensionLaunches.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void DefaultStreamLaunchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cudaKernelCallExpr(unless(isInTemplateInstantiation()),
                                        unless(isExpansionInSystemHeader()))
                         .bind("launch"),
                     this);
}

void DefaultStreamLaunchCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  auto Accessors = tensorMemoryArguments(*Launch);
  if (Accessors.empty() || !launchesOnDefaultStream(*Launch))
    return;
  std::string Tensor = quoteSource(
      Accessors.front()->getImplicitObjectArgument(), *Result.Context);
  diag(Launch->getBeginLoc(),
       "kernel '%0' on the memory of '%1' runs on the default stream, not on "
       "PyTorch's current stream: it is not ordered with the work PyTorch "
       "queued on '%1'")
      << launchedKernelName(*Launch, *Result.Context) << Tensor;
  diag(Launch->getConfig()->getBeginLoc(),
       "pass 'at::cuda::getCurrentCUDAStream()' as the launch's stream, the "
       "fourth value between '<<<' and '>>>'",
       DiagnosticIDs::Note);
}

} // namespace gpuguard::torch
