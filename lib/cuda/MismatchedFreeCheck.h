//===--- MismatchedFreeCheck.h - cuda-mismatched-free -----------*- C++ -*-===//
///
/// \file
/// Flags memory released by a function of another family: `free` or
/// `delete` of device memory, `cudaFree` of pinned host memory or of
/// `malloc`'s, `cudaFreeHost` of device memory. The release fails (and the
/// memory leaks) or the host allocator aborts.
///
/// The reasoning lives in Analysis/Cuda/DeviceMemoryLifetime, which follows
/// each allocation to its release; this check words the mismatch and, when
/// the right release takes the same single argument, offers it as a fix.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_MISMATCHEDFREECHECK_H
#define GPUGUARD_CUDA_MISMATCHEDFREECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::cuda {

class MismatchedFreeCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_MISMATCHEDFREECHECK_H
