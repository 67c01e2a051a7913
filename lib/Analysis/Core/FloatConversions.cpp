//===--- FloatConversions.cpp - Where floating values become integers -----===//

#include "Analysis/Core/FloatConversions.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace gpuguard {

/// True when \p S contains \p Source or reads one of \p Carriers.
static bool carries(const Stmt *S, const Stmt *Source,
                    const llvm::SmallPtrSetImpl<const VarDecl *> &Carriers) {
  if (!S)
    return false;
  if (S == Source)
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Carriers.count(Var))
      return true;
  for (const Stmt *Child : S->children())
    if (carries(Child, Source, Carriers))
      return true;
  return false;
}

/// Calls \p Visit for every local that \p S defines, with its value.
static void forEachDefinition(
    const Stmt *S,
    llvm::function_ref<void(const VarDecl *, const Expr *)> Visit) {
  if (!S)
    return;
  if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : Declaration->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit())
        Visit(Var, Var->getInit());
  } else if (const auto *Assignment = dyn_cast<BinaryOperator>(S);
             Assignment && Assignment->isAssignmentOp()) {
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(Assignment->getLHS()->IgnoreParenImpCasts()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Visit(Var, Assignment->getRHS());
  }
  for (const Stmt *Child : S->children())
    forEachDefinition(Child, Visit);
}

std::optional<FloatToIntegerConversion>
getFloatToIntegerConversion(const Stmt *S) {
  const auto *Cast = dyn_cast_or_null<CastExpr>(S);
  if (!Cast)
    return std::nullopt;
  if (isa<ExplicitCastExpr>(Cast)) {
    const Expr *Inner = Cast;
    while (const auto *Sub = dyn_cast<CastExpr>(Inner)) {
      if (Sub->getCastKind() == CK_FloatingToIntegral)
        return FloatToIntegerConversion{Cast->getBeginLoc(), Sub->getSubExpr()};
      Inner = Sub->getSubExpr();
      if (const auto *Implicit = dyn_cast<ImplicitCastExpr>(Inner);
          !Implicit || !Implicit->isPartOfExplicitCast())
        return std::nullopt;
    }
    return std::nullopt;
  }
  const auto *Implicit = cast<ImplicitCastExpr>(Cast);
  if (Implicit->getCastKind() != CK_FloatingToIntegral ||
      Implicit->isPartOfExplicitCast())
    return std::nullopt;
  return FloatToIntegerConversion{Implicit->getBeginLoc(),
                                  Implicit->getSubExpr()};
}

llvm::SmallVector<FloatToIntegerConversion, 2>
conversionsFedBy(const Expr &Source, const Stmt &Body) {
  // The floating-point locals that take the value on, to a fixed point.
  llvm::SmallPtrSet<const VarDecl *, 4> Carriers;
  for (bool Changed = true; Changed;) {
    Changed = false;
    forEachDefinition(&Body, [&](const VarDecl *Var, const Expr *Value) {
      if (Var->getType()->isRealFloatingType() && !Carriers.count(Var) &&
          carries(Value, &Source, Carriers))
        Changed |= Carriers.insert(Var).second;
    });
  }
  llvm::SmallVector<FloatToIntegerConversion, 2> Conversions;
  llvm::SmallVector<const Stmt *, 32> Worklist{&Body};
  // Depth first, children in order, so conversions come in source order.
  while (!Worklist.empty()) {
    const Stmt *S = Worklist.pop_back_val();
    if (!S)
      continue;
    if (std::optional<FloatToIntegerConversion> Found =
            getFloatToIntegerConversion(S);
        Found && carries(Found->Value, &Source, Carriers))
      Conversions.push_back(*Found);
    llvm::SmallVector<const Stmt *, 4> Children(S->children());
    Worklist.append(Children.rbegin(), Children.rend());
  }
  return Conversions;
}

} // namespace gpuguard
