//===--- ComparedValues.h - What a function compares anywhere ---*- C++ -*-===//
///
/// \file
/// The values a function compares somewhere in its body, on any path: the
/// operands of `<`, `<=`, `>`, `>=` and of min()/max() calls, and the
/// values it compares with zero. A check that finds no guard on the path to
/// an access or a division asks this for evidence: a bound or a zero test
/// elsewhere shows that the author knows the value can leave its range, so
/// the unguarded path is the suspicious one. No comparison anywhere is no
/// evidence: the value may well be fine by construction.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_COMPAREDVALUES_H
#define GPUGUARD_ANALYSIS_CORE_COMPAREDVALUES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace gpuguard {

class ComparedValues {
public:
  ComparedValues(const clang::FunctionDecl &Function,
                 const clang::ASTContext &Context);

  /// The first ordering comparison or clamp, in source order, that \p E or
  /// the local variable it names is an operand of: `E < n`, `n >= E`,
  /// `min(E, n)`; null if none is. Which side bounds which is the caller's
  /// question.
  const clang::Expr *boundingComparison(const clang::Expr *E) const;
  const clang::Expr *boundingComparison(const clang::VarDecl *Var) const {
    auto It = BoundedVariables.find(Var);
    return It == BoundedVariables.end() ? nullptr : It->second.front();
  }
  /// Every ordering comparison or clamp that \p E, or the local variable it
  /// names, is an operand of, in source order: the variable's first.
  llvm::SmallVector<const clang::Expr *, 4>
  boundingComparisons(const clang::Expr *E) const;

  /// Every operand of an ordering comparison or clamp, in source order.
  llvm::ArrayRef<const clang::Expr *> boundedOperands() const {
    return BoundedOperands;
  }

  /// A value that one edge of a comparison keeps strictly below a bound.
  struct StrictlyBelow {
    const clang::Expr *Value;      ///< `i` in `i < n`.
    const clang::Expr *Comparison; ///< `i < n` itself.
  };
  /// The values compared with \p Bound as a strict upper bound, in source
  /// order: `i < n` and `n > i` on their true edge, `i >= n` and `n <= i`
  /// on their false edge (`if (i >= n) return;`). Which edge reaches an
  /// access is the caller's question.
  llvm::SmallVector<StrictlyBelow, 4>
  valuesBelow(const clang::VarDecl &Bound) const;

  /// Whether \p E or the local variable it names is compared with zero
  /// somewhere: `n == 0`, `n != 0`, `n > 0`, `n < 1`, `!n`, `if (n)`.
  bool isZeroTested(const clang::Expr *E) const;
  bool isZeroTested(const clang::VarDecl *Var) const {
    return ZeroTestedVariables.contains(Var);
  }

private:
  void visit(const clang::Stmt *S);
  void recordBounded(const clang::Expr *E, const clang::Expr *Comparison);
  void recordZeroTested(const clang::Expr *E);
  /// Records the side of `LHS op RHS` that is compared with zero, if any.
  void recordZeroComparison(const clang::Expr *LHS, const clang::Expr *RHS);
  unsigned profileOf(const clang::Expr *E) const;

  const clang::ASTContext &Context;
  using Comparisons = llvm::SmallVector<const clang::Expr *, 2>;
  llvm::DenseMap<const clang::VarDecl *, Comparisons> BoundedVariables;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> ZeroTestedVariables;
  llvm::DenseMap<unsigned, Comparisons> BoundedProfiles;
  std::vector<const clang::Expr *> BoundedOperands;
  /// Every ordering comparison, in source order.
  std::vector<const clang::BinaryOperator *> OrderingComparisons;
  llvm::DenseSet<unsigned> ZeroTestedProfiles;
};

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_COMPAREDVALUES_H
