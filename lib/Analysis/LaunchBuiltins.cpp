//===--- LaunchBuiltins.cpp - CUDA launch coordinate builtins -------------===//

#include "Analysis/LaunchBuiltins.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

std::string LaunchBuiltin::spelling() const {
  const char *Base = "";
  switch (Kind) {
  case LaunchBuiltinKind::ThreadIdx:
    Base = "threadIdx";
    break;
  case LaunchBuiltinKind::BlockIdx:
    Base = "blockIdx";
    break;
  case LaunchBuiltinKind::BlockDim:
    Base = "blockDim";
    break;
  case LaunchBuiltinKind::GridDim:
    Base = "gridDim";
    break;
  }
  return std::string(Base) + "." + Dimension;
}

const Expr *stripIndexCasts(const Expr *E) {
  while (E) {
    if (const auto *Paren = dyn_cast<ParenExpr>(E)) {
      E = Paren->getSubExpr();
      continue;
    }
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast)
      return E;
    // A float-to-integer conversion is where NaN becomes an index: keep it.
    if (Cast->getCastKind() == CK_FloatingToIntegral)
      return E;
    const Expr *Sub = Cast->getSubExpr();
    if (isa<ImplicitCastExpr>(Cast)) {
      E = Sub;
      continue;
    }
    QualType To = Cast->getType(), From = Sub->getType();
    if ((To->isIntegralOrEnumerationType() || To->isBooleanType()) &&
        (From->isIntegralOrEnumerationType() || From->isBooleanType())) {
      E = Sub;
      continue;
    }
    return E;
  }
  return E;
}

static std::optional<LaunchBuiltinKind> kindOfVariable(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  // The MS property form wraps the variable in an OpaqueValueExpr.
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Base))
    if (Opaque->getSourceExpr())
      Base = Opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasGlobalStorage() || !Var->getIdentifier())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<LaunchBuiltinKind>>(Var->getName())
      .Case("threadIdx", LaunchBuiltinKind::ThreadIdx)
      .Case("blockIdx", LaunchBuiltinKind::BlockIdx)
      .Case("blockDim", LaunchBuiltinKind::BlockDim)
      .Case("gridDim", LaunchBuiltinKind::GridDim)
      .Default(std::nullopt);
}

static std::optional<char> dimensionOf(StringRef Member) {
  if (Member == "x" || Member == "y" || Member == "z")
    return Member[0];
  return std::nullopt;
}

std::optional<LaunchBuiltin> getLaunchBuiltin(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E)) {
    auto Dim = dimensionOf(Prop->getPropertyDecl()->getName());
    auto Kind = kindOfVariable(Prop->getBaseExpr());
    if (Dim && Kind)
      return LaunchBuiltin{*Kind, *Dim};
    return std::nullopt;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = Member->getMemberDecl();
    if (!Field->getIdentifier())
      return std::nullopt;
    auto Dim = dimensionOf(Field->getName());
    auto Kind = kindOfVariable(Member->getBase());
    if (Dim && Kind)
      return LaunchBuiltin{*Kind, *Dim};
  }
  return std::nullopt;
}

} // namespace gpuguard
