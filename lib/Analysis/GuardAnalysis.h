//===--- GuardAnalysis.h - Which indexes a guard bounds ---------*- C++ -*-===//
///
/// \file
/// A forward must-dataflow analysis over a device function's CFG that tracks
/// which thread-dependent values are bounded above on every path, and reports
/// the memory accesses whose thread-dependent index is not.
///
/// Facts come from branch conditions (`i < n` on the true edge, `i >= n` on
/// the false edge, so early exits, loop conditions, ternaries, `&&` chains and
/// `assert` all produce them), from clamps (`min(i, n - 1)`, `i % n`), and are
/// killed when a variable they mention is reassigned. At a join only the facts
/// that hold on every incoming edge survive.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_GUARDANALYSIS_H
#define GPUGUARD_ANALYSIS_GUARDANALYSIS_H

#include "Analysis/ThreadIndexProvenance.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuguard {

/// A subscript (`a[i]`, `acc[i]` through operator[]) or a dereference of
/// pointer arithmetic (`*(p + i)`).
struct IndexedAccess {
  const clang::Expr *Access = nullptr;
  const clang::Expr *Base = nullptr;
  const clang::Expr *Index = nullptr;
};

/// Decomposes \p E into an indexed access, if it is one.
std::optional<IndexedAccess> getIndexedAccess(const clang::Expr *E);

/// An access whose thread-dependent index no guard bounds on every path.
struct UnguardedAccess {
  IndexedAccess Access;
  /// The thread-dependent local variables of the index that no guard bounds,
  /// in source order. Empty when the unbounded part is an expression over the
  /// launch builtins themselves (`a[blockIdx.x * blockDim.x + threadIdx.x]`).
  llvm::SmallVector<const clang::VarDecl *, 2> UnboundedVariables;
};

struct GuardAnalysisOptions {
  /// Trust that block-local indexes (computed from threadIdx and blockDim
  /// only) stay inside block-sized storage: `__shared__` and local arrays.
  bool TrustBlockSizedStorage = true;
};

/// Runs the analysis on the body of \p Function. Functions whose CFG cannot
/// be built yield no findings.
std::vector<UnguardedAccess>
findUnguardedAccesses(const clang::FunctionDecl &Function,
                      clang::ASTContext &Context,
                      const ThreadIndexProvenance &Provenance,
                      const GuardAnalysisOptions &Options = {});

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_GUARDANALYSIS_H
