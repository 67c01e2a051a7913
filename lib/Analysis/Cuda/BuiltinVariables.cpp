//===--- BuiltinVariables.cpp - CUDA's built-in variables -----------------===//

#include "Analysis/Cuda/BuiltinVariables.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

std::string BuiltinComponent::spelling() const {
  const char *Base = "";
  switch (Kind) {
  case BuiltinVariable::ThreadIdx:
    Base = "threadIdx";
    break;
  case BuiltinVariable::BlockIdx:
    Base = "blockIdx";
    break;
  case BuiltinVariable::BlockDim:
    Base = "blockDim";
    break;
  case BuiltinVariable::GridDim:
    Base = "gridDim";
    break;
  }
  return std::string(Base) + "." + Dimension;
}

static std::optional<BuiltinVariable> kindOfVariable(const Expr *Base) {
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
  return llvm::StringSwitch<std::optional<BuiltinVariable>>(Var->getName())
      .Case("threadIdx", BuiltinVariable::ThreadIdx)
      .Case("blockIdx", BuiltinVariable::BlockIdx)
      .Case("blockDim", BuiltinVariable::BlockDim)
      .Case("gridDim", BuiltinVariable::GridDim)
      .Default(std::nullopt);
}

static std::optional<char> dimensionOf(StringRef Member) {
  if (Member == "x" || Member == "y" || Member == "z")
    return Member[0];
  return std::nullopt;
}

std::optional<BuiltinComponent> getBuiltinComponent(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E)) {
    auto Dim = dimensionOf(Prop->getPropertyDecl()->getName());
    auto Kind = kindOfVariable(Prop->getBaseExpr());
    if (Dim && Kind)
      return BuiltinComponent{*Kind, *Dim};
    return std::nullopt;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = Member->getMemberDecl();
    if (!Field->getIdentifier())
      return std::nullopt;
    auto Dim = dimensionOf(Field->getName());
    auto Kind = kindOfVariable(Member->getBase());
    if (Dim && Kind)
      return BuiltinComponent{*Kind, *Dim};
  }
  return std::nullopt;
}

} // namespace gpuguard
