//===--- BranchCondition.h - What a CFG block branches on -------*- C++ -*-===//
///
/// \file
/// The flow-sensitive analyses learn facts on the edges of a branch. Clang's
/// CFG splits `&&` and `||` into blocks of their own, so each branching
/// block decides on one leaf of its condition; this names that leaf, so that
/// succs()[0] is the edge where it is true and succs()[1] where it is false.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_BRANCHCONDITION_H
#define GPUGUARD_ANALYSIS_CORE_BRANCHCONDITION_H

#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"

namespace gpuguard {

/// The leaf condition \p Block branches on, or null when it does not branch
/// two ways on a condition (no terminator, a switch, a loop over a range).
const clang::Expr *branchCondition(const clang::CFGBlock &Block);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_BRANCHCONDITION_H
