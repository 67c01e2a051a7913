//===--- SiteSupport.cpp - Shared pieces of runtime-check sites -----------===//

#include "Instrument/SiteSupport.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace gpuguard::instrument {

bool involvesMacro(const Expr &E) {
  return E.getBeginLoc().isMacroID() || E.getEndLoc().isMacroID();
}

std::optional<std::string> writtenText(const Expr &E,
                                       const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SourceRange Range = E.getSourceRange();
  if (Range.isInvalid() || involvesMacro(E) ||
      SM.getFileID(Range.getBegin()) != SM.getMainFileID() ||
      SM.getFileID(Range.getEnd()) != SM.getMainFileID())
    return std::nullopt;
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Range),
                                        SM, Context.getLangOpts(), &Invalid);
  if (Invalid || Text.empty())
    return std::nullopt;
  return Text.str();
}

bool isHostOnly(const FunctionDecl &Function) {
  return !Function.hasAttr<CUDAGlobalAttr>() &&
         !Function.hasAttr<CUDADeviceAttr>();
}

bool rejectsRuntimeChecks(const FunctionDecl &Function) {
  return Function.isConstexpr();
}

namespace {

/// True when \p Ref only reads its variable's value.
bool isPlainRead(const DeclRefExpr &Ref, ASTContext &Context) {
  DynTypedNode Node = DynTypedNode::create(Ref);
  while (true) {
    DynTypedNodeList Parents = Context.getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    if (Node.get<ParenExpr>())
      continue;
    const auto *Cast = Node.get<ImplicitCastExpr>();
    return Cast && Cast->getCastKind() == CK_LValueToRValue;
  }
}

/// True when \p S uses \p Var in any way but reading it: an assignment, an
/// increment, its address, a reference bound to it.
bool mayChange(const VarDecl &Var, const Stmt *S, ASTContext &Context) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl() == &Var && !isPlainRead(*Ref, Context))
      return true;
  for (const Stmt *Child : S->children())
    if (mayChange(Var, Child, Context))
      return true;
  return false;
}

/// True when the local \p Var is declared before \p Site in a statement
/// that encloses it.
bool isInScopeAt(const VarDecl &Var, const Expr &Site, ASTContext &Context) {
  DynTypedNodeList Parents = Context.getParents(Var);
  const auto *Declaration =
      Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!Declaration)
    return false;
  DynTypedNodeList Scopes = Context.getParents(*Declaration);
  const auto *Scope = Scopes.empty() ? nullptr : Scopes[0].get<Stmt>();
  if (!Scope)
    return false;
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Site.getBeginLoc());
  return SM.isBeforeInTranslationUnit(
             SM.getExpansionLoc(Declaration->getEndLoc()), At) &&
         SM.isBeforeInTranslationUnit(At,
                                      SM.getExpansionLoc(Scope->getEndLoc()));
}

} // namespace

bool isStableAt(const Expr &Value, const Expr &Site,
                const FunctionDecl &Function, ASTContext &Context) {
  const Expr *E = Value.IgnoreParens();
  if (getBuiltinComponent(E))
    return true;
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *Decl = Ref->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(Decl))
      return true;
    const auto *Var = dyn_cast<VarDecl>(Decl);
    if (!Var || !Var->getType()->isIntegralOrEnumerationType())
      return false;
    if (Var->hasGlobalStorage() && !Var->isStaticLocal())
      return Var->getType().isConstQualified();
    if (Var->getDeclContext() != &Function ||
        mayChange(*Var, Function.getBody(), Context))
      return false;
    return isa<ParmVarDecl>(Var) || isInScopeAt(*Var, Site, Context);
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (!isa<ImplicitCastExpr>(Cast) &&
        !Cast->getType()->isIntegralOrEnumerationType())
      return false;
    return isStableAt(*Cast->getSubExpr(), Site, Function, Context);
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return !Binary->isAssignmentOp() && Binary->getOpcode() != BO_Comma &&
           isStableAt(*Binary->getLHS(), Site, Function, Context) &&
           isStableAt(*Binary->getRHS(), Site, Function, Context);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    switch (Unary->getOpcode()) {
    case UO_Plus:
    case UO_Minus:
    case UO_Not:
    case UO_LNot:
      return isStableAt(*Unary->getSubExpr(), Site, Function, Context);
    default:
      return false;
    }
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return isStableAt(*Conditional->getCond(), Site, Function, Context) &&
           isStableAt(*Conditional->getTrueExpr(), Site, Function, Context) &&
           isStableAt(*Conditional->getFalseExpr(), Site, Function, Context);
  return false;
}

bool isRuntimeCallableCudaHostCode(const Stmt &S, ASTContext &Context) {
  if (!Context.getLangOpts().CUDA)
    return false;
  const FunctionDecl *Function = enclosingFunction(S, Context);
  return Function && isHostOnly(*Function) && !rejectsRuntimeChecks(*Function);
}

const Expr *wrappableAccessorObject(const CXXMemberCallExpr &Accessor) {
  const auto *Member =
      dyn_cast<MemberExpr>(Accessor.getCallee()->IgnoreParens());
  const Expr *Object = Accessor.getImplicitObjectArgument();
  if (!Member || Member->isArrow() || !Object ||
      isa<CXXThisExpr>(Object->IgnoreImplicit()))
    return nullptr;
  return Object;
}

} // namespace gpuguard::instrument
