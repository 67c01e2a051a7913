//===--- DivByZeroCheck.h - torch-div-by-zero -------------------*- C++ -*-===//
///
/// \file
/// Flags tensor divisions (`/`, `/=`, `div`, `div_`, `true_divide`,
/// `floor_divide`, `torch::div`) whose denominator can be zero: a tensor that
/// is zero everywhere, an unprotected sum or mean of non-negative values, or an
/// unprotected standard deviation, variance or norm.
///
/// Non-negative values are masks, relu, abs, squares and counts; a standard
/// deviation, variance or norm is zero for constant data. PyTorch does not
/// raise for a float division by zero: the result silently holds inf or NaN,
/// which then spreads through the loss and the weights.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_DIVBYZEROCHECK_H
#define GPUGUARD_TORCH_DIVBYZEROCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class DivByZeroCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// In `gpuguard instrument`: checks the denominator for zeros at run time.
  void instrumentDenominator(const clang::Expr *Denominator,
                             const clang::FunctionDecl *Function,
                             clang::ASTContext &Context, bool Flagged);
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_DIVBYZEROCHECK_H
