//===--- UncheckedLaunchAnalysis.h - Launches left unchecked ----*- C++ -*-===//
///
/// \file
/// A forward may-analysis over a host function's CFG that finds the kernel
/// launches (`k<<<grid, block>>>(...)`) that some path carries, unchecked, to
/// a synchronising call or out of the function.
///
/// The state is the set of launches still pending. A launch adds itself, and
/// so does any call the caller says leaves an error for a later check (a
/// discarded status, a call to a helper that returns with a launch
/// unchecked); a call that checks the last error clears the set. A
/// synchronising call is where the pending launches' faults surface: it is
/// recorded, and the launches stay pending, marked as synchronised, since a
/// failed call also leaves its error as the thread's last error for a later
/// check to see. At a join the pending sets are united. Paths that end in a
/// no-return call or a throw are not followed out of the function. Which calls
/// check and which synchronise is the caller's decision.
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
  /// Waits for the device and reads the result: it reports the faults of
  /// the kernels before it, so it checks the pending work whose errors are
  /// such faults (the caller's SurfacesAllErrors says which), and acts as
  /// Synchronize for the rest.
  CheckedSynchronize,
  /// Leaves an error that only a later check sees, as a launch does: a call
  /// whose status is discarded, or a helper that returns with its launches
  /// unchecked.
  Pending,
};

/// A launch that reaches a synchronising call or the function's end on some
/// path without a check.
struct UncheckedLaunch {
  /// The launch, or the call that PendingLaunchEffect::Pending marked.
  const clang::CallExpr *Launch = nullptr;
  /// The first synchronising call, in source order, that a path reaches with
  /// the launch unchecked; null when no path does.
  const clang::CallExpr *Synchronization = nullptr;
  /// The first place, in source order, where a path leaves the function with
  /// the launch unchecked: a return statement, or the closing brace. Invalid
  /// when no path does.
  clang::SourceLocation Exit;
  /// Some path passes a synchronising call with the launch unchecked and then
  /// leaves the function without a check: the launch's faults surfaced in a
  /// result nobody read as the launch's, and no check saw them after.
  bool UncheckedAfterSynchronization = false;
  /// For a pending call, the first launch, in source order, that a path
  /// reaches with the call's error unchecked: the kernel then runs on what
  /// the call may have failed to set up.
  const clang::CUDAKernelCallExpr *LaunchedWhilePending = nullptr;
};

/// Runs the analysis on the body of \p Function, in source order of the
/// launches. \p Classify says what each call (other than a launch) does;
/// \p SurfacesAllErrors, which pending launches or calls a checked
/// synchronisation checks (none when it is empty). Functions whose CFG
/// cannot be built yield no findings.
std::vector<UncheckedLaunch> findUncheckedLaunches(
    const clang::FunctionDecl &Function, clang::ASTContext &Context,
    llvm::function_ref<PendingLaunchEffect(const clang::CallExpr &)> Classify,
    llvm::function_ref<bool(const clang::CallExpr &)> SurfacesAllErrors = {});

class CallSites;

/// Whether \p Function runs on the device only (a kernel, a `__device__`
/// function): launches from device code need dynamic parallelism, which
/// Clang does not compile, so only host code is analysed for launches.
bool isDeviceOnly(const clang::FunctionDecl &Function);

/// How the launchers of a translation unit's main file treat their own
/// launches: the host functions, other than `main`, that launch a kernel.
struct LauncherHabit {
  /// Launchers that check every launch of theirs before they return.
  unsigned CheckOwnLaunches = 0;
  /// Launchers that return with a launch unchecked, for their callers.
  unsigned LeaveLaunchesPending = 0;
  /// The first launcher, in source order, that checks its own.
  const clang::FunctionDecl *Example = nullptr;

  /// Whether checking one's own launches is the file's rule: a launcher
  /// that leaves its launch to callers out of sight is then an oversight,
  /// not a division of work (a file of thin launchers whose callers check).
  bool checksOwnLaunches() const {
    return CheckOwnLaunches >= 3 &&
           CheckOwnLaunches >= 4 * LeaveLaunchesPending;
  }
};

/// The launchers of \p Context's main file, from the launches \p Calls
/// collected; \p LeavesLaunchPending says whether a launcher returns with a
/// launch of its own unchecked. Each function is counted once, templates
/// with their instantiations.
LauncherHabit launcherHabit(
    clang::ASTContext &Context, const CallSites &Calls,
    llvm::function_ref<bool(const clang::FunctionDecl &)> LeavesLaunchPending);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_UNCHECKEDLAUNCHANALYSIS_H
