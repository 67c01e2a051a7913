//===--- IndexEvidence.h - Why an unguarded index can go wrong --*- C++ -*-===//
///
/// \file
/// cuda-unchecked-index reports an index only with evidence that a bad
/// value can reach it; without, the access is unproven: reported only in
/// the strict profile, and checked at run time by `--instrument=all`. The
/// evidence, strongest first:
///  - the guard exists and is too weak: it lets a size-like bound through
///    (`j > n` exits, `i <= n`, a loop to the end of a CSR row inclusive:
///    `i <= ptr[v + 1]`), or it does not cover a constant added to
///    the index of global memory (`i + 1` under `i < n`);
///    An offset that stays inside the vector the index steps by
///    (`dst[idx + k]`, `k < 4`, `idx` a multiple of 4) is not evidence: it
///    passes the bound only when the data size is not a multiple of 4;
///  - the index goes below zero at thread 0 (`i - 1`, no lower bound);
///  - a visible launch rounds the grid up, so the last block has threads
///    past the data and an index with no guard runs off the end;
///  - a visible launch and allocation, followed at sample sizes, take an
///    index with no guard past the allocation (LaunchReach.h);
///  - the function compares the same value elsewhere: its author knows it
///    can leave its range, and this path does not check;
///  - a float-to-integer conversion: NaN and out-of-range values are
///    ordinary in float data, and no clamp or only a one-sided one;
///  - an index loaded from memory, where the user asked for those.
/// What is not evidence: an index with no guard, no comparison anywhere and
/// no visible launch (kernels whose launch covers the data exactly look like
/// that); a comparison that tests the lower end (`i >= 1` beside `a[i - 1]`)
/// or leaves room for a neighbour (`i <= n - 2` beside `a[i + 1]`), whose
/// author expects the value to reach the last element, not to pass it; an
/// inclusive bound that is itself an index (`t2 <= t`, with `t` a
/// position in the row); `tid + s` under `tid < s`, the tree reduction's
/// step, whose array holds twice the bound; block-local indexes plus an
/// offset, whose storage the launch sizes; and a launch extent added to a
/// guarded index (`i + blockDim.x`), which the launch decides.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_INDEXEVIDENCE_H
#define GPUGUARD_ANALYSIS_CUDA_INDEXEVIDENCE_H

#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/LaunchReach.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard {
class ComparedValues;
} // namespace gpuguard

namespace gpuguard::cuda {

class KernelLaunches;
struct KernelLaunch;

enum class IndexEvidenceKind {
  None,             ///< Unproven.
  WeakGuard,        ///< A guard exists and lets a bad value through.
  ThreadZero,       ///< `i - 1` with no lower bound: thread 0 exists.
  RoundedUpLaunch,  ///< A launch rounds the grid up past the data.
  PastAllocation,   ///< A launch takes the index past its allocation.
  BoundedElsewhere, ///< The same value is compared on another path.
  OneSidedClamp,    ///< A float index clamped on one side only.
  FloatToIndex,     ///< A float index, unclamped: NaN becomes an index.
  LoadedIndex,      ///< A loaded index, checked on request.
  BlockLocalIndex,  ///< A block-local index, checked on request.
};

struct IndexEvidence {
  IndexEvidenceKind Kind = IndexEvidenceKind::None;
  /// The launch, for RoundedUpLaunch.
  const KernelLaunch *Launch = nullptr;
  /// The comparison on another path, for BoundedElsewhere.
  const clang::Expr *Comparison = nullptr;
  /// The launch, the allocation and the thread that passes it, for
  /// PastAllocation.
  std::optional<ReachPastAllocation> Reach = std::nullopt;
  explicit operator bool() const { return Kind != IndexEvidenceKind::None; }
};

/// What the evidence is judged from: the function, what it compares, how
/// its values depend on the thread, and the translation unit's launches.
class IndexEvidenceContext {
public:
  IndexEvidenceContext(const clang::FunctionDecl &Function,
                       clang::ASTContext &Context,
                       const ComparedValues &Compared,
                       const ThreadIndexProvenance &Provenance,
                       const KernelLaunches &Launches);

  const clang::FunctionDecl &Function;
  clang::ASTContext &Context;
  const ComparedValues &Compared;
  const ThreadIndexProvenance &Provenance;
  const KernelLaunches &Launches;
  /// The user asked for block-local indexes (CheckBlockLocalIndexes).
  bool CheckBlockLocalIndexes = false;
  /// The locals the function assigns after their declaration.
  llvm::SmallPtrSet<const clang::VarDecl *, 16> Assigned;
  /// What the launches in view do with each access already asked about.
  mutable llvm::DenseMap<const clang::Expr *,
                         std::optional<ReachPastAllocation>>
      ReachByAccess;
};

/// The evidence that \p Problem of \p Access can happen.
IndexEvidence evidenceFor(const UnguardedAccess &Access,
                          const IndexProblem &Problem,
                          const IndexEvidenceContext &Where);

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_INDEXEVIDENCE_H
