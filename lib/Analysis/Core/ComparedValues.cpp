//===--- ComparedValues.cpp - What a function compares anywhere -----------===//

#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/KnownCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace gpuguard {

namespace {

/// `min`, `max`, `fminf`, `std::min`, `umin`, ...: a clamp bounds its
/// arguments as surely as a comparison does.
bool isMinMaxCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->getIdentifier() && classifyMinMax(Callee->getName());
}

bool isZero(const Expr *E, const ASTContext &Context) {
  std::optional<int64_t> Value = integerConstant(E, Context);
  return Value && *Value == 0;
}

bool isOne(const Expr *E, const ASTContext &Context) {
  std::optional<int64_t> Value = integerConstant(E, Context);
  return Value && *Value == 1;
}

} // namespace

ComparedValues::ComparedValues(const FunctionDecl &Function,
                               const ASTContext &Context)
    : Context(Context) {
  if (const Stmt *Body = Function.getBody())
    visit(Body);
}

unsigned ComparedValues::profileOf(const Expr *E) const {
  llvm::FoldingSetNodeID ID;
  stripIndexCasts(E)->Profile(ID, Context, /*Canonical=*/true);
  return ID.ComputeHash();
}

void ComparedValues::recordBounded(const Expr *E, const Expr *Comparison) {
  E = stripIndexCasts(E);
  BoundedOperands.push_back(E);
  // Visited in source order: the first comparison comes first.
  if (const VarDecl *Var = asLocalVariable(E))
    BoundedVariables[Var].push_back(Comparison);
  BoundedProfiles[profileOf(E)].push_back(Comparison);
}

void ComparedValues::recordZeroTested(const Expr *E) {
  E = stripIndexCasts(E);
  if (const VarDecl *Var = asLocalVariable(E))
    ZeroTestedVariables.insert(Var);
  ZeroTestedProfiles.insert(profileOf(E));
}

void ComparedValues::recordZeroComparison(const Expr *LHS, const Expr *RHS) {
  if (isZero(RHS, Context))
    recordZeroTested(LHS);
  else if (isZero(LHS, Context))
    recordZeroTested(RHS);
}

void ComparedValues::visit(const Stmt *S) {
  if (!S)
    return;
  if (const auto *Compare = dyn_cast<BinaryOperator>(S)) {
    const Expr *LHS = Compare->getLHS(), *RHS = Compare->getRHS();
    switch (Compare->getOpcode()) {
    case BO_LT:
    case BO_GE:
      // `n < 1` and `n >= 1` test for zero as `n <= 0` and `n > 0` do.
      if (isOne(RHS, Context))
        recordZeroTested(LHS);
      [[fallthrough]];
    case BO_LE:
    case BO_GT:
      recordZeroComparison(LHS, RHS);
      OrderingComparisons.push_back(Compare);
      // Either edge of `i < n` or `i >= n` bounds `i` by `n`; which side
      // is the bound is the caller's question.
      recordBounded(LHS, Compare);
      recordBounded(RHS, Compare);
      break;
    case BO_EQ:
    case BO_NE:
      recordZeroComparison(LHS, RHS);
      break;
    case BO_LAnd:
    case BO_LOr:
      if (!isa<BinaryOperator>(LHS->IgnoreParenImpCasts()))
        recordZeroTested(LHS);
      if (!isa<BinaryOperator>(RHS->IgnoreParenImpCasts()))
        recordZeroTested(RHS);
      break;
    default:
      break;
    }
  } else if (const auto *Not = dyn_cast<UnaryOperator>(S);
             Not && Not->getOpcode() == UO_LNot) {
    recordZeroTested(Not->getSubExpr());
  } else if (const auto *Call = dyn_cast<CallExpr>(S);
             Call && isMinMaxCall(Call)) {
    for (const Expr *Arg : Call->arguments())
      recordBounded(Arg, Call);
  } else if (const Expr *Condition = conditionOf(S)) {
    // `if (n)`: the condition itself is the zero test.
    if (!isa<BinaryOperator>(Condition->IgnoreParenImpCasts()) &&
        !isa<UnaryOperator>(Condition->IgnoreParenImpCasts()))
      recordZeroTested(Condition);
  }
  for (const Stmt *Child : S->children())
    visit(Child);
}

const Expr *ComparedValues::boundingComparison(const Expr *E) const {
  llvm::SmallVector<const Expr *, 4> All = boundingComparisons(E);
  return All.empty() ? nullptr : All.front();
}

llvm::SmallVector<const Expr *, 4>
ComparedValues::boundingComparisons(const Expr *E) const {
  E = stripIndexCasts(E);
  llvm::SmallVector<const Expr *, 4> All;
  if (const VarDecl *Var = asLocalVariable(E))
    if (auto It = BoundedVariables.find(Var); It != BoundedVariables.end())
      All.append(It->second.begin(), It->second.end());
  if (auto It = BoundedProfiles.find(profileOf(E)); It != BoundedProfiles.end())
    for (const Expr *Comparison : It->second)
      if (!llvm::is_contained(All, Comparison))
        All.push_back(Comparison);
  return All;
}

llvm::SmallVector<ComparedValues::StrictlyBelow, 4>
ComparedValues::valuesBelow(const VarDecl &Bound) const {
  llvm::SmallVector<StrictlyBelow, 4> Below;
  for (const BinaryOperator *Compare : OrderingComparisons) {
    const Expr *LHS = stripIndexCasts(Compare->getLHS());
    const Expr *RHS = stripIndexCasts(Compare->getRHS());
    BinaryOperatorKind Kind = Compare->getOpcode();
    if (asLocalVariable(RHS) == &Bound && (Kind == BO_LT || Kind == BO_GE))
      Below.push_back({LHS, Compare});
    else if (asLocalVariable(LHS) == &Bound && (Kind == BO_GT || Kind == BO_LE))
      Below.push_back({RHS, Compare});
  }
  return Below;
}

bool ComparedValues::isZeroTested(const Expr *E) const {
  E = stripIndexCasts(E);
  if (const VarDecl *Var = asLocalVariable(E); Var && isZeroTested(Var))
    return true;
  return ZeroTestedProfiles.contains(profileOf(E));
}

} // namespace gpuguard
