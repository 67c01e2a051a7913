//===--- LaunchReach.h - How far a launch takes an index --------*- C++ -*-===//
///
/// \file
/// A kernel whose index has no guard is safe exactly when its launch covers
/// no more than the data. When the launch and the allocation are both in
/// view, that can be computed rather than assumed: give every count the
/// launcher reads from outside (its parameters, numbers read from the
/// command line) one sample size, follow the launcher's arithmetic to the
/// grid, the block, the kernel's arguments and the allocation's element
/// count, and take the largest index any thread of the grid computes. If it
/// passes the count, the last threads read or write past the allocation:
///
///   int index_s = cols * TILE * by + TILE * bx + cols * TILE + tx;
///   south[ty][tx] = J[index_s];     // the tile row below this block's
///   ...
///   cudaMalloc(&J, sizeof(float) * rows * cols);
///   dim3 grid(cols / TILE, rows / TILE);
///   kernel<<<grid, dim3(TILE, TILE)>>>(J, cols, rows);
///
/// With rows and cols at 1024, block (63, 63) reads element 1049599 of
/// 1048576. Only when every step is certain: the access runs on every
/// thread that reaches it (no branch, early return or short circuit before
/// it in the kernel), the index is linear in the thread's coordinates, the
/// allocation is the buffer's only one, every value the launcher uses is
/// computed from constants and the sampled counts, and the count and the
/// reach depend on the same sampled counts (a byte count passed in beside
/// an element count says nothing of their relation). The answer must hold
/// at two sample sizes.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_LAUNCHREACH_H
#define GPUGUARD_ANALYSIS_CUDA_LAUNCHREACH_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace gpuguard::cuda {

class KernelLaunches;

/// An access that a launch takes past the end of its allocation.
struct ReachPastAllocation {
  const clang::CUDAKernelCallExpr *Launch = nullptr;
  const clang::CallExpr *Allocation = nullptr;
  const clang::VarDecl *Buffer = nullptr;
  /// The counts the launcher reads from outside, given the sample size.
  llvm::SmallVector<const clang::VarDecl *, 2> Sampled;
  int64_t Sample = 0;
  /// The largest index, the elements allocated, and a thread that reaches
  /// it (x, y, z).
  int64_t Reached = 0;
  int64_t Count = 0;
  std::array<int64_t, 3> Block{};
  std::array<int64_t, 3> Thread{};
  /// How many dimensions the launch uses: 1 to 3.
  unsigned Dimensions = 1;
  /// For a guarded index, the part its guard bounds and the largest value
  /// the guard lets it take; the thread coordinates then say nothing.
  const clang::Expr *GuardedPart = nullptr;
  int64_t GuardedValue = 0;
};

/// The first launch of \p Kernel in the translation unit that takes the
/// index of \p Access, an access through the pointer parameter \p Base,
/// past the end of the allocation the launch passes for it; none when no
/// launch is certain to.
std::optional<ReachPastAllocation>
reachPastAllocation(const clang::FunctionDecl &Kernel,
                    const clang::Expr &Access, const clang::Expr &Base,
                    const clang::Expr &Index, const KernelLaunches &Launches,
                    clang::ASTContext &Context);

/// Whether every launch of \p Kernel in the translation unit, and at least
/// one, keeps \p Index, an index through the pointer parameter \p Base,
/// inside the allocation the launch passes for it, given the upper bound
/// \p Guard sets on \p Part where the access runs. The converse of
/// reachPastAllocation(): a guard that looks too weak for the index
/// (`(i + 1) * w` under `i < rows`) is enough for the buffer the launcher
/// allocates (`(rows + 2) * w` elements, with halo rows).
bool guardKeepsInsideAllocation(
    const clang::FunctionDecl &Kernel, const clang::Expr &Base,
    const clang::Expr &Index, const clang::Expr &Part, const clang::Expr &Guard,
    const KernelLaunches &Launches, clang::ASTContext &Context);

/// The first launch of \p Kernel in the translation unit that takes
/// \p Index, an index through the pointer parameter \p Base, past the end
/// of the allocation it passes for it even at the largest value \p Guard
/// lets \p Part take where the access runs: a guard too weak for the buffer
/// in view (`(i + 1) * (w + 2)` under `i < rows` on `rows * (w + 2)`
/// elements, no halo rows).
std::optional<ReachPastAllocation> guardedReachPastAllocation(
    const clang::FunctionDecl &Kernel, const clang::Expr &Base,
    const clang::Expr &Index, const clang::Expr &Part, const clang::Expr &Guard,
    const KernelLaunches &Launches, clang::ASTContext &Context);

/// The fewest elements past the start of what it points into that every
/// launch of \p Kernel in the translation unit, and at least one, passes
/// for the pointer parameter \p Base: 3 for `k<<<g, b>>>(d + 3)` and
/// `&d[3]`, 0 for `d`. None when a launch passes an offset that is not a
/// constant, or launches the kernel another way. `in[i - 3]` at thread 0
/// then reads the first element, not the one before it.
std::optional<int64_t> leastLaunchOffset(const clang::FunctionDecl &Kernel,
                                         const clang::Expr &Base,
                                         const KernelLaunches &Launches,
                                         clang::ASTContext &Context);

/// Whether \p Access runs on every thread of \p Kernel: it is not under a
/// branch, a loop, a conditional operator or a short circuit, and nothing
/// before it in the body can return.
bool runsOnEveryThread(const clang::FunctionDecl &Kernel,
                       const clang::Expr &Access);

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_LAUNCHREACH_H
