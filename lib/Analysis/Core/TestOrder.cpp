//===--- TestOrder.cpp - Reads that come before their own test ------------===//

#include "Analysis/Core/TestOrder.h"
#include "Analysis/Core/ExprShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace gpuguard {

namespace {

/// Whether \p Test, an operand of a chain of \p Chain's operator, bounds
/// \p Index from above on the path that evaluates the rest: `i < n`, `i <=
/// n` under `&&`, `i >= n`, `i > n` under `||`; and, with \p StepsUp (the
/// chain is the test of a loop that increments the index), `i != end` and
/// `i == end`, which are an end test only for an index walking towards it.
bool boundsFromAbove(const BinaryOperator &Test, BinaryOperatorKind Chain,
                     const Expr *Index, bool StepsUp,
                     const ASTContext &Context) {
  if (!Test.isComparisonOp())
    return false;
  BinaryOperatorKind Op = Test.getOpcode();
  if (isSameValue(Test.getRHS(), Index, Context))
    Op = BinaryOperator::reverseComparisonOp(Op);
  else if (!isSameValue(Test.getLHS(), Index, Context))
    return false;
  if (Chain == BO_LAnd)
    return Op == BO_LT || Op == BO_LE || (StepsUp && Op == BO_NE);
  return Op == BO_GE || Op == BO_GT || (StepsUp && Op == BO_EQ);
}

/// Whether \p S, or a statement in it, steps the local \p Var up by a
/// constant (constantStep()).
bool increments(const Stmt *S, const VarDecl *Var, const ASTContext &Context) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (constantStep(S, Var, Context).value_or(0) > 0)
    return true;
  for (const Stmt *Child : S->children())
    if (increments(Child, Var, Context))
      return true;
  return false;
}

/// The subscripts and comparisons under an operand, outside lambdas.
struct OperandParts : RecursiveASTVisitor<OperandParts> {
  llvm::SmallVector<const ArraySubscriptExpr *, 2> Reads;
  llvm::SmallVector<const BinaryOperator *, 2> Comparisons;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Read) {
    Reads.push_back(Read);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isComparisonOp())
      Comparisons.push_back(BO);
    return true;
  }
};

struct ChainFinder : RecursiveASTVisitor<ChainFinder> {
  const ASTContext &Context;
  std::vector<ReadBeforeTest> Found;
  /// The `&&` and `||` nodes of loop tests, and the loop each tests.
  llvm::DenseMap<const BinaryOperator *, const Stmt *> LoopTests;
  explicit ChainFinder(const ASTContext &Context) : Context(Context) {}

  void addLoopTest(const Expr *Cond, const Stmt *Loop) {
    const auto *Chain =
        Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
    if (!Chain || !Chain->isLogicalOp())
      return;
    LoopTests[Chain] = Loop;
    addLoopTest(Chain->getLHS(), Loop);
    addLoopTest(Chain->getRHS(), Loop);
  }
  bool VisitWhileStmt(WhileStmt *Loop) {
    addLoopTest(Loop->getCond(), Loop);
    return true;
  }
  bool VisitDoStmt(DoStmt *Loop) {
    addLoopTest(Loop->getCond(), Loop);
    return true;
  }
  bool VisitForStmt(ForStmt *Loop) {
    addLoopTest(Loop->getCond(), Loop);
    return true;
  }
  /// Whether \p Chain is the test of a loop that increments \p Index.
  bool stepsUp(const BinaryOperator *Chain, const Expr *Index) const {
    const Stmt *Loop = LoopTests.lookup(Chain);
    const VarDecl *Var = asLocalVariable(Index);
    if (!Loop || !Var)
      return false;
    if (const auto *For = dyn_cast<ForStmt>(Loop))
      return increments(For->getInc(), Var, Context) ||
             increments(For->getBody(), Var, Context);
    if (const auto *While = dyn_cast<WhileStmt>(Loop))
      return increments(While->getBody(), Var, Context);
    return increments(cast<DoStmt>(Loop)->getBody(), Var, Context);
  }

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitBinaryOperator(BinaryOperator *Chain) {
    BinaryOperatorKind Op = Chain->getOpcode();
    if (Op != BO_LAnd && Op != BO_LOr)
      return true;
    // `a && b && c` is `(a && b) && c`: a read in `a` is paired with `b`
    // at the inner node and with `c` here, where `b`, if it tests the
    // index, already guards it.
    llvm::SmallVector<const Expr *, 4> Later;
    flattenChain(Chain->getRHS(), Op, Later);
    OperandParts Before;
    Before.TraverseStmt(const_cast<Expr *>(Chain->getLHS()));
    for (const ArraySubscriptExpr *Read : Before.Reads) {
      const Expr *Index = stripIndexCasts(Read->getIdx());
      if (integerConstant(Index, Context))
        continue;
      // A test of the index before the read, in the same operand
      // (`(i < n && a[i] > 0) && i < m`), already guards it.
      if (llvm::any_of(Before.Comparisons, [&](const BinaryOperator *C) {
            return isSameValue(C->getLHS(), Index, Context) ||
                   isSameValue(C->getRHS(), Index, Context);
          }))
        continue;
      bool StepsUp = stepsUp(Chain, Index);
      for (const Expr *Operand : Later)
        if (const auto *Test = dyn_cast<BinaryOperator>(Operand);
            Test && boundsFromAbove(*Test, Op, Index, StepsUp, Context)) {
          Found.push_back({Read, Test, Chain});
          break;
        }
    }
    return true;
  }
};

} // namespace

std::vector<ReadBeforeTest>
findReadsBeforeTheirTest(const Stmt &Body, const ASTContext &Context) {
  ChainFinder Finder(Context);
  Finder.TraverseStmt(const_cast<Stmt *>(&Body));
  return std::move(Finder.Found);
}

} // namespace gpuguard
