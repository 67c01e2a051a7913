//===--- LossShapeCheck.h - torch-loss-shape --------------------*- C++ -*-===//
///
/// \file
/// Flags loss calls whose input and target shapes are known and do not fit the
/// loss.
///
/// Binary cross-entropy needs identical shapes, the regression losses (MSE, L1,
/// smooth L1) silently broadcast `[N, 1]` against `[N]` into `[N, N]` and
/// average the wrong pairs, and `cross_entropy`/`nll_loss` need class-index
/// targets shaped like the input without its class dimension. PyTorch rejects
/// the first and last ("Target size (...) must be the same as input size
/// (...)", "0D or 1D target tensor expected, multi-target not supported") and
/// only warns about the broadcast.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_LOSSSHAPECHECK_H
#define GPUGUARD_TORCH_LOSSSHAPECHECK_H

#include "Analysis/Torch/TensorFacts.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class LossShapeCheck : public clang::tidy::ClangTidyCheck {
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
  void checkLoss(llvm::StringRef Loss, const clang::Expr *Input,
                 const clang::Expr *Target, const TensorFacts &Facts,
                 const TensorFactMap &State, clang::ASTContext &Context);
  /// In `gpuguard instrument`: compares the shapes at run time, for a
  /// finding or, with --instrument=all, for shapes not known to agree.
  void instrumentLoss(llvm::StringRef Loss, const clang::Expr *Input,
                      const clang::Expr *Target, clang::ASTContext &Context,
                      bool Flagged);

  const clang::FunctionDecl *CurrentFunction = nullptr;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_LOSSSHAPECHECK_H
