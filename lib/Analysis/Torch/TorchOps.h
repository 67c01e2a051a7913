//===--- TorchOps.h - ATen op tables from PyTorch's data --------*- C++ -*-===//
///
/// \file
/// What PyTorch's own operator data says about ATen ops: which ops write
/// into `self`, which return a view of it, and which tensors an op's backward
/// formulas read, i.e. what autograd saves when the op runs with grad
/// enabled. The tables live in TorchOps.inc, generated from
/// native_functions.yaml (LibTorch 1.13.1) and derivatives.yaml (PyTorch 2.x)
/// by tools/generate_torch_ops.py; a lit test fails when the file is stale.
///
/// TorchOps.inc is a list of X-macro rows:
///  - `GPUGUARD_INPLACE_OP(Name, Method, Function)`: an op with a
///    `Tensor(a!) self` parameter that writes tensor data, and whether it
///    exists as a Tensor method and as a function (`torch::relu_(t)`).
///  - `GPUGUARD_VIEW_OP(Name)`: an op with `Tensor(a) self -> Tensor(a)`,
///    whose result shares `self`'s storage.
///  - `GPUGUARD_SAVING_OP(Name, Overload, Kinds, Uses)`: one differentiable
///    overload of derivatives.yaml. `Kinds` has one letter per parameter in
///    schema order: `T` tensor, `O` optional tensor, `L` tensor list, `S`
///    anything else. `Uses` has one `|`-separated field per parameter: `-`
///    when the parameter has no backward formula (not differentiable), else
///    the comma-separated parameter indexes the formula reads as tensors,
///    and `r` when it reads the op's result. Reads of metadata only
///    (`self.sizes()`, `self.options()`, ...) do not count, since autograd
///    records them without saving the tensor.
///  - `GPUGUARD_COMPOSITE_OP(Name, Target)`: an op that autograd sees as
///    `Target` (softmax is _softmax).
///  - `GPUGUARD_POINTWISE_OP(Name)`: an elementwise op (its kernel is a
///    TensorIterator one).
///  - `GPUGUARD_REDUCTION_OP(Name)`: an op that reduces over its `dim`
///    argument and keeps the reduced dimensions with `keepdim`.
///  - `GPUGUARD_FACTORY_OP(Name, FromTensor)`: an op that makes a tensor from
///    its dtype and device options; from a tensor's shape (`zeros_like`) or
///    from its arguments (`zeros`).
///
/// What the data cannot say (that `exp` is positive, that `floor` keeps
/// integers) is OpTraits.def, one hand-written row per op.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_TORCHOPS_H
#define GPUGUARD_ANALYSIS_TORCH_TORCHOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace gpuguard::torch {

/// What an op's result is, beyond its schema (OpTraits.def).
enum OpTrait : unsigned {
  /// Each element of the result is an element of `self`, unchanged.
  SameElements = 1u << 0,
  /// The result has `self`'s shape.
  SameShape = 1u << 1,
  /// The result has `self`'s element kind (integer, floating, bool).
  KeepsKind = 1u << 2,
  /// Integer elements come out unchanged (floor, round).
  KeepsIntegers = 1u << 3,
  /// Finite elements give finite ones.
  KeepsFinite = 1u << 4,
  /// The elements are floating whatever the input's are.
  ResultFloating = 1u << 5,
  /// The elements are 0 or 1 (comparisons, predicates).
  ResultBool = 1u << 6,
  /// Every element is 0.
  ResultZero = 1u << 7,
  /// Every element is above 0.
  ResultPositive = 1u << 8,
  /// Every element is in [0, 1).
  ResultUnitInterval = 1u << 9,
  /// The result has a dimension whatever the operands are.
  NeverZeroDim = 1u << 10,
  /// Elementwise over its operands broadcast together, for an op that
  /// PyTorch's data does not mark so (aliases, composites).
  Elementwise = 1u << 11,
  /// Its schema says it returns a view of `self`, but it copies when the
  /// strides do not allow one (reshape, contiguous): a write through its
  /// result need not reach `self`.
  MayCopy = 1u << 12,
  /// A copy: the same elements, shape and kind.
  Copy = SameElements | SameShape | KeepsKind | KeepsFinite,
};

/// The OpTrait flags of \p Name, of `foo` for an in-place `foo_` without a
/// row of its own; 0 for an op with none.
unsigned opTraits(llvm::StringRef Name);

/// True when \p Name has every trait of \p Traits.
inline bool hasOpTraits(llvm::StringRef Name, unsigned Traits) {
  return (opTraits(Name) & Traits) == Traits;
}

/// True for an elementwise op: its result has its operands' broadcast shape.
bool isPointwiseOp(llvm::StringRef Name);

/// True for a reduction over a `dim` argument, with `keepdim`.
bool isReductionOp(llvm::StringRef Name);

/// How a factory op sizes its result.
enum class FactoryKind {
  None,
  /// From its size arguments: `zeros({2, 3})`.
  New,
  /// From its tensor argument: `zeros_like(t)`.
  Like,
};
FactoryKind factoryKind(llvm::StringRef Name);

/// The variants of an op that writes into `self`.
struct InplaceOpVariants {
  bool Method = false;
  bool Function = false;
};

/// The variants of the in-place op \p Name ("add_", "relu_"); none when
/// \p Name does not write into `self`.
std::optional<InplaceOpVariants> inplaceOp(llvm::StringRef Name);

/// True when \p Name's result is a view of its `self` (view, select,
/// transpose, ...).
bool isViewOp(llvm::StringRef Name);

/// True when derivatives.yaml has a backward formula for some overload of
/// \p Name (after mapping composites), so that its result requires grad when
/// a differentiable input does.
bool isDifferentiableOp(llvm::StringRef Name);

/// One argument of a call, `self` first.
struct OpArgument {
  bool IsTensor = false;
  bool RequiresGrad = false;
};

/// What a call of \p Name saves for backward.
struct SavedOperands {
  /// Indexes into the call's arguments (`self` is 0).
  llvm::SmallVector<unsigned, 2> Arguments;
  bool Result = false;
};

/// The tensors a call of \p Name with \p Args saves for backward, given which
/// arguments require grad: the union, over those arguments, of what their
/// backward formulas read. Only the overloads whose tensor parameters match
/// the argument types are considered; when several match, only what all of
/// them save counts. None when no overload matches.
std::optional<SavedOperands> savedForBackward(llvm::StringRef Name,
                                              llvm::ArrayRef<OpArgument> Args);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_TORCHOPS_H
