//===--- DivByZeroCheck.h - cuda-div-by-zero --------------------*- C++ -*-===//
///
/// \file
/// Flags a division or remainder, in device or host code, whose divisor can be
/// zero at run time and is not proven non-zero on every path that reaches it.
///
/// It covers integer `/` and `%` by a parameter, a value loaded from memory or
/// a difference, and floating-point division by a difference or a loaded count,
/// whose inf or NaN later becomes a garbage index ("device-side assert
/// triggered"). The reasoning lives in Analysis/NonZeroAnalysis (what is
/// proven non-zero) and Analysis/DivisorEvidence (what shows a zero can
/// occur); this check picks the divisions and words the diagnostics.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_DIVBYZEROCHECK_H
#define GPUGUARD_CUDA_DIVBYZEROCHECK_H

#include "Analysis/Cuda/DivisorEvidence.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Cuda/LaunchArguments.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuguard {
struct ZeroSource;
} // namespace gpuguard

namespace gpuguard::cuda {

class DivByZeroCheck : public clang::tidy::ClangTidyCheck {
public:
  DivByZeroCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
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
  enum class DivisionKind { Integer, Remainder, FloatingPoint, Dependent };
  bool isReported(DivisionKind Kind, const ZeroSource &Source) const;
  /// The launches of the translation unit's kernels, collected on first use.
  const KernelLaunches &launches(clang::ASTContext &Context);
  std::unique_ptr<KernelLaunches> Launches;
  /// In `gpuguard instrument`: checks an integer divisor for zero at run
  /// time, and the values a floating-point division feeds into integer
  /// conversions for NaN and infinity. \p Flagged is the location of the
  /// division's diagnostic, invalid for an unflagged division.
  void instrumentDivision(const clang::BinaryOperator &Division,
                          DivisionKind Kind,
                          const clang::FunctionDecl &Function,
                          clang::ASTContext &Context,
                          clang::SourceLocation Flagged);

  /// Also report the divisions with no evidence of a zero: plain
  /// parameters and loads, and differences with a constant side.
  const bool Strict;
  /// Flag floating-point division by a difference or a loaded count.
  const bool CheckFloatDivision;
  /// Flag integer division by a parameter or a local copy of one.
  const bool CheckParameters;
  /// Words that mark a floating-point value loaded from memory as a count.
  const std::string CountNames;
  CountWords Counts;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_CUDA_DIVBYZEROCHECK_H
