//===--- DereferencedParameters.cpp - Calls that access their pointer -----===//

#include "Analysis/Cuda/DereferencedParameters.h"
#include "Analysis/Core/ExprShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

bool isDereferencingIntrinsic(StringRef Name) {
  // The load and store intrinsics of sm_32_intrinsics.h and the atomics of
  // the CUDA programming guide: each accesses the element at argument 0.
  if (Name.starts_with("atomic"))
    return true;
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"}, true)
      .Cases({"__stwb", "__stcg", "__stcs", "__stwt"}, true)
      .Default(false);
}

/// Whether \p E is \p Param, through any cast: a pointer is reinterpreted
/// to load a vector (`reinterpret_cast<const int4 *>(p)`).
static bool namesParameter(const Expr *E, const ParmVarDecl *Param) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  return Ref && Ref->getDecl() == Param;
}

namespace {

/// Finds an access through a parameter at offset zero in a helper's body.
class ParameterUse : public RecursiveASTVisitor<ParameterUse> {
public:
  ParameterUse(const ParmVarDecl *Param, ASTContext &Context,
               llvm::function_ref<bool(const CallExpr &, unsigned)> Passes)
      : Param(Param), Context(Context), Passes(Passes) {}

  bool Found = false;

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_Deref && namesParameter(UO->getSubExpr(), Param))
      Found = true;
    return !Found;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    std::optional<int64_t> Index =
        integerConstant(Subscript->getIdx(), Context);
    if (Index && *Index == 0 && namesParameter(Subscript->getBase(), Param))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    for (unsigned I = 0; I < Call->getNumArgs() && !Found; ++I)
      if (namesParameter(Call->getArg(I), Param) && Passes(*Call, I))
        Found = true;
    return !Found;
  }

private:
  const ParmVarDecl *Param;
  ASTContext &Context;
  llvm::function_ref<bool(const CallExpr &, unsigned)> Passes;
};

} // namespace

bool DereferencedParameters::dereferences(const CallExpr &Call, unsigned Arg) {
  return Arg < Call.getNumArgs() &&
         calleeDereferences(Call.getDirectCallee(), Arg, 0);
}

bool DereferencedParameters::calleeDereferences(const FunctionDecl *Callee,
                                                unsigned Arg, unsigned Depth) {
  if (!Callee || Depth > 3)
    return false;
  const SourceManager &Sources = Context.getSourceManager();
  const FunctionDecl *Definition = nullptr;
  // The toolkit's intrinsics are known by name, whatever their bodies say.
  if (Sources.isInSystemHeader(Callee->getLocation()) ||
      !Callee->hasBody(Definition) ||
      Sources.isInSystemHeader(Definition->getLocation()))
    return Arg == 0 && Callee->getIdentifier() &&
           isDereferencingIntrinsic(Callee->getName());
  return Definition->hasAttr<CUDADeviceAttr>() &&
         Arg < Definition->getNumParams() &&
         helperDereferences(*Definition, Arg, Depth);
}

bool DereferencedParameters::helperDereferences(const FunctionDecl &Helper,
                                                unsigned Param,
                                                unsigned Depth) {
  auto Key = std::make_pair(&Helper, Param);
  if (auto It = Known.find(Key); It != Known.end())
    return It->second;
  // Assumed false while it is being decided, so recursion ends.
  Known[Key] = false;
  const ParmVarDecl *Parameter = Helper.getParamDecl(Param);
  if (!Parameter->getType()->isPointerType() || !Helper.getBody())
    return false;
  // A parameter the helper moves (`p += 4`) no longer points where the
  // caller's did.
  llvm::SmallPtrSet<const VarDecl *, 8> Assigned;
  collectAssignedVariables(Helper.getBody(), Assigned);
  if (Assigned.count(Parameter))
    return false;
  auto Passes = [&](const CallExpr &Inner, unsigned Arg) {
    return calleeDereferences(Inner.getDirectCallee(), Arg, Depth + 1);
  };
  ParameterUse Use(Parameter, Context, Passes);
  Use.TraverseStmt(const_cast<Stmt *>(Helper.getBody()));
  return Known[Key] = Use.Found;
}

} // namespace gpuguard
