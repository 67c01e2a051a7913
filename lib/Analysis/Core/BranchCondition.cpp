//===--- BranchCondition.cpp - The condition a CFG block branches on ------===//

#include "Analysis/Core/BranchCondition.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace gpuguard {

const Expr *branchCondition(const CFGBlock &Block) {
  if (Block.succ_size() != 2 || !Block.getTerminatorStmt() ||
      isa<SwitchStmt>(Block.getTerminatorStmt()))
    return nullptr;
  const auto *Cond = dyn_cast_or_null<Expr>(
      const_cast<CFGBlock &>(Block).getTerminatorCondition(
          /*StripParens=*/false));
  // The block evaluates the rightmost leaf of `a && b` or `a || b`.
  while (Cond) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO || !BO->isLogicalOp())
      return Cond;
    Cond = BO->getRHS();
  }
  return Cond;
}

} // namespace gpuguard
