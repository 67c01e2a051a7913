//===--- TensorFacts.h - Shapes and values of LibTorch tensors --*- C++ -*-===//
///
/// \file
/// What a function's code says about the tensors in its local variables:
/// their shapes (sizes known per dimension, or unknown), the range of their
/// integer values, their element kind, and whether their integers were cast
/// from floating point with nothing ruling out NaN or infinity. The analysis
/// is a forward dataflow over the CFG, keyed by variable; where paths with
/// different facts meet, the facts become unknown. Facts come from factories
/// with constant sizes (`torch::randn({N, C})`, `torch::randint(0, 10, {N})`,
/// `torch::tensor({1, 2})`), from the ops that transform them (views,
/// broadcasting arithmetic, `matmul`, reductions, `argmax`, `clamp`, `%`,
/// casts, min-max normalisation), from writes through views (`t.slice(1, 9) =
/// -1`) and from the built-in modules `Linear` and `Embedding`.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_TENSORFACTS_H
#define GPUGUARD_ANALYSIS_TORCH_TENSORFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>

namespace gpuguard::torch {

/// A size that is not known.
constexpr int64_t UnknownSize = -1;

/// The element kind of a tensor, as far as it matters for indexes.
enum class ElementKind { Unknown, Integer, Floating, Bool };

/// What is known of one tensor.
struct TensorFact {
  /// The sizes, outermost first, UnknownSize where a size is not known;
  /// no value when even the rank is unknown.
  std::optional<llvm::SmallVector<int64_t, 4>> Shape;
  /// Bounds of the values (inclusive), each known or not.
  std::optional<int64_t> Low, High;
  /// Whether the bounds are attained rather than over-approximated: a
  /// literal's elements, randint's range, argmax over a known dimension.
  bool ExactBounds = false;
  /// The values themselves, when few and all known (literals, `full`).
  std::optional<llvm::SmallVector<int64_t, 4>> Values;
  ElementKind Kind = ElementKind::Unknown;
  /// Floating values known free of NaN and infinity.
  bool Finite = false;
  /// Finite floating values that arithmetic moved since a factory, a
  /// two-sided clamp or a check bounded them: their cast to integers can
  /// still give any integer.
  bool Unbounded = false;
  /// Exact bounds whose values in between are not all taken (a range
  /// multiplied by a constant), so a remainder of them need not reach every
  /// residue.
  bool Strided = false;
  /// Floating values known to lie in [FloatLow, FloatHigh] wherever they
  /// are not NaN, both ends taken: min-max normalisation `(x - x.min()) /
  /// (x.max() - x.min())` gives [0, 1] (and NaN for constant data), and a
  /// positive constant factor or an added constant moves both ends.
  std::optional<double> FloatLow, FloatHigh;
  /// The cast of floating values to integers that produced this tensor
  /// when nothing checked them for NaN or infinity or clamped them first.
  const clang::Expr *UncheckedCast = nullptr;
  /// The variable that cast read, when it read one.
  const clang::ValueDecl *CastFrom = nullptr;
  /// Where the values (range) came from, for notes.
  const clang::Expr *ValueOrigin = nullptr;
  /// Where the shape came from, for notes.
  const clang::Expr *ShapeOrigin = nullptr;

  bool hasRange() const { return Low && High; }
  bool operator==(const TensorFact &Other) const;
  bool operator!=(const TensorFact &Other) const { return !(*this == Other); }
};

/// "[8, 10]", with "?" for unknown sizes.
std::string formatShape(llvm::ArrayRef<int64_t> Shape);

/// The shape two shapes broadcast to; no value when they do not broadcast or
/// a size needed is unknown.
std::optional<llvm::SmallVector<int64_t, 4>>
broadcastShapes(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B);

/// The facts of every tracked local variable at one program point. A
/// variable that is absent is unknown.
using TensorFactMap = llvm::DenseMap<const clang::VarDecl *, TensorFact>;

/// The analysis of one function.
class TensorFacts {
public:
  TensorFacts(const clang::FunctionDecl &Function, clang::ASTContext &Context);
  ~TensorFacts();

  /// Calls \p Visit with every statement of every reachable block, in
  /// evaluation order, and the facts that hold just before it.
  void forEachReachable(
      llvm::function_ref<void(const clang::Stmt *, const TensorFactMap &)>
          Visit) const;

  /// What \p E evaluates to given the facts \p State of the variables.
  TensorFact evaluate(const clang::Expr *E, const TensorFactMap &State) const;

  /// The constructor arguments of the built-in module \p Module names
  /// ("Linear", "Embedding"), as integers: `Embedding emb(100, 16)` and
  /// `Embedding emb(EmbeddingOptions(100, 16))` both give [100, 16].
  static std::optional<llvm::SmallVector<int64_t, 2>>
  moduleSizes(const clang::Expr *Module, llvm::StringRef Builtin,
              const clang::ASTContext &Context);

  /// The expression that initialised the module or options variable \p E
  /// names, or \p E itself when it names none.
  static const clang::Expr *moduleInit(const clang::Expr *E);

  /// The integer an options chain sets with \p Option: `ignore_index` in
  /// `CrossEntropyLossOptions().ignore_index(-1)`, through a local options
  /// variable too. \p Set, when given, tells whether the chain sets the
  /// option at all, so that a value that is set but not constant is not
  /// mistaken for the default.
  static std::optional<int64_t> optionValue(const clang::Expr *Options,
                                            llvm::StringRef Option,
                                            const clang::ASTContext &Context,
                                            bool *Set = nullptr);

  /// The same for the options a module variable was constructed with:
  /// `CrossEntropyLoss loss(CrossEntropyLossOptions().ignore_index(-1))`.
  static std::optional<int64_t> moduleOption(const clang::Expr *Module,
                                             llvm::StringRef Option,
                                             const clang::ASTContext &Context,
                                             bool *Set = nullptr);

  class Domain;

private:
  std::unique_ptr<clang::CFG> Graph;
  std::unique_ptr<Domain> D;
  struct Result;
  std::unique_ptr<Result> Solved;
};

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_TENSORFACTS_H
