//===--- DivisionSites.cpp - Runtime checks of divisions ------------------===//

#include "Instrument/Cuda/DivisionSites.h"
#include "Analysis/Core/FloatConversions.h"
#include "Analysis/Core/SourceText.h"
#include "Instrument/SiteSupport.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace gpuguard::instrument {

void addDivisionSites(Recorder &R, const BinaryOperator &Division,
                      DivisionSort Sort, const FunctionDecl &Function,
                      ASTContext &Context, StringRef Check,
                      SourceLocation Flagged) {
  if (rejectsRuntimeChecks(Function))
    return;
  const Expr *Divisor = Division.getRHS();
  if (Sort == DivisionSort::Integer) {
    // A zero integer divisor is undefined behaviour: it becomes 1.
    SourceLocation Loc = Division.getOperatorLoc();
    if (Loc.isMacroID() || involvesMacro(*Divisor)) {
      R.skipSite(Context, Loc);
      return;
    }
    // A constant divisor is known at compile time, and may sit where only
    // constants may (a template argument, an array bound).
    if (Divisor->isTypeDependent() || Divisor->isValueDependent() ||
        !Divisor->getType()->isIntegralOrEnumerationType() ||
        Divisor->isIntegerConstantExpr(Context))
      return;
    int Site = R.addSite(Context, Loc, SiteKind::NonZeroDivisor, Check,
                         quoteSource(Divisor->IgnoreParenImpCasts(), Context),
                         &Function, Flagged);
    R.wrap(Context, Site, Divisor, entryPointCall(SiteKind::NonZeroDivisor),
           ", @SITE@)");
    return;
  }
  // A floating-point zero divisor gives inf or NaN, which is harmful where it
  // becomes an integer: that conversion is checked.
  for (auto [Loc, Value] : conversionsFedBy(Division, *Function.getBody())) {
    if (Loc.isMacroID() || involvesMacro(*Value)) {
      R.skipSite(Context, Loc);
      continue;
    }
    const auto *Builtin = Value->getType()->getAs<BuiltinType>();
    if (!Builtin || !Builtin->isFloatingPoint() ||
        Builtin->getKind() == BuiltinType::Half ||
        Builtin->getKind() == BuiltinType::Float16)
      continue;
    int Site = R.addSite(Context, Loc, SiteKind::FiniteBeforeCast, Check,
                         quoteSource(Value->IgnoreParenImpCasts(), Context),
                         &Function, Flagged);
    R.wrap(Context, Site, Value, entryPointCall(SiteKind::FiniteBeforeCast),
           ", @SITE@)");
  }
}

} // namespace gpuguard::instrument
