//===--- DivByZeroCheck.h - torch-div-by-zero ---*- C++ -*-===//
///
/// \file
/// TODO: one paragraph on what torch-div-by-zero finds and why it matters.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_DIVBYZEROCHECK_H
#define GPUGUARD_TORCH_DIVBYZEROCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class DivByZeroCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_DIVBYZEROCHECK_H
