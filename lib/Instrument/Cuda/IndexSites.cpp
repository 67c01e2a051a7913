//===--- IndexSites.cpp - Runtime checks of device indexes ----------------===//

#include "Instrument/Cuda/IndexSites.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/SourceText.h"
#include "Instrument/SiteSupport.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace gpuguard::instrument {

/// A variable or a member of one (`p`, `s.p`, `this->p`): a pointer that
/// can be read again, unchanged, to find its allocation.
static bool isNamedPointer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(E))
    E = Member->getBase()->IgnoreParenImpCasts();
  return isa<DeclRefExpr, CXXThisExpr>(E);
}

std::optional<std::string>
runtimeIndexBound(const UnguardedAccess &Finding, const FunctionDecl &Function,
                  ASTContext &Context, const llvm::Regex *ExtentPlusOneArrays) {
  const IndexedAccess &Access = Finding.Access;
  // A constant array's extent is exact, whatever the guards say.
  if (const auto *Array = Context.getAsConstantArrayType(
          Access.Base->IgnoreParenImpCasts()->getType()))
    return std::to_string(Array->getSize().getZExtValue());
  if (Finding.Problems.empty())
    return std::nullopt;
  // Otherwise the bound the guard compares with, when the guard was meant
  // for this index: it bounds the index, or the index is it plus a constant
  // or a launch extent (`i + 1`, `i + blockDim.x` under `i < n`).
  const IndexProblem &Problem = Finding.Problems.front();
  if (Problem.Kind != IndexProblemKind::OnePastTheBound &&
      Problem.Kind != IndexProblemKind::OffsetNotCovered &&
      Problem.Kind != IndexProblemKind::LaunchExtentOffset)
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t IgnoredConstant = 0;
  flattenSum(Access.Index, Context, Terms, IgnoredConstant);
  const Expr *Part = stripIndexCasts(Problem.Part);
  const Expr *Addend =
      Problem.Addend ? stripIndexCasts(Problem.Addend) : nullptr;
  if (!llvm::is_contained(Terms, Part) ||
      llvm::any_of(Terms, [&](const Expr *Term) {
        return Term != Part && Term != Addend;
      }))
    return std::nullopt;
  // Such arrays hold one element more than the bound of their index.
  if (ExtentPlusOneArrays) {
    const Expr *Base = Access.Base->IgnoreParenImpCasts();
    const NamedDecl *Named = nullptr;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
      Named = Ref->getDecl();
    else if (const auto *Member = dyn_cast<MemberExpr>(Base))
      Named = Member->getMemberDecl();
    if (!Named || !Named->getIdentifier() ||
        ExtentPlusOneArrays->match(Named->getName()))
      return std::nullopt;
  }
  const Expr *Bound = Problem.Bound;
  if (!Bound || !isStableAt(*Bound, *Access.Access, Function, Context))
    return std::nullopt;
  // A bound with an offset of its own (`i < n - 1`) leaves the extent open.
  llvm::SmallVector<const Expr *, 4> BoundTerms;
  flattenSum(Bound, Context, BoundTerms, IgnoredConstant);
  if (BoundTerms.size() != 1 || BoundTerms.front() != stripIndexCasts(Bound))
    return std::nullopt;
  return writtenText(*Bound, Context);
}

void addIndexSite(Recorder &R, const UnguardedAccess &Finding,
                  const FunctionDecl &Function, ASTContext &Context,
                  StringRef Check, SourceLocation Flagged,
                  const llvm::Regex *ExtentPlusOneArrays) {
  // An index passed to a helper is used there, where other callers pass
  // other indexes: it is left out.
  if (Finding.Helper || rejectsRuntimeChecks(Function))
    return;
  const IndexedAccess &Access = Finding.Access;
  SourceLocation Loc = Access.Access->getBeginLoc();
  if (involvesMacro(*Access.Access) || involvesMacro(*Access.Index)) {
    R.skipSite(Context, Loc);
    return;
  }
  // `*(p - i)` reads element -i: neither runtime check applies.
  if (const auto *Deref = dyn_cast<UnaryOperator>(Access.Access))
    if (const auto *Difference = dyn_cast<BinaryOperator>(
            Deref->getSubExpr()->IgnoreParenImpCasts());
        Difference && Difference->getOpcode() == BO_Sub)
      return;
  std::string What = quoteSource(Access.Access, Context);
  if (std::optional<std::string> Bound =
          runtimeIndexBound(Finding, Function, Context, ExtentPlusOneArrays)) {
    int Site = R.addSite(Context, Loc, SiteKind::IndexBound, Check, What,
                         &Function, Flagged);
    R.wrap(Context, Site, Access.Index, entryPointCall(SiteKind::IndexBound),
           ", " + *Bound + ", @SITE@)");
    return;
  }
  // Else the allocation the pointer points into, if the runtime knows it.
  const Expr *Base = Access.Base->IgnoreParenImpCasts();
  if (!Base->getType()->isPointerType() || !isNamedPointer(Base))
    return;
  std::optional<std::string> BaseText = writtenText(*Base, Context);
  if (!BaseText)
    return;
  int Site = R.addSite(Context, Loc, SiteKind::PointerBound, Check, What,
                       &Function, Flagged);
  R.wrap(Context, Site, Access.Index,
         entryPointCall(SiteKind::PointerBound) + *BaseText + ", ",
         ", @SITE@)");
}

} // namespace gpuguard::instrument
