//===--- LossShapeCheck.h - torch-loss-shape ---*- C++ -*-===//
///
/// \file
/// TODO: one paragraph on what torch-loss-shape finds and why it matters.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_LOSSSHAPECHECK_H
#define GPUGUARD_TORCH_LOSSSHAPECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class LossShapeCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_LOSSSHAPECHECK_H
