//===--- ExtensionLaunches.h - Kernels launched on tensor data --*- C++ -*-===//
///
/// \file
/// What C++/CUDA extensions of PyTorch do at a kernel launch: which tensors'
/// memory the kernel receives (`t.data_ptr<float>()`, `t.data<T>()`,
/// `t.packed_accessor32<...>()`), whether the function made a tensor's
/// device current first (a `c10::cuda::CUDAGuard`, `OptionalCUDAGuard`,
/// `DeviceGuard` or `CUDAStreamGuard`, or `cudaSetDevice`), and which
/// stream the launch runs on. A kernel launched on another GPU than its
/// tensors' reads them through an address that GPU does not map: an
/// illegal memory access on multi-GPU hosts only.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_EXTENSIONLAUNCHES_H
#define GPUGUARD_ANALYSIS_TORCH_EXTENSIONLAUNCHES_H

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace gpuguard::torch {

/// The tensor-memory accessors among \p Launch's arguments
/// (`t.data_ptr<T>()` and the like), in order; empty when the kernel
/// receives no tensor's memory.
llvm::SmallVector<const clang::CXXMemberCallExpr *, 4>
tensorMemoryArguments(const clang::CUDAKernelCallExpr &Launch);

/// Whether \p Accessor hands the kernel a raw pointer (`data_ptr<T>()`,
/// `data<T>()`), which it indexes as if the tensor were contiguous, rather
/// than a packed accessor, which carries the strides.
bool isRawPointerAccessor(const clang::CXXMemberCallExpr &Accessor);

/// Whether \p Function, before \p Before in its body, makes a device
/// current: declares a device or stream guard of c10 or ATen, or calls
/// `cudaSetDevice` (or c10's `set_device`).
bool hasDeviceGuardBefore(const clang::FunctionDecl &Function,
                          const clang::Stmt &Before,
                          const clang::ASTContext &Context);

/// Whether \p Type is one of c10's and ATen's device or stream guards.
bool isDeviceGuardType(clang::QualType Type);

/// Whether \p Launch runs on the legacy default stream: no stream in its
/// configuration, or a literal 0 or null.
bool launchesOnDefaultStream(const clang::CUDAKernelCallExpr &Launch);

/// The name of the kernel \p Launch launches, also where a template leaves
/// it unresolved (`multi_tensor_apply_kernel<<<...>>>` in apex's
/// dispatcher); its source text when it has no name.
std::string launchedKernelName(const clang::CUDAKernelCallExpr &Launch,
                               const clang::ASTContext &Context);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_EXTENSIONLAUNCHES_H
