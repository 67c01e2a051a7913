//===--- UncheckedApiCallCheck.h - cuda-unchecked-api-call ------*- C++ -*-===//
///
/// \file
/// Flags CUDA errors that nobody reads: a `cudaError_t` or `CUresult` returned
/// by a call and dropped, and a kernel launch (`k<<<grid, block>>>(...)`) that
/// no `cudaGetLastError()` or `cudaPeekAtLastError()` checks before the
/// function ends.
///
/// Both hide where a fault happened: an asynchronous kernel error surfaces at a
/// later, unrelated call, or nowhere. The reasoning lives in
/// Analysis/Core/ResultUse and Analysis/Cuda/UncheckedLaunchAnalysis; this
/// check chooses what counts as a check and words the diagnostics.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H
#define GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace gpuguard {
enum class PendingLaunchEffect;
} // namespace gpuguard

namespace gpuguard::cuda {

class UncheckedApiCallCheck : public clang::tidy::ClangTidyCheck {
public:
  UncheckedApiCallCheck(llvm::StringRef Name,
                        clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  void checkDiscardedStatus(const clang::CallExpr &Call,
                            clang::ASTContext &Context);
  void checkLaunches(const clang::FunctionDecl &Function,
                     clang::ASTContext &Context);
  PendingLaunchEffect classify(const clang::CallExpr &Call,
                               clang::ASTContext &Context);
  bool isListedCheck(const clang::CallExpr &Call,
                     const clang::ASTContext &Context) const;
  bool checksLastErrorInBody(const clang::FunctionDecl &Callee,
                             clang::ASTContext &Context);
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

  /// Per translation unit: the functions already analysed for launches, and
  /// which callees check the last error in their visible body.
  llvm::DenseSet<const clang::FunctionDecl *> AnalysedFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, bool> CheckingCallees;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_UNCHECKEDAPICALLCHECK_H
