//===--- NonZeroAnalysis.h - Which values are proven non-zero ---*- C++ -*-===//
///
/// \file
/// A forward must-dataflow analysis over a function's CFG that answers "is
/// this value non-zero on every path that reaches this point?", for divisors
/// and anything else that must not be zero. It knows nothing of CUDA or
/// LibTorch: a client names the values its runtime guarantees positive.
///
/// Facts are comparisons of a value with a constant (`d != 0`, `d > 0`,
/// `n >= 2`) and inequalities between two values (`hi > lo`, which makes
/// `hi - lo` non-zero; a counter that starts at `begin` and only grows stays
/// at or above it, so that `k < end` also makes `end - begin` non-zero). They
/// come from branch conditions (so early exits, ternaries, `&&` chains, loop
/// conditions and `assert` all produce them) and from assignments of values
/// that are non-zero by their form (`max(d, 1)`, `d | 1`, `x + eps`, clamps
/// such as `d < 1 ? 1 : d`). Reassigning a variable ends the facts that read
/// it; at a join only what every incoming path implies survives.
///
/// Separately, zeroSourcesOf() tells where a value that may be zero comes
/// from: a parameter, a load from memory or a difference, directly or through
/// the local variables that copy one.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_NONZEROANALYSIS_H
#define GPUGUARD_ANALYSIS_CORE_NONZEROANALYSIS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard {

struct NonZeroAnalysisOptions {
  /// Values the client's runtime guarantees positive, which the function's
  /// code cannot show (for CUDA, the launch extents).
  std::function<bool(const clang::Expr *)> IsKnownPositive;
};

/// Where a value that may be zero at run time comes from.
struct ZeroSource {
  enum SourceKind {
    /// A function parameter, or a member of one passed by value or by
    /// reference (`p.cols`): whatever the caller passes.
    Parameter,
    /// A value read from memory: `a[i]`, `*p`, `p->n`, `s.n` for a local or
    /// loaded `s`.
    Load,
    Difference, ///< `hi - lo`, zero whenever the two are equal.
  };
  SourceKind Kind;
  /// The parameter reference, load or difference, as written.
  const clang::Expr *Origin = nullptr;

  /// A local variable that passes the value on, and where it receives it.
  struct Copy {
    const clang::VarDecl *Var = nullptr;
    clang::SourceLocation Loc; ///< The declaration or assignment.
    /// What the variable receives; for a range-based for variable, the
    /// range it walks.
    const clang::Expr *Value = nullptr;
  };
  /// The local variables between the queried expression and Origin, the one
  /// the expression reads first.
  llvm::SmallVector<Copy, 2> Copies;
};

/// What is known on every path just before one statement is evaluated.
struct NonZeroFacts;

class NonZeroAnalysis {
public:
  /// Builds the CFG of \p Function and runs the analysis to its fixpoint.
  /// Functions whose CFG cannot be built have no reachable statements.
  NonZeroAnalysis(const clang::FunctionDecl &Function,
                  clang::ASTContext &Context,
                  NonZeroAnalysisOptions Options = {});
  ~NonZeroAnalysis();
  NonZeroAnalysis(const NonZeroAnalysis &) = delete;
  NonZeroAnalysis &operator=(const NonZeroAnalysis &) = delete;

  /// Calls \p Visit for every statement and sub-expression on a reachable
  /// path, in evaluation order, with what holds on every path just before it.
  /// Unevaluated operands (`sizeof`) and the bodies of nested lambdas are not
  /// visited.
  void forEachReachable(
      llvm::function_ref<void(const clang::Stmt *, const NonZeroFacts &)> Visit)
      const;

  /// True when \p E is non-zero given \p Facts.
  bool isNonZero(const clang::Expr *E, const NonZeroFacts &Facts) const;
  /// True when \p E is non-zero by its form alone, on any path: a non-zero
  /// constant, `sizeof`, `max(d, 1)`, `d | 1`, `x + eps`, a known-positive
  /// value.
  bool isNonZero(const clang::Expr *E) const;

  /// The ways \p E may hold a zero, in source order; empty when it is none
  /// of a parameter, a load or a difference, nor a local copy of one.
  /// Follows every definition of a local variable, wherever it is.
  llvm::SmallVector<ZeroSource, 1> zeroSourcesOf(const clang::Expr *E) const;

private:
  class Impl;
  std::unique_ptr<Impl> State;
};

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_NONZEROANALYSIS_H
