//===--- CudaModule.cpp - the cuda check module ---------------------------===//
///
/// \file
/// Registers the checks for CUDA kernels and the CUDA runtime API under the
/// `cuda-` prefix.
///
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "cuda/DeviceMemoryLeakCheck.h"
#include "cuda/DivByZeroCheck.h"
#include "cuda/MismatchedFreeCheck.h"
#include "cuda/UncheckedApiCallCheck.h"
#include "cuda/UncheckedIndexCheck.h"
#include "cuda/UnvalidatedDeviceOrdinalCheck.h"

namespace gpuguard::cuda {

class CudaModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<DeviceMemoryLeakCheck>("cuda-device-memory-leak");
    Factories.registerCheck<DivByZeroCheck>("cuda-div-by-zero");
    Factories.registerCheck<MismatchedFreeCheck>("cuda-mismatched-free");
    Factories.registerCheck<UncheckedApiCallCheck>("cuda-unchecked-api-call");
    Factories.registerCheck<UncheckedIndexCheck>("cuda-unchecked-index");
    Factories.registerCheck<UnvalidatedDeviceOrdinalCheck>(
        "cuda-unvalidated-device-ordinal");
  }
};

} // namespace gpuguard::cuda

static clang::tidy::ClangTidyModuleRegistry::Add<gpuguard::cuda::CudaModule>
    CudaModuleRegistration("cuda-module",
                           "Checks for CUDA kernels and the CUDA runtime API.");
