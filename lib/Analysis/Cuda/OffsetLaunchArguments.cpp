//===--- OffsetLaunchArguments.cpp - Offset pointers past their end -------===//

#include "Analysis/Cuda/OffsetLaunchArguments.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Cuda/CudaApi.h"
#include "Analysis/Cuda/DeviceMemoryLifetime.h"
#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace gpuguard::cuda {

namespace {

/// Calls \p Visit on every statement under \p S, \p S included.
void forEachStmt(const Stmt *S, llvm::function_ref<void(const Stmt *)> Visit) {
  if (!S)
    return;
  Visit(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, Visit);
}

/// The factors of a product, casts and parentheses stripped, through the
/// initialisers of the locals the function never assigns (`bytes`, a
/// `const int n = 1000`).
void collectFactors(const Expr *E,
                    const llvm::SmallPtrSetImpl<const VarDecl *> &Assigned,
                    llvm::SmallVectorImpl<const Expr *> &Out,
                    unsigned Depth = 0) {
  E = stripIndexCasts(E);
  if (const VarDecl *Var = asLocalVariable(E);
      Var && Depth < 4 && !isa<ParmVarDecl>(Var) && Var->getInit() &&
      !Assigned.contains(Var)) {
    collectFactors(Var->getInit(), Assigned, Out, Depth + 1);
    return;
  }
  if (const auto *Product = dyn_cast<BinaryOperator>(E);
      Product && Product->getOpcode() == BO_Mul) {
    collectFactors(Product->getLHS(), Assigned, Out, Depth);
    collectFactors(Product->getRHS(), Assigned, Out, Depth);
    return;
  }
  Out.push_back(E);
}

/// Whether the factors of \p A and \p B are the same values, in any order.
bool sameFactors(llvm::ArrayRef<const Expr *> A,
                 llvm::SmallVector<const Expr *, 4> B,
                 const ASTContext &Context) {
  if (A.size() != B.size())
    return false;
  for (const Expr *Factor : A) {
    auto Match = llvm::find_if(B, [&](const Expr *Other) {
      return isSameValue(Factor, Other, Context);
    });
    if (Match == B.end())
      return false;
    B.erase(Match);
  }
  return true;
}

/// `base + off`, `off + base` and `&base[off]`: the base variable and the
/// offset, unless the offset is a constant zero.
std::pair<const VarDecl *, const Expr *> offsetPointer(const Expr *Argument,
                                                       ASTContext &Context) {
  auto Sum = splitPointerSum(Argument, /*AddressOfElement=*/true);
  if (!Sum)
    return {nullptr, nullptr};
  auto [Base, Offset] = *Sum;
  std::optional<int64_t> Constant = integerConstant(Offset, Context);
  if (Constant && *Constant == 0)
    return {nullptr, nullptr};
  return {asLocalVariable(Base->IgnoreParenImpCasts()), Offset};
}

/// How many times \p Index steps over \p Value: 1 for `i`, 2 for `2 * i`,
/// `i * 2` and `i + i`; none for anything else, a constant added included
/// (`i + 1` is the guard analysis' to judge).
std::optional<int64_t> scaleOver(const Expr *Index, const Expr *Value,
                                 const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Index, Context, Terms, Constant);
  if (Constant != 0 || Terms.empty())
    return std::nullopt;
  if (llvm::all_of(Terms, [&](const Expr *Term) {
        return isSameValue(Term, Value, Context);
      }))
    return static_cast<int64_t>(Terms.size());
  if (Terms.size() != 1)
    return std::nullopt;
  const auto *Product = dyn_cast<BinaryOperator>(stripIndexCasts(Terms[0]));
  if (!Product || Product->getOpcode() != BO_Mul)
    return std::nullopt;
  for (auto [Factor, Other] : {std::pair(Product->getLHS(), Product->getRHS()),
                               std::pair(Product->getRHS(), Product->getLHS())})
    if (std::optional<int64_t> Scale = integerConstant(Factor, Context);
        Scale && *Scale >= 2 && isSameValue(Other, Value, Context))
      return Scale;
  return std::nullopt;
}

/// In \p Kernel, an access through \p Pointer whose index is a value the
/// kernel compares with \p Bound as a strict upper bound (`i < n`, `i >= n`
/// to leave, `n > i`), or a multiple of one; with \p MinScale 2, only a
/// multiple. The access, the comparison and the multiple, or nulls.
struct IndexUnderBound {
  const Expr *Access = nullptr;
  const Expr *Comparison = nullptr;
  const Expr *Value = nullptr;
  int64_t Scale = 1;
};
IndexUnderBound indexBelowBound(const FunctionDecl &Kernel,
                                const ParmVarDecl &Pointer,
                                const ParmVarDecl &Bound, int64_t MinScale,
                                const ASTContext &Context) {
  llvm::SmallVector<ComparedValues::StrictlyBelow, 4> Below =
      ComparedValues(Kernel, Context).valuesBelow(Bound);
  IndexUnderBound Result;
  if (Below.empty())
    return Result;
  forEachStmt(Kernel.getBody(), [&](const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    if (Result.Access || !E)
      return;
    std::optional<IndexedAccess> Access = getIndexedAccess(E);
    if (!Access || Access->BaseOffset ||
        asLocalVariable(Access->Base->IgnoreParenCasts()) != &Pointer)
      return;
    for (const auto &[Value, Comparison] : Below)
      if (std::optional<int64_t> Scale =
              scaleOver(Access->Index, Value, Context);
          Scale && *Scale >= MinScale) {
        Result = {Access->Access, Comparison, Value, *Scale};
        return;
      }
  });
  return Result;
}

} // namespace

const CallExpr *soleDeviceAllocation(
    const VarDecl &Buffer, const Stmt *Body, ASTContext &Context,
    const llvm::SmallPtrSetImpl<const VarDecl *> &AssignedInCaller,
    llvm::SmallVectorImpl<const Expr *> &Count) {
  const CallExpr *Found = nullptr;
  bool Ambiguous = false;
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *Assign = dyn_cast<BinaryOperator>(S);
        Assign && Assign->isAssignmentOp() &&
        asLocalVariable(Assign->getLHS()->IgnoreParenImpCasts()) == &Buffer)
      Ambiguous = true;
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Call)
      return;
    // A call that takes the buffer's address may set it: only a device
    // allocation is understood.
    bool TakesAddress = llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return addressedLocalVariable(Arg) == &Buffer;
    });
    if (!TakesAddress)
      return;
    std::optional<MemoryFamily> Family;
    if (Callee && Callee->getIdentifier())
      Family = allocatedFamily(canonicalApiName(Callee->getName()));
    if (Found || !Family || *Family != MemoryFamily::Device ||
        Call->getNumArgs() < 2 ||
        addressedLocalVariable(Call->getArg(0)) != &Buffer) {
      Ambiguous = true;
      return;
    }
    Found = Call;
  });
  if (!Found || Ambiguous)
    return nullptr;
  QualType Element = Buffer.getType()->getPointeeType();
  if (Element.isNull())
    return nullptr;
  llvm::SmallVector<const Expr *, 4> Factors;
  collectFactors(Found->getArg(1), AssignedInCaller, Factors);
  auto Size = llvm::find_if(Factors, [&](const Expr *Factor) {
    const auto *SizeOf = dyn_cast<UnaryExprOrTypeTraitExpr>(Factor);
    return SizeOf && SizeOf->getKind() == UETT_SizeOf &&
           Context.hasSameUnqualifiedType(SizeOf->getTypeOfArgument(), Element);
  });
  if (Size == Factors.end())
    return nullptr;
  Factors.erase(Size);
  if (Factors.empty())
    return nullptr;
  Count.append(Factors.begin(), Factors.end());
  return Found;
}

std::vector<OffsetPastAllocation>
offsetLaunchesPastAllocation(const FunctionDecl &Kernel,
                             const KernelLaunches &Launches,
                             ASTContext &Context) {
  std::vector<OffsetPastAllocation> Found;
  for (const KernelLaunch &Launch : Launches.of(Kernel)) {
    const auto *Call = dyn_cast<CUDAKernelCallExpr>(Launch.Site);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || Callee->getNumParams() != Call->getNumArgs())
      continue;
    const FunctionDecl *Caller = enclosingFunction(*Call, Context);
    if (!Caller || !Caller->hasBody())
      continue;
    llvm::SmallPtrSet<const VarDecl *, 16> AssignedInCaller;
    collectAssignedVariables(Caller->getBody(), AssignedInCaller);
    for (unsigned P = 0; P < Call->getNumArgs(); ++P) {
      if (!Callee->getParamDecl(P)->getType()->isPointerType())
        continue;
      // An offset pointer, or the allocation itself for an index that steps
      // by more than one element.
      auto [Buffer, Offset] = offsetPointer(Call->getArg(P), Context);
      if (!Buffer)
        Buffer = asLocalVariable(Call->getArg(P)->IgnoreParenImpCasts());
      if (!Buffer)
        continue;
      llvm::SmallVector<const Expr *, 4> Count;
      const CallExpr *Allocation = soleDeviceAllocation(
          *Buffer, Caller->getBody(), Context, AssignedInCaller, Count);
      if (!Allocation)
        continue;
      // The count parameter the launch passes the allocation's count for.
      for (unsigned B = 0; B < Call->getNumArgs(); ++B) {
        const ParmVarDecl *Bound = Callee->getParamDecl(B);
        if (B == P || !Bound->getType()->isIntegerType())
          continue;
        llvm::SmallVector<const Expr *, 4> Passed;
        collectFactors(Call->getArg(B), AssignedInCaller, Passed);
        if (!sameFactors(Count, Passed, Context))
          continue;
        // The kernel's own parameters: a template's instantiation launched.
        const FunctionDecl &Body = *Callee;
        IndexUnderBound Index =
            indexBelowBound(Body, *Body.getParamDecl(P), *Body.getParamDecl(B),
                            Offset ? 1 : 2, Context);
        if (!Index.Access)
          continue;
        Found.push_back({Call, Call->getArg(P), Offset, Buffer, Allocation,
                         Body.getParamDecl(P), Bound, Call->getArg(B),
                         Index.Access, Index.Comparison, Index.Value,
                         Index.Scale});
        break;
      }
    }
  }
  return Found;
}

} // namespace gpuguard::cuda
