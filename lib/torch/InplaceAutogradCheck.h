//===--- InplaceAutogradCheck.h - torch-inplace-autograd --------*- C++ -*-===//
///
/// \file
/// Flags in-place tensor operations that PyTorch's autograd rejects: a write
/// into a leaf tensor that requires grad, and a write into a tensor that an
/// earlier op saved for backward while a `backward()` can still follow.
///
/// PyTorch's errors are "a leaf Variable that requires grad is being used in an
/// in-place operation" (outside a no-grad scope) and "one of the variables
/// needed for gradient computation has been modified by an inplace operation".
/// The reasoning is InplaceAutogradAnalysis's.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_INPLACEAUTOGRADCHECK_H
#define GPUGUARD_TORCH_INPLACEAUTOGRADCHECK_H

#include "Analysis/Torch/InplaceAutogradAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <optional>

namespace gpuguard::torch {

class InplaceAutogradCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Parameters.reset();
    InplaceModules.reset();
  }

private:
  /// In `gpuguard instrument`: checks the written tensor's version against
  /// the one its saving op recorded, or that it is not a leaf requiring
  /// grad.
  void instrumentFinding(const InplaceAutogradFinding &Finding,
                         const clang::FunctionDecl *Function,
                         clang::ASTContext &Context);
  /// With --instrument=all, for a write to a saved tensor that no visible
  /// backward() follows: checks it once a backward() reaches the saving node.
  void instrumentCandidate(const InplaceAutogradFinding &Finding,
                           const clang::FunctionDecl *Function,
                           clang::ASTContext &Context);

  /// Members holding module parameters, collected once per translation unit.
  std::optional<ParameterFields> Parameters;
  /// Members holding modules built in place, collected likewise.
  std::optional<InplaceModuleFields> InplaceModules;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_INPLACEAUTOGRADCHECK_H
