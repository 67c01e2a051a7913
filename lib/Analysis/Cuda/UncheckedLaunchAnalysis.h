//===--- UncheckedLaunchAnalysis.h - Launches left unchecked ----*- C++ -*-===//
///
/// \file
/// A forward may-analysis over a host function's CFG that finds the kernel
/// launches (`k<<<grid, block>>>(...)`) that some path carries, unchecked, to
/// a synchronising call or out of the function.
///
/// The state is the set of launches still pending. A launch adds itself; a
/// call that checks the last error clears the set; a synchronising call is
/// where the pending launches' faults would surface, so it records them and
/// clears the set. At a join the pending sets are united. Paths that end in a
/// no-return call or a throw are not followed out of the function. Which
/// calls check and which synchronise is the caller's decision.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_UNCHECKEDLAUNCHANALYSIS_H
#define GPUGUARD_ANALYSIS_CUDA_UNCHECKEDLAUNCHANALYSIS_H

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard {

/// What a call does to the launches before it.
enum class PendingLaunchEffect {
  None,
  /// Reads the last error, such as a used `cudaGetLastError()`.
  Check,
  /// Waits for the device, such as `cudaDeviceSynchronize()`.
  Synchronize,
};

/// A launch that reaches a synchronising call or the function's end on some
/// path without a check.
struct UncheckedLaunch {
  const clang::CUDAKernelCallExpr *Launch = nullptr;
  /// The first synchronising call, in source order, that a path reaches with
  /// the launch unchecked; null when no path does.
  const clang::CallExpr *Synchronization = nullptr;
  /// The first place, in source order, where a path leaves the function with
  /// the launch unchecked: a return statement, or the closing brace. Invalid
  /// when no path does.
  clang::SourceLocation Exit;
};

/// Runs the analysis on the body of \p Function, in source order of the
/// launches. \p Classify says what each call (other than a launch) does.
/// Functions whose CFG cannot be built yield no findings.
std::vector<UncheckedLaunch> findUncheckedLaunches(
    const clang::FunctionDecl &Function, clang::ASTContext &Context,
    llvm::function_ref<PendingLaunchEffect(const clang::CallExpr &)> Classify);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_UNCHECKEDLAUNCHANALYSIS_H
