//===--- UncheckedIndexCheck.h - cuda-unchecked-index -----------*- C++ -*-===//
///
/// \file
/// Flags a memory access in device code (`__global__` or `__device__`) whose
/// index is computed from the thread's launch coordinates (`threadIdx`,
/// `blockIdx`) and is not bounded above by a guard on every path that reaches
/// it.
///
/// That is the out-of-bounds access of the last, partial block that ends in
/// "device-side assert triggered" or silent corruption. The reasoning lives in
/// Analysis/GuardAnalysis; this check picks the functions and words the
/// diagnostics.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_UNCHECKEDINDEXCHECK_H
#define GPUGUARD_CUDA_UNCHECKEDINDEXCHECK_H

#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Cuda/LaunchReach.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <optional>
#include <string>

namespace gpuguard::cuda {

class UncheckedIndexCheck : public clang::tidy::ClangTidyCheck {
public:
  UncheckedIndexCheck(llvm::StringRef Name,
                      clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override { Launches.reset(); }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportProblem(const UnguardedAccess &Finding,
                     const IndexProblem &Problem,
                     const ThreadIndexProvenance &Provenance,
                     clang::ASTContext &Context);
  /// Notes the call an index reaches memory through, or the row pointer
  /// whose offset holds the faulty part.
  void notePointerAccess(const UnguardedAccess &Finding,
                         const IndexProblem &Problem,
                         clang::ASTContext &Context);
  /// Notes the launch that takes the index past its allocation, with the
  /// thread that does, and the allocation.
  void notePastAllocation(const ReachPastAllocation &Reach,
                          const clang::FunctionDecl &Kernel,
                          clang::ASTContext &Context);
  void noteDefinition(const clang::VarDecl *Variable,
                      const ThreadIndexProvenance &Provenance,
                      const clang::Expr *AssignedValue = nullptr);
  /// In `gpuguard instrument`: checks the index of \p Finding at run time
  /// (Instrument/Cuda/IndexSites.h). \p Flagged is the location of the
  /// finding's diagnostic, invalid for an unflagged access.
  void instrumentAccess(const UnguardedAccess &Finding,
                        const clang::FunctionDecl &Function,
                        clang::ASTContext &Context,
                        clang::SourceLocation Flagged);
  /// With --instrument=all: also the accesses no guard proves in bounds.
  void instrumentUnflagged(
      const clang::FunctionDecl &Function, clang::ASTContext &Context,
      const ThreadIndexProvenance &Provenance,
      const GuardAnalysisOptions &Options,
      const llvm::SmallPtrSetImpl<const clang::Expr *> &Flagged);
  /// The launches of \p Kernel that pass a pointer offset into an
  /// allocation with the whole allocation's count (OffsetLaunchArguments.h).
  /// `cols[it] < w && it < end`: the read comes before the test of its
  /// index that the same chain makes. Reads already reported are skipped.
  void reportReadsBeforeTheirTest(
      const clang::FunctionDecl &Function, clang::ASTContext &Context,
      const llvm::SmallPtrSetImpl<const clang::Expr *> &Flagged);
  void reportOffsetLaunches(const clang::FunctionDecl &Kernel,
                            clang::ASTContext &Context);
  /// The launches of the translation unit's kernels, collected on first use.
  const KernelLaunches &launches(clang::ASTContext &Context);
  std::unique_ptr<KernelLaunches> Launches;
  /// Also report the accesses without evidence (IndexEvidence.h).
  const bool Strict;
  /// Also flag block-local indexes into `__shared__` and local arrays.
  const bool CheckBlockLocalIndexes;
  /// Also flag indexes loaded from memory that no guard validates.
  const bool CheckLoadedIndexes;
  /// Flag indexes converted from floating point with no bound or clamp.
  const bool CheckFloatIndexes;
  /// Names of arrays that hold one element more than their index's bound.
  const std::string ExtentPlusOneArrays;
  llvm::Regex ExtentPlusOneRegex;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_UNCHECKEDINDEXCHECK_H
