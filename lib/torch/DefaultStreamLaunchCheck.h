//===--- DefaultStreamLaunchCheck.h -----------------------------*- C++ -*-===//
///
/// \file
/// Flags kernel launches on a tensor's memory that run on the default stream
/// instead of PyTorch's current stream (`at::cuda::getCurrentCUDAStream()`):
/// the kernel is not ordered with the work PyTorch queued on that tensor, and
/// reads it before it is written or races with it.
///
/// PyTorch queues every operator on the current stream, which a user's
/// `torch.cuda.stream(...)` or a data-loading side stream makes other than
/// the default. The reasoning lives in Analysis/Torch/ExtensionLaunches.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_DEFAULTSTREAMLAUNCHCHECK_H
#define GPUGUARD_TORCH_DEFAULTSTREAMLAUNCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class DefaultStreamLaunchCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_DEFAULTSTREAMLAUNCHCHECK_H
