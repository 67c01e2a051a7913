//===--- TorchApi.h - Recognising LibTorch in the AST -----------*- C++ -*-===//
///
/// \file
/// What every torch check needs to read LibTorch code: which types are
/// tensors and modules, which calls are tensor operations and under which
/// ATen name, and the literal integers handed to them. Names follow ATen:
/// `a + b` is the op `add`, `a += b` is `add_`, `torch::relu_(t)` is `relu_`.
///
/// Recognition is by declaration, not by spelling: a call is a tensor op when
/// its callee is a member of at::Tensor / at::TensorBase, or a function of
/// the `at` or `torch` namespaces (or their inner namespaces) with a tensor
/// among its arguments. This holds for the real headers and for the mock ones
/// of the tests alike.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_TORCHAPI_H
#define GPUGUARD_ANALYSIS_TORCH_TORCHAPI_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace gpuguard::torch {

/// True for at::Tensor and at::TensorBase, through references, cv-qualifiers
/// and aliases (torch::Tensor).
bool isTensorType(clang::QualType Type);

/// True when \p Decl is declared in the namespace \p Qualified ("at",
/// "torch::nn::functional") or one nested in it.
bool isInNamespace(const clang::Decl *Decl, llvm::StringRef Qualified);

/// True for a declaration of LibTorch: in namespace at, c10 or torch.
bool isLibTorchDecl(const clang::Decl *Decl);

/// Strips what does not change which tensor an expression denotes: parens,
/// implicit casts, temporaries, cleanups and tensor copy or move
/// constructions.
const clang::Expr *ignoreTensorWrappers(const clang::Expr *E);

/// The variable, parameter or field a tensor (or module, device, options)
/// expression names, after ignoreTensorWrappers; null for anything else.
const clang::ValueDecl *referencedDecl(const clang::Expr *E);

enum class TensorCallForm {
  Method,         ///< t.add_(u), t.to(device)
  Function,       ///< torch::relu_(t), at::cat({a, b}), F::cross_entropy(x, y)
  Operator,       ///< a + b, -a, a > 0
  CompoundAssign, ///< a += b
};

/// One call of a tensor operation, normalised to ATen's vocabulary.
struct TensorCall {
  TensorCallForm Form;
  /// The ATen name: "add_", "sigmoid", "cross_entropy", "to". Operators map
  /// to their ops (+ add, - sub or neg, * mul, / div, > gt, ...) and compound
  /// assignments to the in-place ops (+= add_).
  std::string Name;
  /// The tensor the op is applied to: the object of a method call, the first
  /// argument of a function or operator. It may be null for a function whose
  /// first argument is not a tensor (torch::cat's list, a factory).
  const clang::Expr *Self = nullptr;
  /// The arguments after Self, as written (default arguments left out).
  llvm::SmallVector<const clang::Expr *, 4> Args;
  const clang::Expr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;

  /// ATen's convention: a trailing underscore mutates Self.
  bool mutatesSelf() const {
    return Form == TensorCallForm::CompoundAssign ||
           (!Name.empty() && Name.back() == '_' && Name != "_");
  }
  /// The qualified namespace of a function form ("torch::nn::functional"),
  /// empty for methods and operators.
  std::string Namespace;
};

/// Recognises \p E (after ignoreTensorWrappers) as a tensor operation.
std::optional<TensorCall> getTensorCall(const clang::Expr *E);

/// The argument \p Call passes for its callee's parameter named \p Param
/// ("dim", "keepdim"), as ATen's signatures name them; null when the call
/// leaves it to its default or the callee has no such parameter.
const clang::Expr *argumentFor(const TensorCall &Call, llvm::StringRef Param);

/// The elements of an initializer list or array argument, such as the tensors
/// of `torch::cat({a, b})` or the sizes of `torch::zeros({2, 3})`; the
/// expression itself, in a list of one, when it is not a braced list.
llvm::SmallVector<const clang::Expr *, 4> listElements(const clang::Expr *E);

/// The value of an integer (or integral Scalar, IntArrayRef element, bool)
/// constant, through the conversions LibTorch's signatures add.
std::optional<int64_t> integerConstant(const clang::Expr *E,
                                       const clang::ASTContext &Context);

/// The value of a floating-point or integer constant, through conversions.
std::optional<double> numberConstant(const clang::Expr *E,
                                     const clang::ASTContext &Context);

/// The class of a module (LinearImpl, a user's `struct Net : Module`) behind
/// a module holder (torch::nn::Linear), a std::shared_ptr<Impl> or the class
/// itself; null when \p Type holds no module.
const clang::CXXRecordDecl *moduleClass(clang::QualType Type);

/// The name of a LibTorch built-in module class without its `Impl` suffix
/// ("Embedding" for torch::nn::EmbeddingImpl); empty for a user's module.
llvm::StringRef builtinModuleName(const clang::CXXRecordDecl *Module);

/// A call in the shape of a module call: `m(args)` through operator() or
/// `m.forward(args)` / `m->forward(args)`. Whether the object is a module is
/// the caller's question (moduleClass(), or what it knows of the variable).
struct ForwardCall {
  /// The object called: the module holder or module, as written.
  const clang::Expr *Object = nullptr;
  llvm::ArrayRef<const clang::Expr *> Args;
};

/// Recognises \p E as a call in the shape of a module call.
std::optional<ForwardCall> getForwardCall(const clang::Expr *E);

/// The definition of \p Callee when a summary can follow its body: defined
/// in the translation unit, not a template's pattern, not LibTorch's own.
const clang::FunctionDecl *
summarisableDefinition(const clang::FunctionDecl &Callee);

/// The one forward() a user's module class defines (what `model(x)` runs
/// through its holder, which cannot call an overloaded one); null for a
/// LibTorch module, or when it has none, several, or a template.
const clang::FunctionDecl *moduleForward(const clang::CXXRecordDecl *Module);

/// The forward() of a user's module that the module call \p E runs: the
/// overload `m->forward(x)` resolves to, or moduleForward() of the class
/// held by `m` in `m(x)`; null for any other expression or a LibTorch module.
const clang::FunctionDecl *calledForward(const clang::Expr *E);

/// Recognises \p E as a call of a module (its object's type holds one):
/// `emb(ids)`, `emb->forward(ids)`, `loss(x, y)`.
std::optional<ForwardCall> getModuleCall(const clang::Expr *E);

/// The calls chained onto an options object, innermost first:
/// `CrossEntropyLossOptions().ignore_index(-1).reduction(kSum)` gives
/// [ignore_index(-1), reduction(kSum)]. \p Base receives the expression the
/// chain starts from (the constructor or a variable).
llvm::SmallVector<const clang::CXXMemberCallExpr *, 4>
optionChain(const clang::Expr *E, const clang::Expr **Base = nullptr);

/// Whether an options expression asks for an in-place op:
/// `F::ReLUFuncOptions().inplace(true)`, `ReLUOptions(true)` (a constructor
/// parameter named `inplace`), or a local variable initialised with one.
bool requestsInplace(const clang::Expr *Options,
                     const clang::ASTContext &Context);

/// The ATen op a LibTorch module class runs in place when its options ask
/// for it (`ReLUImpl`: "relu_", `LeakyReLUImpl`: "leaky_relu_"), from the
/// class's name; empty for a class that is not a module.
std::string inplaceOpOfModule(const clang::CXXRecordDecl *Impl);

/// An in-place write a call makes because of its options rather than its
/// name: a functional with in-place options (`F::relu(x,
/// F::ReLUFuncOptions().inplace(true))`, `F::detail::relu(x, true)`), or a
/// call of a module constructed with them (`relu(x)`, `relu->forward(x)`).
struct OptionInplaceWrite {
  const clang::Expr *Call = nullptr;
  /// The tensor written: the first argument.
  const clang::Expr *Written = nullptr;
  /// The ATen op that runs: "relu_".
  std::string OpName;
};

/// Recognises \p E as such a write. \p IsInplaceModule says whether the
/// module a call is made on (a local or a member) was built in place.
std::optional<OptionInplaceWrite> getOptionInplaceWrite(
    const clang::Expr *E, const clang::ASTContext &Context,
    llvm::function_ref<bool(const clang::ValueDecl *)> IsInplaceModule);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_TORCHAPI_H
