//===--- OffsetLaunchArguments.h - Offset pointer arguments -----*- C++ -*-===//
///
/// \file
/// A kernel that keeps its index under a count (`if (i < n) p[i] = ...`) is
/// safe alone; its launch decides what `p` and `n` are. A launch that passes
/// a pointer into the middle of an allocation it can see (`d + off`) with
/// the whole allocation's count for the bound (`cudaMalloc(&d, n *
/// sizeof(float))`, then `k<<<g, b>>>(d + off, n)`) lets the last `off`
/// threads run past the allocation's end: the guard is right, the launch is
/// not. So does a kernel that steps by several elements under that bound
/// (`p[2 * i]` under `i < n`) on the allocation itself: past the middle,
/// its threads run past the end.
///
/// Evidence is required on both sides: the allocation is the only one of
/// its pointer in the launching function and its byte count is the bound's
/// argument times the element size; the offset is not a constant zero; the
/// kernel indexes the pointer parameter with a value it compares with the
/// count parameter as a strict upper bound, or with a constant multiple of
/// one (two or more) when the launch passes the allocation itself.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_OFFSETLAUNCHARGUMENTS_H
#define GPUGUARD_ANALYSIS_CUDA_OFFSETLAUNCHARGUMENTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace gpuguard::cuda {

class KernelLaunches;

struct OffsetPastAllocation {
  /// The `<<<>>>` launch.
  const clang::Expr *Launch = nullptr;
  /// The pointer argument as written (`d + off`, `&d[off]`, `d`) and its
  /// offset, null for the allocation itself.
  const clang::Expr *Argument = nullptr;
  const clang::Expr *Offset = nullptr;
  /// The allocated pointer, its allocation and the count of elements the
  /// allocation holds, as the allocation writes it (`n` in `n * sizeof(T)`).
  const clang::VarDecl *Buffer = nullptr;
  const clang::CallExpr *Allocation = nullptr;
  /// The kernel's pointer and count parameters, and the argument the launch
  /// passes for the count.
  const clang::ParmVarDecl *Pointer = nullptr;
  const clang::ParmVarDecl *Bound = nullptr;
  const clang::Expr *BoundArgument = nullptr;
  /// In the kernel: an access through the pointer, the comparison that
  /// keeps a value below the count, and how many times the index steps
  /// over that value (2 for `p[2 * i]`).
  const clang::Expr *Access = nullptr;
  const clang::Expr *Comparison = nullptr;
  const clang::Expr *Value = nullptr; ///< `i` in `i < n`.
  int64_t Scale = 1;
};

/// The one device allocation into the local \p Buffer in \p Body, and in
/// \p Count the factors of the element count it allocates (its byte count
/// without the `sizeof` of the element type), read through the locals \p
/// Assigned does not hold; null when there is not exactly one such
/// allocation, or \p Buffer is also assigned.
const clang::CallExpr *soleDeviceAllocation(
    const clang::VarDecl &Buffer, const clang::Stmt *Body,
    clang::ASTContext &Context,
    const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Assigned,
    llvm::SmallVectorImpl<const clang::Expr *> &Count);

/// The launches of \p Kernel that pass an offset pointer with the whole
/// allocation's count, in launch order.
std::vector<OffsetPastAllocation>
offsetLaunchesPastAllocation(const clang::FunctionDecl &Kernel,
                             const KernelLaunches &Launches,
                             clang::ASTContext &Context);

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_OFFSETLAUNCHARGUMENTS_H
