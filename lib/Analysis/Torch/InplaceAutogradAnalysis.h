//===--- InplaceAutogradAnalysis.h - Writes autograd rejects ----*- C++ -*-===//
///
/// \file
/// A forward dataflow analysis over a function's CFG that follows what
/// PyTorch's autograd knows about each local tensor: whether it provably
/// requires grad and is a leaf (made with requires_grad options,
/// requires_grad_(), set_requires_grad(true), register_parameter, a module's
/// parameters), which ops saved it for backward (from derivatives.yaml via
/// TorchOps), the no-grad scopes of NoGradGuard and AutoGradMode(false), and
/// backward() freeing the graph with its saved tensors. Tensors are tracked
/// by variable, parameter or member; references (`auto &r = t`) and views
/// (`t.view(...)`, `t[0]`, `t.select(...)`) count as the tensor they alias.
///
/// Its findings are in-place writes PyTorch rejects: one into a leaf that
/// requires grad (outside no-grad), raised at the write, and one into a
/// tensor saved for backward when a backward() can still follow, raised by
/// that backward(). The exit of a module's forward() counts as a backward():
/// the caller differentiates its result. A call of a module that holds
/// parameters returns a tensor that requires grad, and a call of a function
/// of the file returns what its body returns on every path (a leaf that
/// requires grad, or a tensor that requires grad). Requires-grad facts must
/// hold on every path; saves are kept when any path made them, including
/// earlier loop iterations.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_INPLACEAUTOGRADANALYSIS_H
#define GPUGUARD_ANALYSIS_TORCH_INPLACEAUTOGRADANALYSIS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace gpuguard::torch {

/// One in-place write that autograd rejects.
struct InplaceAutogradFinding {
  enum KindType {
    /// The written tensor is a leaf that requires grad.
    LeafRequiresGrad,
    /// The written tensor was saved for backward and a backward() follows.
    SavedForBackward,
    /// The written tensor was saved for backward but no backward() is seen
    /// to follow: one may still run through the graph (the function's
    /// caller's). Not an error by itself; only returned when asked for.
    MaybeSavedForBackward,
  };
  KindType Kind;
  /// The in-place call: `y.add_(1)`, `y += 1`, `torch::relu_(y)`,
  /// `F::relu(y, F::ReLUFuncOptions().inplace(true))`, `relu(y)` of a module
  /// built in place.
  const clang::Expr *Op = nullptr;
  /// When Op is a call of a function of the file that writes its argument
  /// in place on every path, that write, inside the function.
  const clang::Expr *HelperOp = nullptr;
  /// The tensor expression it writes.
  const clang::Expr *Written = nullptr;
  /// Its ATen name ("add_").
  std::string OpName;
  /// The variable, parameter or member written; null for a temporary.
  const clang::ValueDecl *Tensor = nullptr;
  /// The write goes through a view (or reference) of Tensor.
  bool ThroughView = false;
  /// Where the leaf was made to require grad, or the call that saved it.
  clang::SourceLocation Origin;
  /// The saving op's ATen name ("sigmoid"); empty for a leaf.
  std::string OriginOp;
  /// The tensor as the saving op saved it: the operand, or the op's call
  /// when it saves its result.
  const clang::Expr *Saved = nullptr;
  /// The saving op's call.
  const clang::Expr *SavingCall = nullptr;
  /// No backward() follows in the function, which is a module's forward():
  /// the caller's backward() through its result is the one that fails.
  bool BackwardByCaller = false;
};

/// Fields that hold module parameters (members assigned from
/// register_parameter in the translation unit), with the registering call.
using ParameterFields =
    llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation>;

/// Module members built with in-place options (`relu =
/// register_module("relu", torch::nn::ReLU(ReLUOptions().inplace(true)))`,
/// or in a constructor's initializer list): calling one writes its input.
using InplaceModuleFields = llvm::DenseSet<const clang::FieldDecl *>;

/// Runs the analysis on \p Function and returns its findings in source
/// order; with \p WithCandidates, also the writes to a saved tensor that no
/// visible backward() follows (MaybeSavedForBackward).
std::vector<InplaceAutogradFinding>
findInplaceAutogradErrors(const clang::FunctionDecl &Function,
                          clang::ASTContext &Context,
                          const ParameterFields &Parameters = ParameterFields(),
                          bool WithCandidates = false,
                          const InplaceModuleFields &InplaceModules = {});

/// Members of \p Context's translation unit that hold a module built with
/// in-place options.
InplaceModuleFields collectInplaceModuleFields(clang::ASTContext &Context);

/// Members assigned from `register_parameter(...)` anywhere in \p Context's
/// translation unit (in constructors' bodies or member initializers).
ParameterFields collectParameterFields(clang::ASTContext &Context);

/// True when \p S runs with grad mode off: after a NoGradGuard or an
/// AutoGradMode(false) declared earlier in an enclosing compound statement
/// (and not re-enabled by a later AutoGradMode(true)).
bool isUnderNoGrad(const clang::Stmt &S, clang::ASTContext &Context);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_INPLACEAUTOGRADANALYSIS_H
