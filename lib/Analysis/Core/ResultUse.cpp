//===--- ResultUse.cpp - Whether a value is used or discarded -------------===//

#include "Analysis/Core/ResultUse.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

/// True when \p Parent runs \p Child as a statement of its own, so that the
/// value of an expression \p Child is thrown away.
static bool isStatementPosition(const Stmt *Parent, const Stmt *Child) {
  if (isa<CompoundStmt>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse() ||
           Child == If->getInit();
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getBody();
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getInit() || Child == For->getInc() ||
           Child == For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == RangeFor->getBody() || Child == RangeFor->getInit();
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    return Child == Switch->getBody() || Child == Switch->getInit();
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Child == Case->getSubStmt();
  if (const auto *Label = dyn_cast<LabelStmt>(Parent))
    return Child == Label->getSubStmt();
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Parent))
    return Child == Attributed->getSubStmt();
  return false;
}

static const Stmt *parentStmt(const Stmt &S, ASTContext &Context) {
  DynTypedNodeList Parents = Context.getParents(S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

ResultUse getResultUse(const Expr &E, ASTContext &Context) {
  // The left side of a comma is dropped whatever happens to the comma; only
  // an enclosing void cast can still say that this was deliberate.
  bool DroppedByComma = false;
  const Stmt *Child = &E;
  while (const Stmt *Parent = parentStmt(*Child, Context)) {
    if (isa<ParenExpr, ImplicitCastExpr, FullExpr>(Parent)) {
      Child = Parent;
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent)) {
      if (Cast->getType()->isVoidType())
        return ResultUse::DiscardedByVoidCast;
      Child = Parent;
      continue;
    }
    if (const auto *Comma = dyn_cast<BinaryOperator>(Parent);
        Comma && Comma->getOpcode() == BO_Comma) {
      if (Child == Comma->getLHS())
        DroppedByComma = true;
      Child = Parent;
      continue;
    }
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(Parent);
        Conditional && Child != Conditional->getCond()) {
      Child = Parent;
      continue;
    }
    if (isStatementPosition(Parent, Child)) {
      // `({ ...; f(); })`: the last statement is the statement expression's
      // value, which its own context uses or drops.
      const auto *Body = dyn_cast<CompoundStmt>(Parent);
      if (Body && !Body->body_empty() && Body->body_back() == Child)
        if (const auto *StmtExprParent =
                dyn_cast_or_null<StmtExpr>(parentStmt(*Body, Context))) {
          Child = StmtExprParent;
          continue;
        }
      return ResultUse::Discarded;
    }
    break;
  }
  return DroppedByComma ? ResultUse::Discarded : ResultUse::Used;
}

/// The index of the format argument of a printf-family function, or -1.
static int formatArgumentIndex(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || !Callee->isVariadic())
    return -1;
  return llvm::StringSwitch<int>(Callee->getName())
      .Case("printf", 0)
      .Cases({"fprintf", "sprintf"}, 1)
      .Case("snprintf", 2)
      .Default(-1);
}

/// Whether \p Type is a `std::basic_ostream` or a class derived from one.
static bool isOutputStream(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto IsBasicOstream = [](const CXXRecordDecl *Base) {
    return Base->getIdentifier() && Base->getName() == "basic_ostream" &&
           Base->isInStdNamespace();
  };
  if (IsBasicOstream(Record))
    return true;
  bool NoBaseIsOstream = Record->forallBases(
      [&](const CXXRecordDecl *Base) { return !IsBasicOstream(Base); });
  return !NoBaseIsOstream;
}

bool isOnlyFormatted(const Expr &E, ASTContext &Context, FormattedValue Kind) {
  auto Follows = [&](QualType Type) {
    return Kind == FormattedValue::Arithmetic ? Type->isArithmeticType()
                                              : Type->isRealFloatingType();
  };
  const Stmt *Child = &E;
  while (const Stmt *Parent = parentStmt(*Child, Context)) {
    if (isa<ParenExpr, FullExpr>(Parent)) {
      Child = Parent;
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(Parent)) {
      // For floating-point values, only to a floating type (the variadic
      // promotion to double among them): a conversion to an integer is what
      // makes NaN harmful.
      if (!Follows(Cast->getType()))
        return false;
      Child = Parent;
      continue;
    }
    if (const auto *Arithmetic = dyn_cast<BinaryOperator>(Parent)) {
      if (!Arithmetic->isMultiplicativeOp() && !Arithmetic->isAdditiveOp())
        return false;
      if (!Follows(Arithmetic->getType()))
        return false;
      Child = Parent;
      continue;
    }
    if (const auto *Sign = dyn_cast<UnaryOperator>(Parent)) {
      if (Sign->getOpcode() != UO_Minus && Sign->getOpcode() != UO_Plus)
        return false;
      Child = Parent;
      continue;
    }
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(Parent)) {
      if (Child == Conditional->getCond())
        return false;
      Child = Parent;
      continue;
    }
    if (const auto *Shift = dyn_cast<CXXOperatorCallExpr>(Parent))
      return Shift->getOperator() == OO_LessLess && Shift->getNumArgs() == 2 &&
             Shift->getArg(1) == Child &&
             isOutputStream(Shift->getArg(0)->getType());
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      int Format = formatArgumentIndex(*Call);
      if (Format < 0)
        return false;
      for (unsigned I = Format + 1; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == Child)
          return true;
      return false;
    }
    return false;
  }
  return false;
}

bool isPrintCall(const Expr &E) {
  const Expr *Stripped = E.IgnoreParenImpCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Stripped))
    Stripped = Cleanups->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Shift = dyn_cast<CXXOperatorCallExpr>(Stripped))
    return Shift->getOperator() == OO_LessLess && Shift->getNumArgs() == 2 &&
           isOutputStream(Shift->getArg(0)->getType());
  const auto *Call = dyn_cast<CallExpr>(Stripped);
  return Call && formatArgumentIndex(*Call) >= 0;
}

} // namespace gpuguard
