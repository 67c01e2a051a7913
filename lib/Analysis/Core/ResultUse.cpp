//===--- ResultUse.cpp - Whether a value is used or discarded -------------===//

#include "Analysis/Core/ResultUse.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gpuguard {

/// True when \p Parent runs \p Child as a statement of its own, so that the
/// value of an expression \p Child is thrown away.
static bool isStatementPosition(const Stmt *Parent, const Stmt *Child) {
  if (isa<CompoundStmt>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse() ||
           Child == If->getInit();
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getBody();
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getInit() || Child == For->getInc() ||
           Child == For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == RangeFor->getBody() || Child == RangeFor->getInit();
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    return Child == Switch->getBody() || Child == Switch->getInit();
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Child == Case->getSubStmt();
  if (const auto *Label = dyn_cast<LabelStmt>(Parent))
    return Child == Label->getSubStmt();
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Parent))
    return Child == Attributed->getSubStmt();
  return false;
}

static const Stmt *parentStmt(const Stmt &S, ASTContext &Context) {
  DynTypedNodeList Parents = Context.getParents(S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

ResultUse getResultUse(const Expr &E, ASTContext &Context) {
  // The left side of a comma is dropped whatever happens to the comma; only
  // an enclosing void cast can still say that this was deliberate.
  bool DroppedByComma = false;
  const Stmt *Child = &E;
  while (const Stmt *Parent = parentStmt(*Child, Context)) {
    if (isa<ParenExpr, ImplicitCastExpr, FullExpr>(Parent)) {
      Child = Parent;
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent)) {
      if (Cast->getType()->isVoidType())
        return ResultUse::DiscardedByVoidCast;
      Child = Parent;
      continue;
    }
    if (const auto *Comma = dyn_cast<BinaryOperator>(Parent);
        Comma && Comma->getOpcode() == BO_Comma) {
      if (Child == Comma->getLHS())
        DroppedByComma = true;
      Child = Parent;
      continue;
    }
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(Parent);
        Conditional && Child != Conditional->getCond()) {
      Child = Parent;
      continue;
    }
    if (isStatementPosition(Parent, Child)) {
      // `({ ...; f(); })`: the last statement is the statement expression's
      // value, which its own context uses or drops.
      const auto *Body = dyn_cast<CompoundStmt>(Parent);
      if (Body && !Body->body_empty() && Body->body_back() == Child)
        if (const auto *StmtExprParent =
                dyn_cast_or_null<StmtExpr>(parentStmt(*Body, Context))) {
          Child = StmtExprParent;
          continue;
        }
      return ResultUse::Discarded;
    }
    break;
  }
  return DroppedByComma ? ResultUse::Discarded : ResultUse::Used;
}

} // namespace gpuguard
