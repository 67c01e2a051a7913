//===--- CudaModule.cpp - the cuda check module ---------------------------===//
///
/// \file
/// Registers the checks for CUDA kernels and the CUDA runtime API under the
/// `cuda-` prefix.
///
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "cuda/DivByZeroCheck.h"
#include "cuda/UncheckedApiCallCheck.h"
#include "cuda/UncheckedIndexCheck.h"

namespace gpuguard::cuda {

class CudaModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<UncheckedIndexCheck>("cuda-unchecked-index");
    Factories.registerCheck<DivByZeroCheck>("cuda-div-by-zero");
    Factories.registerCheck<UncheckedApiCallCheck>("cuda-unchecked-api-call");
    // add_new_check.py registers new checks above this line.
  }
};

} // namespace gpuguard::cuda

static clang::tidy::ClangTidyModuleRegistry::Add<gpuguard::cuda::CudaModule>
    CudaModuleRegistration("cuda-module",
                           "Checks for CUDA kernels and the CUDA runtime API.");
