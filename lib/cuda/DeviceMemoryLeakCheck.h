//===--- DeviceMemoryLeakCheck.h - cuda-device-memory-leak ------*- C++ -*-===//
///
/// \file
/// Flags device and pinned host memory allocated into a local pointer
/// (`cudaMalloc(&p, n)`, `cudaMallocHost`, `cuMemAlloc`, ...) that a path
/// carries to a return without freeing it, often an early error return, and
/// pointers that receive a new allocation, as in a loop, while they still hold
/// one.
///
/// A server process that leaks device memory on each failed request or each
/// iteration ends in `cudaErrorMemoryAllocation` far from the leak. The
/// reasoning lives in Analysis/Cuda/DeviceMemoryLifetime; this check words
/// its leaks.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_DEVICEMEMORYLEAKCHECK_H
#define GPUGUARD_CUDA_DEVICEMEMORYLEAKCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::cuda {

class DeviceMemoryLeakCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_DEVICEMEMORYLEAKCHECK_H
