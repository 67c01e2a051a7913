//===--- DeviceMemoryLifetime.h - Allocations and their release -*- C++ -*-===//
///
/// \file
/// Follows the memory that the CUDA runtime and driver APIs allocate into a
/// local pointer (`cudaMalloc(&p, n)`, `cudaMallocHost`, `cuMemAlloc`, ...)
/// along every path of one function: to the returns it reaches unreleased,
/// to an allocation into the same pointer that overwrites it (a loop that
/// allocates each iteration and frees once), and to a release by a function
/// of another family (`free` of device memory, `cudaFree` of pinned host
/// memory).
///
/// Precision comes first. A pointer is followed only while the function
/// keeps it to itself: stored anywhere, returned, captured, its address
/// taken, or passed to a function that is not a CUDA library call, a kernel
/// launch or a C string or stdio function, it is somebody else's to free and
/// never reported. A path on which the allocation failed (its status or the
/// pointer compared with the values of failure) holds nothing to free. A
/// path that ends in a call that never returns or a throw frees everything
/// with the process, or leaves the cleanup to a handler, and is not a leak.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_DEVICEMEMORYLIFETIME_H
#define GPUGUARD_ANALYSIS_CUDA_DEVICEMEMORYLIFETIME_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace gpuguard {

/// The families of memory that are released by different functions.
enum class MemoryFamily {
  /// `cudaMalloc`, `cudaMallocManaged`, `cudaMallocAsync`, `cudaMallocPitch`,
  /// `cudaMalloc3D`, `cuMemAlloc`...: released by `cudaFree` (`cuMemFree`).
  Device,
  /// `cudaMallocHost`, `cudaHostAlloc`, `cuMemAllocHost`: `cudaFreeHost`.
  PinnedHost,
  /// `cudaMallocArray`, `cudaMalloc3DArray`: `cudaFreeArray`.
  Array,
  /// `cudaMallocMipmappedArray`: `cudaFreeMipmappedArray`.
  MipmappedArray,
  /// `malloc`, `calloc`, `realloc`: `free`.
  HostHeap,
  /// `new[]`: `delete[]`.
  NewArray,
  /// `new`: `delete`.
  NewObject,
};

/// The family \p Name allocates into its first argument (a canonical CUDA
/// API name, see canonicalApiName) or returns (`malloc`); none for other
/// functions.
std::optional<MemoryFamily> allocatedFamily(llvm::StringRef Name);

/// The family a function of name \p Name releases; none for other
/// functions.
std::optional<MemoryFamily> releasedFamily(llvm::StringRef Name);

/// What the families release with, for messages: `cudaFree`, `free`, ...
llvm::StringRef releaseFunctionOf(MemoryFamily Family);

/// Whether memory of \p Family lives on the GPU or is pinned for it: the
/// families the leak analysis follows (the host heap only matters for
/// releases by the wrong function).
bool isCudaFamily(MemoryFamily Family);

struct MemoryLifetimeFinding {
  enum KindType {
    /// The function returns (or ends) with the memory still held by the
    /// pointer on some path.
    LeakedAtReturn,
    /// The pointer receives a new allocation while it still holds one.
    OverwrittenBeforeRelease,
    /// Released by a function of another family.
    MismatchedRelease,
  };
  KindType Kind;
  /// The allocating call (`cudaMalloc(&p, n)`) or new-expression.
  const clang::Expr *Allocation = nullptr;
  /// The name it is written with (`cudaMalloc`, `malloc`, `new[]`).
  llvm::StringRef AllocatedBy;
  MemoryFamily Family = MemoryFamily::Device;
  /// The local pointer (or `cudaPitchedPtr`) that holds the memory.
  const clang::VarDecl *Holder = nullptr;
  /// LeakedAtReturn: the return statement, or null when the function falls
  /// off its end (then At is its closing brace). OverwrittenBeforeRelease:
  /// the new allocation. MismatchedRelease: the release.
  const clang::Stmt *Site = nullptr;
  clang::SourceLocation At;
  /// MismatchedRelease: the releasing function and its family.
  llvm::StringRef ReleasedBy;
  MemoryFamily ReleasedFamily = MemoryFamily::Device;
};

/// The lifetime findings in \p Function's body, each allocation site and
/// kind reported once, in source order. Empty without a body or a CFG.
std::vector<MemoryLifetimeFinding>
analyzeDeviceMemoryLifetime(const clang::FunctionDecl &Function,
                            clang::ASTContext &Context);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_DEVICEMEMORYLIFETIME_H
