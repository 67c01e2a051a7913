//===--- UnrolledStrideLoops.h - Lanes of unrolled stride loops -*- C++ -*-===//
///
/// \file
/// A grid-stride loop unrolled U times reads U lanes per step:
///
///   int j = blockIdx.x * blockDim.x + threadIdx.x; // 0 <= j < s
///   int s = blockDim.x * gridDim.x;
///   int limit = (n / (U * s)) * (U * s);
///   for (; j < limit; j += U * s)
///     for (int u = 0; u < U; ++u)
///       use(a[j + u * s]);
///   for (; j < n; j += s) // the remainder
///     use(a[j]);
///
/// The guard `j < limit` bounds `j`, not `j + u * s`, yet every lane is in
/// range: j starts below s and steps by U * s, and limit is a multiple of
/// U * s, so `j < limit` puts j at most limit - U * s + (s - 1), and the
/// last lane at most limit - 1, below n. Kernels written for bandwidth
/// (reductions, norms, dot products) use this shape.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_UNROLLEDSTRIDELOOPS_H
#define GPUGUARD_ANALYSIS_CUDA_UNROLLEDSTRIDELOOPS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class ASTContext;
class ForStmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace gpuguard {

class UnrolledStrideLoops {
public:
  /// \p Reassigned holds the locals of \p Function that change after their
  /// declaration (collectAssignedVariables()), \p CounterLoops the loop that
  /// declares each counter (collectLoopCounters()); both are read when
  /// asked, not when built, so they may be filled after.
  UnrolledStrideLoops(
      const clang::FunctionDecl &Function, const clang::ASTContext &Context,
      const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Reassigned,
      const llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *>
          &CounterLoops);

  /// Whether \p Counter plus \p LaneOffset stays below the limit that \p
  /// Guard tests \p Counter against, because \p Guard is the condition of
  /// the main loop of an unrolled stride loop over \p Counter and \p
  /// LaneOffset is `u * s` for a lane `u` of that loop.
  bool keepsLaneBelowLimit(const clang::Expr *Guard,
                           const clang::VarDecl *Counter,
                           const clang::Expr *LaneOffset) const;

private:
  /// \p E without casts, read through locals that keep their initialiser.
  const clang::Expr *resolve(const clang::Expr *E) const;
  bool same(const clang::Expr *A, const clang::Expr *B) const;
  /// The value \p Counter holds when \p Loop starts, when the loop's init
  /// or the declaration just before the loop sets it.
  const clang::Expr *startOf(const clang::ForStmt &Loop,
                             const clang::VarDecl *Counter) const;
  /// Whether \p Lane counts from a non-negative constant up to below \p
  /// Lanes.
  bool isLaneBelow(const clang::Expr *Lane, const clang::Expr *Lanes) const;
  /// Whether \p Start lies in [0, \p Stride): a thread's global index along
  /// one dimension with the grid's stride, or its index in the block with
  /// the block's.
  bool startsWithinStride(const clang::Expr *Start,
                          const clang::Expr *Stride) const;

  const clang::ASTContext &Context;
  const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Reassigned;
  const llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *>
      &CounterLoops;
  /// Every `for` loop by its condition (casts stripped).
  llvm::DenseMap<const clang::Expr *, const clang::ForStmt *> LoopsByGuard;
  /// The statement just before each `for` loop in its block.
  llvm::DenseMap<const clang::ForStmt *, const clang::Stmt *> Preceding;
};

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_UNROLLEDSTRIDELOOPS_H
