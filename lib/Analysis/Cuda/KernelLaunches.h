//===--- KernelLaunches.h - Where each kernel is launched -------*- C++ -*-===//
///
/// \file
/// The launches of each kernel in a translation unit (`<<<>>>`,
/// `cudaLaunchKernel`, `cudaLaunchCooperativeKernel`, from templates and
/// helpers alike) and what their grids say about the data they cover. A
/// kernel's own code cannot show how many threads run; its launches can. A
/// grid rounded up from a count (`(n + b - 1) / b`, `ceil_div(n, b)`) runs
/// threads past that count in its last block, so an index with no guard is
/// out of bounds there: evidence, not a guess.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_KERNELLAUNCHES_H
#define GPUGUARD_ANALYSIS_CUDA_KERNELLAUNCHES_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard::cuda {

struct KernelLaunch {
  /// The `<<<>>>` call or the cudaLaunchKernel-style call.
  const clang::Expr *Site = nullptr;
  /// A grid extent rounded up from a count (`(n + b - 1) / b`,
  /// `(n + 255) / 256`, `n / b + (n % b != 0)`, a call named like
  /// `ceil_div`, `divUp`, `ceil`), found in the grid argument through dim3
  /// constructors, casts and the initialisers of the variables it names;
  /// null when no extent is, or when a statement before the launch stops
  /// the function unless the division is exact (`assert(n % b == 0)`).
  const clang::Expr *RoundedUpExtent = nullptr;
  /// The grid dimensions rounded up, x = 1, y = 2, z = 4: which of the
  /// thread's coordinates run past the data. All three when the grid's
  /// dimensions cannot be told apart.
  unsigned RoundedUpDimensions = 0;
  /// The block argument as written; null when the launch has none.
  const clang::Expr *Block = nullptr;
};

/// The extents of a launch configuration argument, x first: the arguments
/// of the dim3 it constructs (null for a defaulted one, which is 1),
/// through copies, braces, casts and the variables that hold it (a
/// constant, or a local never changed after its declaration); an integer
/// is the x extent alone. None where the extents cannot be told apart.
std::optional<llvm::SmallVector<const clang::Expr *, 3>>
configurationExtents(const clang::Expr *Argument,
                     const clang::ASTContext &Context);

/// Whether \p Launch's configuration is constant and one no device rejects:
/// grid and block of constants (`<<<64, 256>>>`, `dim3 block(16, 16)`), at
/// most 256 threads a block (too few to run out of registers) and no dynamic
/// shared memory. Its only errors are then execution faults, which the next
/// synchronisation reports; a configuration that may be rejected (a grid of
/// 0, too many threads, registers or shared memory) fails at the launch and
/// is reported only by cudaGetLastError().
bool hasFixedValidConfiguration(const clang::CUDAKernelCallExpr &Launch,
                                const clang::ASTContext &Context);

class KernelLaunches {
public:
  /// Collects every launch in \p Context's translation unit.
  explicit KernelLaunches(clang::ASTContext &Context);

  /// The launches of \p Kernel; of its template, for an instantiation.
  llvm::ArrayRef<KernelLaunch> of(const clang::FunctionDecl &Kernel) const;

  /// The first launch of \p Kernel whose grid is rounded up in one of \p
  /// Dimensions (x = 1, y = 2, z = 4), or null.
  const KernelLaunch *firstRoundedUpLaunch(const clang::FunctionDecl &Kernel,
                                           unsigned Dimensions = 7) const;

  /// The fewest threads along \p Axis (x = 0, y = 1, z = 2) in a block of
  /// any launch of \p Kernel, when every one is a constant (`<<<g, 256>>>`,
  /// `dim3 block(BDIMX, BDIMY)`); none when one is not or there is no
  /// launch. In every launch in view, `blockDim` along \p Axis is at least
  /// that.
  std::optional<int64_t>
  leastConstantBlockExtent(const clang::FunctionDecl &Kernel,
                           unsigned Axis) const;

private:
  void add(const clang::FunctionDecl *Kernel, const clang::Expr *Site,
           const clang::Expr *Grid, const clang::Expr *Block);

  clang::ASTContext &Context;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<KernelLaunch>>
      Launches;
};

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_KERNELLAUNCHES_H
