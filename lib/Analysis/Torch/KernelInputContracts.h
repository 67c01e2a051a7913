//===--- KernelInputContracts.h - Tensors a kernel takes --------*- C++ -*-===//
///
/// \file
/// Whether a tensor whose memory a kernel receives was checked, on the way
/// from where PyTorch hands it over, to be a CUDA tensor and, when the kernel
/// gets a raw pointer, to be contiguous.
///
/// The evidence policy: a tensor is followed back from the launch through
/// the parameters of the functions that pass it along, in this translation
/// unit, to a function registered with PyTorch here (`m.def(...)` in a
/// `PYBIND11_MODULE`, `m.def`/`m.impl` in `TORCH_LIBRARY` and
/// `TORCH_LIBRARY_IMPL`): only then does the tensor surely come from a
/// caller who may pass any tensor. A function nobody here registers or
/// calls is somebody else's business, as is a tensor made locally. Any
/// query of the tensor's device (`is_cuda()`, `device()`, a device guard on
/// it) or layout (`is_contiguous()`, `contiguous()`, `stride()`) on the way,
/// any hand-over to a function of the project (which may validate it), and
/// any reassignment end the question. A `TORCH_LIBRARY_IMPL` under the CUDA
/// dispatch key receives CUDA tensors when it takes only one tensor.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_KERNELINPUTCONTRACTS_H
#define GPUGUARD_ANALYSIS_TORCH_KERNELINPUTCONTRACTS_H

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace gpuguard {
class CallSites;
} // namespace gpuguard

namespace gpuguard::torch {

/// Where a function is handed to PyTorch.
struct ExtensionBinding {
  /// The registering call: `m.def("scale", &scale)`, `m.impl(...)`.
  const clang::CallExpr *Registration = nullptr;
  /// Registered in a `TORCH_LIBRARY_IMPL` for the CUDA dispatch key.
  bool DispatchedToCuda = false;
};

/// The functions and lambdas one translation unit registers with PyTorch,
/// through pybind11's `module_::def` or torch::Library's `def` and `impl`
/// (directly, through `TORCH_FN` or `torch::dispatch`).
class ExtensionBindings {
public:
  explicit ExtensionBindings(clang::ASTContext &Context);

  /// How \p Function is registered, if it is.
  const ExtensionBinding *find(const clang::FunctionDecl &Function) const;

private:
  llvm::DenseMap<const clang::FunctionDecl *, ExtensionBinding> Bindings;
};

/// What a tensor was checked for before a point.
struct TensorChecks {
  bool Device = false; ///< is_cuda(), device(), a device guard on it
  bool Layout = false; ///< is_contiguous(), contiguous(), stride()
  /// Handed to the project's own code or reassigned: it may have been
  /// validated or replaced in ways not followed.
  bool Opaque = false;
};

/// What \p Function's body does with \p Tensor before \p Before, in source
/// order (macro arguments at their spelling).
TensorChecks checksBefore(const clang::FunctionDecl &Function,
                          const clang::ParmVarDecl &Tensor,
                          const clang::Stmt &Before,
                          const clang::ASTContext &Context);

/// Whether the kernel of \p Launch indexes the memory \p Accessor passes as
/// if the tensor were contiguous: a raw pointer (not an accessor) of a
/// tensor not made contiguous in place (`t.contiguous().data_ptr<T>()`),
/// with none of its strides passed along (`t.stride(0)`).
bool kernelIndexesFlat(const clang::CXXMemberCallExpr &Accessor,
                       const clang::CUDAKernelCallExpr &Launch,
                       const clang::ASTContext &Context);

/// A tensor a kernel receives unchecked from a registered function.
struct UncheckedKernelInput {
  /// The parameter the kernel's argument reads, in the launching function.
  const clang::ParmVarDecl *Tensor = nullptr;
  bool NeedsDeviceCheck = false;
  bool NeedsLayoutCheck = false;
  /// The registered function the tensor comes in through, its parameter,
  /// and where it is registered.
  const clang::FunctionDecl *Entry = nullptr;
  const clang::ParmVarDecl *EntryParameter = nullptr;
  const clang::CallExpr *Registration = nullptr;
};

/// Whether \p Accessor, an argument of \p Launch (`t.data_ptr<float>()`),
/// reads a tensor that comes from a registered function with no check of
/// its device or, for a raw pointer, of its layout.
std::optional<UncheckedKernelInput> findUncheckedKernelInput(
    const clang::CXXMemberCallExpr &Accessor,
    const clang::CUDAKernelCallExpr &Launch, const CallSites &Calls,
    const ExtensionBindings &Bindings, const clang::ASTContext &Context);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_KERNELINPUTCONTRACTS_H
