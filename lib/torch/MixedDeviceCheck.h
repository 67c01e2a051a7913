//===--- MixedDeviceCheck.h - torch-mixed-device ----------------*- C++ -*-===//
///
/// \file
/// Flags a LibTorch operation that combines tensors on provably different
/// devices: a CUDA tensor and a CPU tensor in one `add`, `cat` or loss, or a
/// module whose parameters are on the CPU called with a CUDA input.
///
/// PyTorch rejects each of them at run time ("Expected all tensors to be on the
/// same device"), often only after a long setup, and on a machine with a GPU
/// only. The devices come from Analysis/DeviceInference; a 0-dim CPU tensor
/// beside a CUDA one is legal and never flagged, and neither are explicit
/// copies.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_MIXEDDEVICECHECK_H
#define GPUGUARD_TORCH_MIXEDDEVICECHECK_H

#include "Analysis/Torch/DeviceInference.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class MixedDeviceCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reports the ops of the function \p Call calls that put an argument
  /// beside a tensor on another device than the one \p Call passes.
  void reportMeetings(const clang::CallExpr &Call,
                      const DeviceInference &Inference,
                      const DeviceFacts &Facts, clang::ASTContext &Context);
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_MIXEDDEVICECHECK_H
