//===--- LaunchArguments.cpp - What launches pass a kernel ----------------===//

#include "Analysis/Cuda/LaunchArguments.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace gpuguard::cuda {

namespace {

/// Locals are followed this many initialisers deep.
constexpr unsigned MaxDepth = 4;

/// The value behind \p E: through casts, and through the initialisers of
/// constants and of locals their function never assigns again.
const Expr *valueBehind(const Expr *E, unsigned Depth = 0) {
  E = stripIndexCasts(E);
  if (Depth >= MaxDepth)
    return E;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->getInit() || isa<ParmVarDecl>(Var))
    return E;
  if (!Var->getType().isConstQualified()) {
    const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
    if (!Var->hasLocalStorage() || !Function)
      return E;
    llvm::SmallPtrSet<const VarDecl *, 16> Assigned;
    collectAssignedVariables(Function->getBody(), Assigned);
    if (Assigned.contains(Var))
      return E;
  }
  return valueBehind(Var->getInit(), Depth + 1);
}

std::optional<ZeroArgumentKind>
zeroKindOf(const Expr *Value, const ASTContext &Context,
           const llvm::SmallPtrSetImpl<const VarDecl *> &MayChange) {
  if (Value->isValueDependent() || Value->isTypeDependent())
    return std::nullopt;
  if (std::optional<int64_t> Constant = integerConstant(Value, Context))
    return *Constant == 0 ? std::optional(ZeroArgumentKind::Zero)
                          : std::nullopt;
  const auto *Op = dyn_cast<BinaryOperator>(Value);
  if (!Op || !Op->getType()->isIntegerType())
    return std::nullopt;
  auto IsConstant = [&](const Expr *Side) {
    return integerConstant(Side, Context).has_value();
  };
  // A count split into chunks of a constant size (`n / 1024`) is 0 for
  // fewer than a chunk; a ratio of two sizes (`C / NH`) is whatever the
  // configuration makes it, no likelier zero than a parameter.
  if (Op->getOpcode() == BO_Div) {
    std::optional<int64_t> Divisor = integerConstant(Op->getRHS(), Context);
    if (!Divisor || *Divisor == 1 || *Divisor == -1 || IsConstant(Op->getLHS()))
      return std::nullopt;
    return ZeroArgumentKind::TruncatingQuotient;
  }
  if (differenceCanMeet(*Op, Context, &MayChange))
    return ZeroArgumentKind::Difference;
  return std::nullopt;
}

} // namespace

std::optional<ZeroArgument> zeroArgumentFor(const FunctionDecl &Kernel,
                                            const ParmVarDecl &Param,
                                            const KernelLaunches &Launches,
                                            ASTContext &Context) {
  unsigned Index = Param.getFunctionScopeIndex();
  for (const KernelLaunch &Launch : Launches.of(Kernel)) {
    const auto *Call = dyn_cast<CUDAKernelCallExpr>(Launch.Site);
    if (!Call || Index >= Call->getNumArgs())
      continue;
    const Expr *Argument = Call->getArg(Index);
    if (isa<CXXDefaultArgExpr>(Argument))
      continue;
    const Expr *Value = valueBehind(Argument);
    llvm::SmallPtrSet<const VarDecl *, 16> MayChange;
    if (const FunctionDecl *Caller = enclosingFunction(*Call, Context))
      collectAssignedVariables(Caller->getBody(), MayChange);
    if (std::optional<ZeroArgumentKind> Kind =
            zeroKindOf(Value, Context, MayChange))
      return ZeroArgument{*Kind, Argument, Value};
  }
  return std::nullopt;
}

} // namespace gpuguard::cuda
