//===--- MixedDeviceCheck.h - torch-mixed-device ---*- C++ -*-===//
///
/// \file
/// TODO: one paragraph on what torch-mixed-device finds and why it matters.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_MIXEDDEVICECHECK_H
#define GPUGUARD_TORCH_MIXEDDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class MixedDeviceCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_MIXEDDEVICECHECK_H
