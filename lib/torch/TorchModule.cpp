//===--- TorchModule.cpp - the torch check module -------------------------===//
///
/// \file
/// Registers the checks for C++ code that uses LibTorch under the `torch-`
/// prefix.
///
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "torch/DefaultStreamLaunchCheck.h"
#include "torch/DivByZeroCheck.h"
#include "torch/IndexRangeCheck.h"
#include "torch/InplaceAutogradCheck.h"
#include "torch/LossShapeCheck.h"
#include "torch/MissingDeviceGuardCheck.h"
#include "torch/MixedDeviceCheck.h"
#include "torch/UncheckedKernelInputCheck.h"

namespace gpuguard::torch {

class TorchModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<DefaultStreamLaunchCheck>(
        "torch-default-stream-launch");
    Factories.registerCheck<DivByZeroCheck>("torch-div-by-zero");
    Factories.registerCheck<IndexRangeCheck>("torch-index-range");
    Factories.registerCheck<InplaceAutogradCheck>("torch-inplace-autograd");
    Factories.registerCheck<LossShapeCheck>("torch-loss-shape");
    Factories.registerCheck<MissingDeviceGuardCheck>(
        "torch-missing-device-guard");
    Factories.registerCheck<MixedDeviceCheck>("torch-mixed-device");
    Factories.registerCheck<UncheckedKernelInputCheck>(
        "torch-unchecked-kernel-input");
  }
};

} // namespace gpuguard::torch

static clang::tidy::ClangTidyModuleRegistry::Add<gpuguard::torch::TorchModule>
    TorchModuleRegistration("torch-module",
                            "Checks for C++ code that uses LibTorch.");
