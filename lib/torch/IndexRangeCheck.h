//===--- IndexRangeCheck.h - torch-index-range ------------------*- C++ -*-===//
///
/// \file
/// Flags indexes that provably fall outside the range the LibTorch op they
/// reach accepts, and index tensors cast from floating point with nothing
/// ruling out NaN or infinity.
///
/// The indexes are embedding ids at or beyond the table's size (or negative),
/// class labels of `nll_loss`/`cross_entropy` outside [0, C) other than the
/// ignore_index, `index_select`/`gather` indexes beyond the indexed dimension,
/// and `one_hot` classes beyond num_classes; the cast turns NaN or infinity
/// into arbitrary integers. PyTorch rejects all of these at run time ("index
/// out of range in self", "Target N is out of bounds"), and on a GPU as a
/// device-side assert that ends the process.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_INDEXRANGECHECK_H
#define GPUGUARD_TORCH_INDEXRANGECHECK_H

#include "Analysis/Torch/TensorFacts.h"
#include "Instrument/Recorder.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::torch {

class IndexRangeCheck : public clang::tidy::ClangTidyCheck {
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
  /// One op's index argument and what it may hold.
  struct Site {
    const clang::Expr *Index = nullptr;
    /// Valid indexes are [0, Bound).
    int64_t Bound = 0;
    /// A value the op skips (a loss's ignore_index).
    std::optional<int64_t> Ignored;
    /// Whether only negative values are checked (one_hot without
    /// num_classes).
    bool NegativeOnly = false;
    /// "embedding 'emb' of 100 entries", "'logits' with 10 classes".
    std::string Target;
    /// Where the bound was set, for a note.
    const clang::Expr *BoundOrigin = nullptr;
    std::string BoundNote;
    /// The runtime check of the op and its operands in the runtime's order
    /// (none for ops the runtime does not check).
    instrument::SiteKind RuntimeKind = instrument::SiteKind::TorchGatherRange;
    llvm::SmallVector<const clang::Expr *, 3> Operands;
    std::string Op;
  };

  void checkCall(const clang::Expr *E, const TensorFacts &Facts,
                 const TensorFactMap &State, clang::ASTContext &Context);
  /// Class labels of a loss: \p S has the target as its index and the
  /// input as its first operand.
  void checkLabels(Site S, int64_t Ignored, const TensorFacts &Facts,
                   const TensorFactMap &State, clang::ASTContext &Context);
  void report(const Site &S, const TensorFact &Index,
              clang::ASTContext &Context);
  /// In `gpuguard instrument`: checks the op's indexes at run time, for a
  /// finding or, with --instrument=all, for every op of a checked kind.
  void instrumentSite(const Site &S, clang::ASTContext &Context, bool Flagged);

  /// And the float values it casts to indexes, for NaN and infinity.
  void instrumentCast(const clang::Expr *Cast, clang::SourceLocation Flagged,
                      clang::ASTContext &Context);

  const clang::FunctionDecl *CurrentFunction = nullptr;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_TORCH_INDEXRANGECHECK_H
