//===--- MissingDeviceGuardCheck.h - torch-missing-device-guard -*- C++ -*-===//
///
/// \file
/// Flags kernel launches on a tensor's memory (`t.data_ptr<T>()`,
/// `t.packed_accessor32<...>()`) in a function that never makes the tensor's
/// device current (`at::cuda::OptionalCUDAGuard`, `cudaSetDevice`): on a host
/// with several GPUs the kernel runs on whichever device is current and faults
/// with an illegal memory access.
///
/// PyTorch makes a tensor's device current for its own operators, not for an
/// extension's launches; the extension tutorial has no guard (pytorch issue
/// 54077). The reasoning lives in Analysis/Torch/ExtensionLaunches; this
/// check asks the launching function and its callers in the translation
/// unit for a guard.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_MISSINGDEVICEGUARDCHECK_H
#define GPUGUARD_TORCH_MISSINGDEVICEGUARDCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>

namespace gpuguard {
class CallSites;
} // namespace gpuguard

namespace gpuguard::torch {

class MissingDeviceGuardCheck : public clang::tidy::ClangTidyCheck {
public:
  MissingDeviceGuardCheck(llvm::StringRef Name,
                          clang::tidy::ClangTidyContext *Context);
  ~MissingDeviceGuardCheck() override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  std::unique_ptr<CallSites> Calls;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_MISSINGDEVICEGUARDCHECK_H
