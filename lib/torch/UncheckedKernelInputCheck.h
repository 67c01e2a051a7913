//===--- UncheckedKernelInputCheck.h ----------------------------*- C++ -*-===//
///
/// \file
/// Flags a tensor that reaches a CUDA kernel as a raw pointer or accessor
/// (`t.data_ptr<float>()`, `t.packed_accessor32<...>()`) straight from Python,
/// with no check on the way that it is a CUDA tensor and, for a raw pointer,
/// that it is contiguous: a CPU tensor's pointer faults on the device (an
/// illegal memory access that kills the CUDA context), and a transposed or
/// sliced tensor is read in the wrong order without any error.
///
/// `data_ptr<T>()` checks the dtype itself; the device and the layout are the
/// extension's to check (PyTorch's extension tutorial does it with
/// `CHECK_CUDA` and `CHECK_CONTIGUOUS`). The reasoning, and the evidence
/// needed before a report, live in Analysis/Torch/KernelInputContracts.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_UNCHECKEDKERNELINPUTCHECK_H
#define GPUGUARD_TORCH_UNCHECKEDKERNELINPUTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>

namespace gpuguard {
class CallSites;
} // namespace gpuguard

namespace gpuguard::torch {

class ExtensionBindings;

class UncheckedKernelInputCheck : public clang::tidy::ClangTidyCheck {
public:
  UncheckedKernelInputCheck(llvm::StringRef Name,
                            clang::tidy::ClangTidyContext *Context);
  ~UncheckedKernelInputCheck() override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  std::unique_ptr<CallSites> Calls;
  std::unique_ptr<ExtensionBindings> Bindings;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_UNCHECKEDKERNELINPUTCHECK_H
