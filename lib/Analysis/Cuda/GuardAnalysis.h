//===--- GuardAnalysis.h - Which indexes a guard bounds ---------*- C++ -*-===//
///
/// \file
/// A forward must-dataflow analysis over a device function's CFG that tracks
/// how tightly each index value is bounded on every path, and reports the
/// memory accesses whose index may leave its bounds.
///
/// A fact says "v < bound + slack" and/or "v >= lower" for a value v (a
/// variable or an expression). Facts come from branch conditions (`i < n` on
/// the true edge, `i >= n` on the false edge, so early exits, loop
/// conditions, ternaries, `&&`/`||` chains, `assert` and guards kept in local
/// bools all produce them) and from clamps (`min(i, n - 1)`, `i % n`), and a
/// reassignment of a variable they read ends them. At a join only what holds
/// on every incoming edge survives, at its weakest.
///
/// An index is then judged part by part: `i + 1` needs `i < bound - 1`,
/// `i - 1` needs `i >= 1`, `row * cols + col` needs a bound on row and on
/// col, and a value converted from floating point needs both bounds.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_GUARDANALYSIS_H
#define GPUGUARD_ANALYSIS_CUDA_GUARDANALYSIS_H

#include "Analysis/Cuda/ThreadIndexProvenance.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard {

/// A subscript (`a[i]`, `acc[i]` through operator[]), a dereference of
/// pointer arithmetic (`*(p + i)`), or pointer arithmetic passed to a call
/// that accesses memory through it (`__ldg(p + i)`, `store4(out + i, v)`).
struct IndexedAccess {
  const clang::Expr *Access = nullptr;
  const clang::Expr *Base = nullptr;
  const clang::Expr *Index = nullptr;
  /// When Base is a local pointer set once to another pointer plus an
  /// offset (`float *row = feats + r * ld;`), that offset: part of the
  /// index into the pointer it was made from.
  const clang::Expr *BaseOffset = nullptr;
  /// The call the pointer is passed to, for the third kind.
  const clang::CallExpr *PassedTo = nullptr;
};

/// Decomposes \p E into an indexed access, if it is one.
std::optional<IndexedAccess> getIndexedAccess(const clang::Expr *E);

/// Why (part of) an index is not known to be in bounds.
enum class IndexProblemKind {
  /// No guard bounds it on every path.
  Unbounded,
  /// The guard lets the bound itself through (`j > n` exits, `i <= n`).
  OnePastTheBound,
  /// The guard bounds `i` but the index adds to it (`i + 1`).
  OffsetNotCovered,
  /// The index subtracts from a value with no lower bound (`i - 1`).
  NegativeOffset,
  /// The guard bounds `i` but the index adds a launch extent
  /// (`i + blockDim.x`).
  LaunchExtentOffset,
  /// A coordinate added to a loop-carried offset (`t * TILE + threadIdx.x`):
  /// the column of a tile in the last, partial tile.
  UnboundedTileColumn,
};

/// Where the unbounded part of an index comes from.
enum class IndexSource { ThreadIndex, Loaded, FromFloat };

struct IndexProblem {
  IndexProblemKind Kind = IndexProblemKind::Unbounded;
  IndexSource Source = IndexSource::ThreadIndex;
  /// The part of the index at fault: a variable reference or an expression.
  const clang::Expr *Part = nullptr;
  /// Set when Part names a local variable.
  const clang::VarDecl *Variable = nullptr;
  /// For a variable assigned more than once: the value it holds here on
  /// every path, when one is known. It, not every value the variable ever
  /// holds, says what the part is computed from.
  const clang::Expr *AssignedValue = nullptr;
  /// The constant the index adds to Part (`i + 1`: 1, `i - 1`: -1).
  int64_t Offset = 0;
  /// The guard whose bound is too weak, when there is one.
  const clang::Expr *Guard = nullptr;
  /// The side of Guard that Part is compared with (`n` in `i <= n`), when
  /// Guard is such a comparison.
  const clang::Expr *Bound = nullptr;
  /// The launch extent added to Part, for LaunchExtentOffset.
  const clang::Expr *Addend = nullptr;
  /// The problem is the lower bound (below zero), not the upper one.
  bool MissingLowerBound = false;
  /// For a NegativeOffset from a sum that is 0 for the first thread of the
  /// first block: the coordinates it reads (`by`, `ty`), all 0 there, and
  /// when it steps one row up (`index - cols`), the row width subtracted.
  /// Only the coordinates of the row term are named then.
  const clang::Expr *RowWidth = nullptr;
  llvm::SmallVector<const clang::Expr *, 2> OriginCoordinates;
  /// An OffsetNotCovered offset that stays inside the vector the index
  /// steps by (`dst[idx + k]`, `k < 4`, `idx` a multiple of 4): out of
  /// bounds only when the bound is not a multiple of the vector width.
  bool WithinAlignedVector = false;
  /// An OffsetNotCovered row offset `h` of a row of a padded width,
  /// `(i + h) * (w + c)` with `h <= c`: a layout with halo columns keeps as
  /// many halo rows, so row `i + h` is inside it.
  bool WithinPaddedRows = false;
  /// A OnePastTheBound from a loop that runs to the end of a half-open
  /// range it loaded (`for (i = ptr[v]; i <= ptr[v + 1]; ++i)`), which is
  /// the start of the next range.
  bool PastRangeEnd = false;
};

/// An access whose index is not known to be in bounds on every path.
struct UnguardedAccess {
  IndexedAccess Access;
  /// At least one; the first is the one to report.
  llvm::SmallVector<IndexProblem, 2> Problems;
  /// Set when the index is passed to a visible `__device__` helper that
  /// uses it as an index without a guard of its own: Access.Access is then
  /// the call, Access.Index the argument, and HelperAccess the helper's
  /// access.
  const clang::FunctionDecl *Helper = nullptr;
  const clang::Expr *HelperAccess = nullptr;
};

struct GuardAnalysisOptions {
  /// Trust that block-local indexes (computed from threadIdx and blockDim
  /// only) stay inside block-sized storage: `__shared__` and local arrays.
  bool TrustBlockSizedStorage = true;
  /// Also require a bound for indexes loaded from memory (`table[ids[i]]`).
  bool CheckLoadedIndexes = false;
  /// Require a bound (or clamp) for indexes converted from floating point.
  bool CheckFloatIndexes = true;
  /// Arrays whose names match hold one element more than the bound of
  /// their index: `rowPtr[row + 1]` under `row < rows` is in bounds. So do
  /// arrays a loop of the function walks from `a[v]` to `a[v + 1]`, whatever
  /// their name.
  const llvm::Regex *ExtentPlusOneArrays = nullptr;
  /// When set, receives the accesses whose index needs a bound that no guard
  /// proves but that the analysis accepts anyway: bare coordinates (bounded
  /// by the launch), scaled coordinates, and block-local indexes into
  /// block-sized storage. `gpuguard instrument --instrument=all` checks them
  /// at run time.
  std::vector<IndexedAccess> *Unproven = nullptr;
};

/// What a comparison states of \p Part from above where it holds as an
/// upper bound: `Part < Limit + Offset`. `i < n` and the false edge of
/// `i >= n` give (n, 0); `i <= n` and the false edge of `i > n` give
/// (n, 1); `i + 1 < n` gives (n, -1). The true edge of `i > n` bounds `i`
/// from below, so an upper fact from it holds on the false edge.
struct UpperLimit {
  const clang::Expr *Limit = nullptr;
  int64_t Offset = 0;
};

/// The upper limit \p Guard states of \p Part, or none when it is not a
/// comparison of \p Part (plus a constant) with another value.
std::optional<UpperLimit> upperLimitOf(const clang::Expr *Guard,
                                       const clang::Expr *Part,
                                       const clang::ASTContext &Context);

/// Runs the analysis on the body of \p Function. Functions whose CFG cannot
/// be built yield no findings.
std::vector<UnguardedAccess>
findUnguardedAccesses(const clang::FunctionDecl &Function,
                      clang::ASTContext &Context,
                      const ThreadIndexProvenance &Provenance,
                      const GuardAnalysisOptions &Options = {});

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_GUARDANALYSIS_H
