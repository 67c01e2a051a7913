//===--- ExprShape.cpp - What an expression is made of --------------------===//

#include "Analysis/Core/ExprShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace gpuguard {

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

std::optional<int64_t> integerConstant(const Expr *E,
                                       const ASTContext &Context) {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> Value = E->getIntegerConstantExpr(Context))
    if (Value->getSignificantBits() <= 63)
      return Value->getExtValue();
  return std::nullopt;
}

const VarDecl *asLocalVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  return Var && Var->hasLocalStorage() ? Var : nullptr;
}

const VarDecl *addressedLocalVariable(const Expr *E) {
  const auto *AddressOf = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  if (!AddressOf || AddressOf->getOpcode() != UO_AddrOf)
    return nullptr;
  return asLocalVariable(AddressOf->getSubExpr()->IgnoreParenCasts());
}

void collectReadVariables(const Expr *E,
                          llvm::SmallVectorImpl<const VarDecl *> &Out,
                          ReadScope Scope) {
  if (!E)
    return;
  const Expr *Bare = E->IgnoreParenImpCasts();
  const VarDecl *Var = nullptr;
  if (Scope == ReadScope::Locals)
    Var = asLocalVariable(Bare);
  else if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (Var && !llvm::is_contained(Out, Var))
    Out.push_back(Var);
  for (const Stmt *Child : E->children())
    collectReadVariables(dyn_cast_or_null<Expr>(Child), Out, Scope);
}

void flattenSum(const Expr *E, const ASTContext &Context,
                llvm::SmallVectorImpl<const Expr *> &Terms, int64_t &Constant) {
  E = stripIndexCasts(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add) {
      flattenSum(BO->getLHS(), Context, Terms, Constant);
      flattenSum(BO->getRHS(), Context, Terms, Constant);
      return;
    }
    if (BO->getOpcode() == BO_Sub)
      if (std::optional<int64_t> C = integerConstant(BO->getRHS(), Context)) {
        flattenSum(BO->getLHS(), Context, Terms, Constant);
        Constant -= *C;
        return;
      }
  }
  if (std::optional<int64_t> C = integerConstant(E, Context)) {
    Constant += *C;
    return;
  }
  Terms.push_back(E);
}

void flattenChain(const Expr *E, BinaryOperatorKind Op,
                  llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == Op) {
    flattenChain(BO->getLHS(), Op, Out);
    flattenChain(BO->getRHS(), Op, Out);
    return;
  }
  Out.push_back(E);
}

std::optional<BinaryOperation> asBinaryOperation(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  auto IsOperation = [](BinaryOperatorKind Op) {
    return BinaryOperator::isComparisonOp(Op) || Op == BO_LAnd || Op == BO_LOr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (IsOperation(BO->getOpcode()))
      return BinaryOperation{BO->getOpcode(), BO->getLHS(), BO->getRHS()};
    return std::nullopt;
  }
  const auto *Call = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Call || !Call->isTypeDependent() || Call->getNumArgs() != 2)
    return std::nullopt;
  switch (Call->getOperator()) {
  case OO_Less:
  case OO_LessEqual:
  case OO_Greater:
  case OO_GreaterEqual:
  case OO_EqualEqual:
  case OO_ExclaimEqual:
  case OO_AmpAmp:
  case OO_PipePipe:
    return BinaryOperation{
        BinaryOperator::getOverloadedOpcode(Call->getOperator()),
        Call->getArg(0), Call->getArg(1)};
  default:
    return std::nullopt;
  }
}

std::optional<std::pair<const Expr *, const Expr *>>
splitPointerSum(const Expr *E, bool AddressOfElement) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E);
        Cast && Cast->getSubExpr()->getType()->isPointerType()) {
      E = Cast->getSubExpr();
      continue;
    }
    break;
  }
  auto IsIndex = [](const Expr *Index) {
    return Index->getType()->isIntegralOrEnumerationType();
  };
  if (const auto *Sum = dyn_cast<BinaryOperator>(E);
      Sum && Sum->getOpcode() == BO_Add) {
    const Expr *L = Sum->getLHS(), *R = Sum->getRHS();
    if (L->getType()->isPointerType() && IsIndex(R))
      return std::make_pair(L, R);
    if (R->getType()->isPointerType() && IsIndex(L))
      return std::make_pair(R, L);
  }
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(E);
      AddressOfElement && AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    if (const auto *Subscript =
            dyn_cast<ArraySubscriptExpr>(AddrOf->getSubExpr()->IgnoreParens());
        Subscript && IsIndex(Subscript->getIdx()))
      return std::make_pair(Subscript->getBase(), Subscript->getIdx());
  return std::nullopt;
}

bool isSameValue(const Expr *A, const Expr *B, const ASTContext &Context) {
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IdA, IdB;
  stripIndexCasts(A)->Profile(IdA, Context, /*Canonical=*/true);
  stripIndexCasts(B)->Profile(IdB, Context, /*Canonical=*/true);
  return IdA == IdB;
}

/// The value of \p E when it is a constant, integer or floating point.
static std::optional<double> numericConstant(const Expr *E,
                                             const ASTContext &Context) {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsRValue(Result, Context))
    return std::nullopt;
  if (Result.Val.isInt())
    return static_cast<double>(Result.Val.getInt().getSExtValue());
  if (Result.Val.isFloat())
    return Result.Val.getFloat().convertToDouble();
  return std::nullopt;
}

bool isFractionOf(const Expr *Part, const Expr *Whole,
                  const ASTContext &Context,
                  const llvm::SmallPtrSetImpl<const VarDecl *> *MayChange) {
  if (!Part || !Whole)
    return false;
  // Truncation keeps a fraction of a whole below it: `(int)(0.8f * n)`.
  Part = Part->IgnoreParenCasts();
  if (const Expr *Init =
          MayChange ? unchangedInitializer(Part, *MayChange) : nullptr)
    Part = Init->IgnoreParenCasts();
  const auto *Op = dyn_cast<BinaryOperator>(Part);
  if (!Op)
    return false;
  const Expr *LHS = Op->getLHS(), *RHS = Op->getRHS();
  if (Op->getOpcode() == BO_Div) {
    std::optional<double> Divisor = numericConstant(RHS, Context);
    if (!Divisor || *Divisor < 2)
      return false;
    if (isSameValue(LHS->IgnoreParenCasts(), Whole->IgnoreParenCasts(),
                    Context))
      return true;
    // `Whole * a / b` with a < b.
    const auto *Product = dyn_cast<BinaryOperator>(LHS->IgnoreParenCasts());
    if (!Product || Product->getOpcode() != BO_Mul)
      return false;
    for (auto [Factor, Other] :
         {std::pair(Product->getLHS(), Product->getRHS()),
          std::pair(Product->getRHS(), Product->getLHS())})
      if (std::optional<double> Scale = numericConstant(Factor, Context);
          Scale && *Scale >= 0 && *Scale < *Divisor &&
          isSameValue(Other->IgnoreParenCasts(), Whole->IgnoreParenCasts(),
                      Context))
        return true;
    return false;
  }
  if (Op->getOpcode() == BO_Mul) {
    for (auto [Factor, Other] : {std::pair(LHS, RHS), std::pair(RHS, LHS)})
      if (std::optional<double> Scale = numericConstant(Factor, Context);
          Scale && *Scale >= 0 && *Scale < 1 &&
          isSameValue(Other->IgnoreParenCasts(), Whole->IgnoreParenCasts(),
                      Context))
        return true;
  }
  return false;
}

bool differenceCanMeet(
    const BinaryOperator &Minus, const ASTContext &Context,
    const llvm::SmallPtrSetImpl<const VarDecl *> *MayChange) {
  if (Minus.getOpcode() != BO_Sub || !Minus.getType()->isIntegerType())
    return false;
  const Expr *LHS = Minus.getLHS(), *RHS = Minus.getRHS();
  if (integerConstant(LHS, Context) || integerConstant(RHS, Context))
    return false;
  return !isFractionOf(RHS, LHS, Context, MayChange) &&
         !isFractionOf(LHS, RHS, Context, MayChange);
}

const Expr *conditionOf(const Stmt *S) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S))
    return If->getCond();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(S))
    return While->getCond();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S))
    return Do->getCond();
  if (const auto *For = dyn_cast_or_null<ForStmt>(S))
    return For->getCond();
  if (const auto *Conditional = dyn_cast_or_null<ConditionalOperator>(S))
    return Conditional->getCond();
  return nullptr;
}

const Expr *
unchangedInitializer(const Expr *E,
                     const llvm::SmallPtrSetImpl<const VarDecl *> &MayChange) {
  const VarDecl *Var = E ? asLocalVariable(stripIndexCasts(E)) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || MayChange.contains(Var) ||
      !Var->getInit() || Var->getType()->isReferenceType())
    return nullptr;
  return Var->getInit();
}

void collectLoopCounters(
    const Stmt *Body, llvm::DenseMap<const VarDecl *, const ForStmt *> &Out) {
  if (!Body)
    return;
  if (const auto *For = dyn_cast<ForStmt>(Body))
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
        Init && Init->isSingleDecl())
      if (const auto *Var = dyn_cast<VarDecl>(Init->getSingleDecl()))
        Out[Var] = For;
  for (const Stmt *Child : Body->children())
    collectLoopCounters(Child, Out);
}

void collectAssignedVariables(const Stmt *Body,
                              llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!Body)
    return;
  const Expr *Target = nullptr;
  if (const auto *Assign = dyn_cast<BinaryOperator>(Body);
      Assign && Assign->isAssignmentOp())
    Target = Assign->getLHS();
  // A class's assignment operator: `grid = dim3(n)`, `device = kCPU`.
  else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(Body);
           Call && Call->isAssignmentOp() && Call->getNumArgs() > 0)
    Target = Call->getArg(0);
  else if (const auto *Unary = dyn_cast<UnaryOperator>(Body);
           Unary &&
           (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf))
    Target = Unary->getSubExpr();
  // `block.x = n` changes `block`.
  while (Target) {
    const auto *Member = dyn_cast<MemberExpr>(stripIndexCasts(Target));
    if (!Member || Member->isArrow())
      break;
    Target = Member->getBase();
  }
  if (Target)
    if (const VarDecl *Var = asLocalVariable(stripIndexCasts(Target)))
      Out.insert(Var);
  for (const Stmt *Child : Body->children())
    collectAssignedVariables(Child, Out);
}

static void addVariableWrites(const Stmt *S, VariableWrites &Out) {
  if (!S)
    return;
  auto NamedVariable = [](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  };
  if (const auto *Op = dyn_cast<BinaryOperator>(S);
      Op && Op->isAssignmentOp()) {
    if (const VarDecl *Var = NamedVariable(Op->getLHS())) {
      if (Op->getOpcode() == BO_Assign) {
        Out.Assigned[Var].push_back(Op->getRHS());
      } else {
        Out.Combined[Var].push_back(Op->getRHS());
        Out.ChangedOtherwise.insert(Var);
      }
    }
  } else if (const auto *Op = dyn_cast<UnaryOperator>(S);
             Op &&
             (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)) {
    if (const VarDecl *Var = NamedVariable(Op->getSubExpr()))
      Out.ChangedOtherwise.insert(Var);
  }
  for (const Stmt *Child : S->children())
    addVariableWrites(Child, Out);
}

VariableWrites collectVariableWrites(const Stmt *Body) {
  VariableWrites Out;
  addVariableWrites(Body, Out);
  return Out;
}

const Expr *packedTriangleRowCount(const Expr *E, const ASTContext &Context) {
  const auto *Half = dyn_cast_or_null<BinaryOperator>(stripIndexCasts(E));
  if (!Half)
    return nullptr;
  std::optional<int64_t> Divisor = integerConstant(Half->getRHS(), Context);
  bool Halves = (Half->getOpcode() == BO_Div && Divisor == 2) ||
                (Half->getOpcode() == BO_Shr && Divisor == 1);
  if (!Halves)
    return nullptr;
  const auto *Product =
      dyn_cast<BinaryOperator>(stripIndexCasts(Half->getLHS()));
  if (!Product || Product->getOpcode() != BO_Mul)
    return nullptr;
  // The factors are the same sum of terms with constants one apart.
  const Expr *Left = stripIndexCasts(Product->getLHS());
  const Expr *Right = stripIndexCasts(Product->getRHS());
  llvm::SmallVector<const Expr *, 4> LeftTerms, RightTerms;
  int64_t LeftConstant = 0, RightConstant = 0;
  flattenSum(Left, Context, LeftTerms, LeftConstant);
  flattenSum(Right, Context, RightTerms, RightConstant);
  bool SameTerms =
      !LeftTerms.empty() &&
      llvm::equal(LeftTerms, RightTerms, [&](const Expr *A, const Expr *B) {
        return isSameValue(A, B, Context);
      });
  if (!SameTerms)
    return nullptr;
  if (RightConstant == LeftConstant + 1)
    return Right;
  if (LeftConstant == RightConstant + 1)
    return Left;
  return nullptr;
}

std::optional<int64_t> constantStep(const Stmt *S, const VarDecl *Var,
                                    const ASTContext &Context) {
  if (const auto *Expression = dyn_cast_or_null<Expr>(S))
    S = Expression->IgnoreParens();
  if (const auto *Step = dyn_cast_or_null<UnaryOperator>(S)) {
    if (!Step->isIncrementDecrementOp() ||
        asLocalVariable(Step->getSubExpr()->IgnoreParenImpCasts()) != Var)
      return std::nullopt;
    return Step->isIncrementOp() ? 1 : -1;
  }
  const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(S);
  if (!Step ||
      (Step->getOpcode() != BO_AddAssign &&
       Step->getOpcode() != BO_SubAssign) ||
      asLocalVariable(Step->getLHS()->IgnoreParenImpCasts()) != Var)
    return std::nullopt;
  std::optional<int64_t> Amount = integerConstant(Step->getRHS(), Context);
  if (!Amount)
    return std::nullopt;
  return Step->getOpcode() == BO_AddAssign ? *Amount : -*Amount;
}

std::optional<CountedLoop> countedLoop(const ForStmt &Loop,
                                       const ASTContext &Context) {
  CountedLoop Shape;
  const Stmt *Init = Loop.getInit();
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Init);
      Decl && Decl->isSingleDecl()) {
    Shape.Counter = dyn_cast<VarDecl>(Decl->getSingleDecl());
    if (Shape.Counter)
      Shape.Start = Shape.Counter->getInit();
  } else if (const auto *InitExpr = dyn_cast_or_null<Expr>(Init)) {
    const auto *Assign = dyn_cast<BinaryOperator>(InitExpr->IgnoreParens());
    if (Assign && Assign->getOpcode() == BO_Assign) {
      Shape.Counter = asLocalVariable(Assign->getLHS()->IgnoreParenImpCasts());
      Shape.Start = Assign->getRHS();
    }
  }
  const auto *Test =
      dyn_cast_or_null<BinaryOperator>(stripIndexCasts(Loop.getCond()));
  if (!Shape.Counter || !Shape.Start || !Test || !Test->isComparisonOp())
    return std::nullopt;
  Shape.Test = Test->getOpcode();
  if (asLocalVariable(stripIndexCasts(Test->getLHS())) == Shape.Counter) {
    Shape.Bound = Test->getRHS();
  } else if (asLocalVariable(stripIndexCasts(Test->getRHS())) ==
             Shape.Counter) {
    Shape.Bound = Test->getLHS();
    Shape.Test = BinaryOperator::reverseComparisonOp(Shape.Test);
  } else {
    return std::nullopt;
  }
  Shape.Step = constantStep(Loop.getInc(), Shape.Counter, Context);
  return Shape;
}

bool visitsWholeTilesOnly(const ForStmt &Loop, const Expr &Width,
                          const ASTContext &Context) {
  std::optional<CountedLoop> Shape = countedLoop(Loop, Context);
  if (!Shape || Shape->Test != BO_LT || Shape->Step != 1)
    return false;
  std::optional<int64_t> Start = integerConstant(Shape->Start, Context);
  const auto *Quotient =
      dyn_cast<BinaryOperator>(stripIndexCasts(Shape->Bound));
  if (!Start || *Start < 0 || !Quotient || Quotient->getOpcode() != BO_Div)
    return false;
  std::optional<int64_t> Divisor = integerConstant(Quotient->getRHS(), Context);
  std::optional<int64_t> Tile = integerConstant(&Width, Context);
  bool SameWidth = Divisor && Tile
                       ? *Divisor == *Tile && *Tile > 0
                       : isSameValue(Quotient->getRHS(), &Width, Context);
  // A numerator with something added before the division rounds up.
  llvm::SmallVector<const Expr *, 2> Terms;
  int64_t Added = 0;
  flattenSum(Quotient->getLHS(), Context, Terms, Added);
  return SameWidth && Terms.size() == 1 && Added <= 0;
}

bool entersAtLeastOnce(const ForStmt &Loop, const ASTContext &Context) {
  std::optional<CountedLoop> Shape = countedLoop(Loop, Context);
  if (!Shape)
    return false;
  std::optional<int64_t> Start = integerConstant(Shape->Start, Context);
  std::optional<int64_t> Bound = integerConstant(Shape->Bound, Context);
  if (!Start || !Bound)
    return false;
  switch (Shape->Test) {
  case BO_LT:
    return *Start < *Bound;
  case BO_LE:
    return *Start <= *Bound;
  case BO_GT:
    return *Start > *Bound;
  case BO_GE:
    return *Start >= *Bound;
  case BO_NE:
    return *Start != *Bound;
  default:
    return false;
  }
}

} // namespace gpuguard
