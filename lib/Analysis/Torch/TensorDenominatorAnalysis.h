//===--- TensorDenominatorAnalysis.h - What a denominator can be *- C++ -*-===//
///
/// \file
/// A forward dataflow analysis over a function's CFG that finds the tensor
/// divisions (`/`, `/=`, `div`, `div_`, `true_divide`, `torch::div`) whose
/// denominator can be zero: a tensor that is zero everywhere (`torch::zeros`,
/// `y - y`, `x * 0`), a sum or mean of non-negative values (masks, `relu`,
/// `abs`, squares, counts, zero-initialised accumulators), or a spread (`std`,
/// `var`, `norm`), which is zero for constant data.
///
/// Each local tensor variable carries what its elements are known to be
/// (positive, non-negative, zero, such a reduction, or checked non-zero).
/// Protections end the risk: a positive constant added, `clamp_min(eps)`,
/// `max(d, eps)`, `where(d == 0, ones, d)`, and checks of the value such as
/// `if (d.item<float>() != 0)` or `TORCH_CHECK(n.item<int>() > 0)` on the
/// edges of a branch. At a join a variable keeps a risk that any path brings.
/// Sums of values of unknown sign are not risks: they are rarely exactly zero.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_TENSORDENOMINATORANALYSIS_H
#define GPUGUARD_ANALYSIS_TORCH_TENSORDENOMINATORANALYSIS_H

#include "clang/AST/Expr.h"
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard::torch {

/// What the elements of a tensor value are known to be.
struct TensorValue {
  enum KindType {
    Unknown,
    NonZero,     ///< checked non-zero, sign unknown
    Positive,    ///< every element > 0: exp, ones, `x + eps` for x >= 0
    NonNegative, ///< every element >= 0, all of them may be 0
    // The kinds below can be zero: a denominator of these kinds is a risk.
    Zero,        ///< every element is 0: zeros, `y - y`, `x * 0`
    Accumulator, ///< zero-initialised, only non-negative values added
    Sum,         ///< a sum of non-negative values
    Mean,        ///< a mean of non-negative values
    StandardDeviation,
    Variance,
    Norm,
  };
  /// How the values became non-negative or zero.
  enum SourceKind {
    NoSource,
    Comparison,
    Relu,
    Abs,
    Square,
    Clamp,
    Random,
    Fill
  };

  KindType Kind = Unknown;
  /// Where the risky value is made: the reduction, the zero fill, the
  /// difference; for an accumulator, its zero initialisation.
  const clang::Expr *Site = nullptr;
  /// Where the data became non-negative (the comparison, relu, abs) or zero.
  const clang::Expr *Source = nullptr;
  SourceKind Why = NoSource;

  bool canBeZero() const { return Kind >= Zero; }
  bool isNonNegative() const { return Kind >= Positive; }
  bool operator==(const TensorValue &Other) const {
    return Kind == Other.Kind && Site == Other.Site && Source == Other.Source &&
           Why == Other.Why;
  }
  bool operator!=(const TensorValue &Other) const { return !(*this == Other); }
};

/// A tensor division whose denominator can be zero on some path to it.
struct RiskyDivision {
  const clang::Expr *Division = nullptr;
  const clang::Expr *Denominator = nullptr;
  /// The local variable the denominator names, if it names one.
  const clang::VarDecl *Variable = nullptr;
  TensorValue Value;
};

class TensorDenominatorAnalysis {
public:
  /// Builds the CFG of \p Function and runs the analysis to its fixpoint.
  TensorDenominatorAnalysis(const clang::FunctionDecl &Function,
                            clang::ASTContext &Context);
  ~TensorDenominatorAnalysis();
  TensorDenominatorAnalysis(const TensorDenominatorAnalysis &) = delete;
  TensorDenominatorAnalysis &
  operator=(const TensorDenominatorAnalysis &) = delete;

  /// The reachable divisions whose denominator can be zero and that nothing
  /// protects, in source order.
  const std::vector<RiskyDivision> &riskyDivisions() const { return Risky; }
  /// The reachable divisions whose denominator is neither risky nor proven
  /// free of zeros (runtime checks of `gpuguard instrument --instrument=all`).
  const std::vector<RiskyDivision> &unprovenDivisions() const {
    return Unproven;
  }

private:
  std::vector<RiskyDivision> Risky;
  std::vector<RiskyDivision> Unproven;
};

/// True for the names of tensor division ops: div, div_, true_divide, ...
bool isDivisionOp(llvm::StringRef Name);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_TENSORDENOMINATORANALYSIS_H
