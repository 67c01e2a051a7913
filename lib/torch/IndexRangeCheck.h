//===--- IndexRangeCheck.h - torch-index-range ---*- C++ -*-===//
///
/// \file
/// TODO: one paragraph on what torch-index-range finds and why it matters.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_INDEXRANGECHECK_H
#define GPUGUARD_TORCH_INDEXRANGECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class IndexRangeCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_INDEXRANGECHECK_H
