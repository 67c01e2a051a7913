//===--- UncheckedApiCallCheck.h - cuda-unchecked-api-call ------*- C++ -*-===//
///
/// \file
/// Flags CUDA errors that nobody reads: a status (`cudaError_t`, `CUresult`, a
/// CUDA library's `cublasStatus_t` ...) returned by a call and dropped, and a
/// kernel launch (`k<<<grid, block>>>(...)`) that no `cudaGetLastError()` or
/// `cudaPeekAtLastError()` checks before the function ends.
///
/// Both hide where a fault happened: an asynchronous kernel error surfaces at a
/// later, unrelated call, or nowhere. The reasoning lives in
/// Analysis/Core/ResultUse and Analysis/Cuda/UncheckedLaunchAnalysis; this
/// check chooses what counts as a check and words the diagnostics.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H
#define GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H

#include "Analysis/Cuda/UncheckedLaunchAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuguard {
class CallSites;
} // namespace gpuguard

namespace gpuguard::cuda {

class UncheckedApiCallCheck : public clang::tidy::ClangTidyCheck {
public:
  UncheckedApiCallCheck(llvm::StringRef Name,
                        clang::tidy::ClangTidyContext *Context);
  ~UncheckedApiCallCheck() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  /// Whether \p Call's status is dropped and a report is due for it.
  bool isUncheckedStatus(const clang::CallExpr &Call,
                         clang::ASTContext &Context) const;
  void checkDiscardedStatus(const clang::CallExpr &Call,
                            clang::ASTContext &Context);
  /// Reports \p Call's dropped status; returns the diagnostic's location.
  clang::SourceLocation reportDiscardedStatus(const clang::CallExpr &Call,
                                              clang::ASTContext &Context);
  void checkLaunches(const clang::FunctionDecl &Function,
                     clang::ASTContext &Context);
  /// The launches, dropped statuses and calls of helpers that \p Function
  /// leaves pending, analysed once per translation unit. With \p
  /// ForLaunches, a checked synchronisation checks every helper call before
  /// it, as it reports the faults of the helper's kernels; otherwise not the
  /// call of a helper that leaves a dropped status pending.
  const std::vector<UncheckedLaunch> &
  pendingIn(const clang::FunctionDecl &Function, clang::ASTContext &Context,
            bool ForLaunches = false);
  /// Whether \p Function returns, on some path, with an error still
  /// pending for its callers to check.
  bool leavesErrorPending(const clang::FunctionDecl &Function,
                          clang::ASTContext &Context);
  /// Whether \p Function returns, on some path, with a dropped status
  /// pending, its own or a helper's: a checked synchronisation after the
  /// call does not report it, as it reports a launch's faults.
  bool leavesStatusPending(const clang::FunctionDecl &Function,
                           clang::ASTContext &Context);
  /// The call through which an error pending at \p Function's return
  /// reaches the end of `main` unchecked, or null when every caller in the
  /// translation unit checks, or none is in sight (then the callers, in
  /// other files, decide).
  /// \p ForLaunches asks about the launches \p Function leaves pending,
  /// otherwise about its dropped statuses.
  const clang::CallExpr *uncheckedCaller(const clang::FunctionDecl &Function,
                                         clang::ASTContext &Context,
                                         bool ForLaunches, unsigned Depth = 0);
  const CallSites &callSites(clang::ASTContext &Context);
  /// What the main file's own code reads: any status or the last error
  /// (a file that checks nothing has chosen not to, and its unchecked calls
  /// are no evidence of an oversight), whether its device code does, and
  /// which status types (entries of CheckedReturnTypes) it reads.
  struct StatusReads {
    bool Any = false;
    bool InDeviceCode = false;
    llvm::StringSet<> StatusTypes;
  };
  const StatusReads &statusReads(clang::ASTContext &Context);
  const LauncherHabit &launcherHabit(clang::ASTContext &Context);
  PendingLaunchEffect classify(const clang::CallExpr &Call,
                               clang::ASTContext &Context);
  bool isListedCheck(const clang::CallExpr &Call,
                     const clang::ASTContext &Context) const;
  /// What a visible helper does for its caller's pending errors, by its
  /// body and the helpers it calls in turn (a few calls deep): reads the
  /// last error (Check), makes a checked synchronising call
  /// (CheckedSynchronize), or neither (None).
  PendingLaunchEffect checksInBody(const clang::FunctionDecl &Callee,
                                   clang::ASTContext &Context,
                                   unsigned Depth = 0);
  bool isHandled(const clang::Expr &E, clang::ASTContext &Context) const;

  // In `gpuguard instrument`, for host code of CUDA files only. \p Flagged
  // is the location of the finding's diagnostic, invalid for an unflagged
  // site.
  /// Reports the `cudaError_t` \p Call returns at run time.
  void instrumentStatus(const clang::CallExpr &Call, clang::ASTContext &Context,
                        clang::SourceLocation Flagged);
  /// Reports \p Launch's launch error, and attributes the asynchronous error
  /// found at a later synchronisation to it.
  void instrumentLaunch(const clang::CUDAKernelCallExpr &Launch,
                        clang::ASTContext &Context,
                        clang::SourceLocation Flagged);
  /// Calls the runtime's wrapper instead of an allocation or synchronisation
  /// API function, in every copy: the device allocation registry and the
  /// drain of device reports depend on it.
  void useRuntimeWrapper(const clang::CallExpr &Call,
                         clang::ASTContext &Context);
  /// Registers the storage of a CUDA tensor whose data pointer host code
  /// takes (`t.data_ptr<float>()`), in every copy, so that the pointer
  /// checks of kernels know that memory.
  void registerTensorMemory(const clang::CXXMemberCallExpr &Call,
                            clang::ASTContext &Context);
  /// Brings the device's allocation registry up to date before \p Launch,
  /// in every copy.
  void refreshRegistryBefore(const clang::CUDAKernelCallExpr &Launch,
                             clang::ASTContext &Context);

  /// Functions and macros that check the last launch's error themselves.
  const std::string CheckedFunctionsOption;
  std::vector<llvm::StringRef> CheckedFunctions;
  /// A cast to void is a deliberate discard, not a finding.
  const bool AllowVoidCast;
  /// Typedefs and enums that are an API status.
  const std::string CheckedReturnTypesOption;
  std::vector<llvm::StringRef> CheckedReturnTypes;
  /// A launch must be checked before the function returns, not only before
  /// a synchronising call.
  const bool RequireCheckBeforeReturn;
  /// Also report the dropped results of frees and destroys.
  const bool CheckTeardownResults;
  /// Report every launch and status with no check on a path out of its
  /// function, even where a checked synchronisation or the callers may
  /// check it.
  const bool Strict;

  /// Per translation unit: the functions already analysed for launches, and
  /// what callees check in their visible body, by the depth they were
  /// reached at: a helper met deep down sees less of its own callees than
  /// one called directly.
  llvm::DenseSet<const clang::FunctionDecl *> AnalysedFunctions;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 PendingLaunchEffect>
      CheckingCallees;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 std::unique_ptr<std::vector<UncheckedLaunch>>>
      Pending;
  /// Whether a function leaves an error pending; false while in progress,
  /// which ends recursion.
  llvm::DenseMap<const clang::FunctionDecl *, bool> LeavesPending;
  llvm::DenseMap<const clang::FunctionDecl *, bool> LeavesStatusPending;
  std::unique_ptr<CallSites> Calls;
  std::optional<StatusReads> Reads;
  /// The main file's launchers: whether they check their own launches.
  std::optional<LauncherHabit> Habit;
  /// The dropped statuses reported, and where: the instrumented site of
  /// each is added at the call's own match, in the order of the calls.
  llvm::DenseMap<const clang::CallExpr *, clang::SourceLocation>
      ReportedStatuses;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H
