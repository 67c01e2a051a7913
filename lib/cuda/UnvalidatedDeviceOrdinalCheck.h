//===--- UnvalidatedDeviceOrdinalCheck.h ------------------------*- C++ -*-===//
///
/// \file
/// Flags device ordinals read from the environment, the command line or MPI
/// (`cudaSetDevice(atoi(getenv("LOCAL_RANK")))`) that are never compared
/// with the device count, and global ranks (`RANK`, MPI's world rank) used
/// as a device, which name a GPU that does not exist on every node after the
/// first.
///
/// The reasoning lives in Analysis/Cuda/DeviceOrdinals; this check knows
/// the calls and constructors that take an ordinal and words the finding.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_UNVALIDATEDDEVICEORDINALCHECK_H
#define GPUGUARD_CUDA_UNVALIDATEDDEVICEORDINALCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::cuda {

class UnvalidatedDeviceOrdinalCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_UNVALIDATEDDEVICEORDINALCHECK_H
