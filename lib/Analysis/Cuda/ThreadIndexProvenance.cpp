//===--- ThreadIndexProvenance.cpp - What a value derives from ------------===//

#include "Analysis/Cuda/ThreadIndexProvenance.h"
#include "Analysis/Core/ExprShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace gpuguard {

namespace {

/// One way a local variable receives a value.
struct Definition {
  const VarDecl *Var;
  const Expr *Value; ///< Null for ++ and --.
  SourceLocation Loc;
  bool IsArithmeticUpdate; ///< +=, ++ and friends combine with the old value.
};

const VarDecl *getLocalVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!Ref)
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
    return nullptr;
  return Var;
}

bool isTrackedType(QualType T) {
  return T->isIntegralOrEnumerationType() || T->isDependentType();
}

void collectDefinitions(const Stmt *S, SmallVectorImpl<Definition> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (Var->hasLocalStorage() && Var->getInit() &&
            isTrackedType(Var->getType()))
          Out.push_back({Var, Var->getInit(), Var->getLocation(), false});
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *Var = getLocalVariable(BO->getLHS()))
        if (isTrackedType(Var->getType()))
          Out.push_back({Var, BO->getRHS(), BO->getOperatorLoc(),
                         BO->isCompoundAssignmentOp()});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *Var = getLocalVariable(UO->getSubExpr()))
        if (isTrackedType(Var->getType()))
          Out.push_back({Var, nullptr, UO->getOperatorLoc(), true});
  }
  for (const Stmt *Child : S->children())
    collectDefinitions(Child, Out);
}

unsigned builtinBit(BuiltinVariable Kind) {
  switch (Kind) {
  case BuiltinVariable::ThreadIdx:
    return ValueOrigin::ThreadIdx;
  case BuiltinVariable::BlockIdx:
    return ValueOrigin::BlockIdx;
  case BuiltinVariable::BlockDim:
    return ValueOrigin::BlockDim;
  case BuiltinVariable::GridDim:
    return ValueOrigin::GridDim;
  }
  return 0;
}

/// What a builtin component is: its kind, and its axis if a coordinate.
ValueOrigin builtinOrigin(const BuiltinComponent &Builtin) {
  ValueOrigin Origin;
  Origin.Builtins = builtinBit(Builtin.Kind);
  if (Builtin.isCoordinate())
    Origin.CoordinateAxes = 1u << (Builtin.Dimension - 'x');
  return Origin;
}

/// The builtins a helper's body reads anywhere; a helper such as
/// `globalIndex()` passes them on through its result.
ValueOrigin builtinsReadBy(const Stmt *S) {
  ValueOrigin Origin;
  if (!S)
    return Origin;
  if (const auto *E = dyn_cast<Expr>(S))
    if (auto Builtin = getBuiltinComponent(E))
      return builtinOrigin(*Builtin);
  for (const Stmt *Child : S->children())
    Origin.add(builtinsReadBy(Child));
  return Origin;
}

bool isMemoryLoad(const Expr *E) {
  if (isa<ArraySubscriptExpr>(E))
    return true;
  // A field of a struct passed by value (`d.cols`) is a uniform value; one
  // reached through a pointer is a load.
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->isArrow();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
           Op->getOperator() == OO_Arrow;
  return false;
}

/// CUDA's and the C library's float-to-integer conversions, which, like a
/// cast, turn NaN and out-of-range values into garbage.
bool isFloatToIntegerConversion(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      !Call->getType()->isIntegralOrEnumerationType())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("__float2int") || Name.starts_with("__float2uint") ||
         Name.starts_with("__float2ll") || Name.starts_with("__float2ull") ||
         Name.starts_with("__double2int") ||
         Name.starts_with("__double2uint") || Name.starts_with("__double2ll") ||
         Name.starts_with("__double2ull") || Name.starts_with("lrint") ||
         Name.starts_with("llrint") || Name.starts_with("lround") ||
         Name.starts_with("llround");
}

/// Population counts and bit positions are small counts, not positions
/// derived from their argument (a compaction rank is `__popc(ballot & m)`).
bool isBitCount(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("__popc") || Name.starts_with("__clz") ||
         Name.starts_with("__ffs");
}

} // namespace

ThreadIndexProvenance::ThreadIndexProvenance(const FunctionDecl &Function,
                                             ASTContext &Context)
    : Context(Context) {
  SmallVector<Definition, 32> Defs;
  collectDefinitions(Function.getBody(), Defs);
  // Iterate to a fixpoint: a definition may read a variable that a later one
  // makes thread-dependent (loops). Origins only grow, so this terminates.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Definition &Def : Defs)
      recordDefinition(Def.Var, Def.Value, Def.Loc, Def.IsArithmeticUpdate,
                       Changed);
  }
}

void ThreadIndexProvenance::recordDefinition(const VarDecl *Var,
                                             const Expr *Value,
                                             SourceLocation Loc,
                                             bool IsArithmeticUpdate,
                                             bool &Changed) {
  ValueOrigin New = Value ? computeOrigin(Value, 0) : ValueOrigin();
  auto [It, Inserted] = Variables.try_emplace(Var);
  ValueOrigin &Old = It->second;
  if (Inserted)
    Old.IsBareCoordinate = true; // Refined by every definition below.
  unsigned Builtins = Old.Builtins | New.Builtins;
  unsigned Axes = Old.CoordinateAxes | New.CoordinateAxes;
  // A variable stays a bare coordinate only while every definition that
  // gives it a thread-dependent value copies one coordinate unchanged.
  bool Bare = Old.IsBareCoordinate &&
              (New.IsBareCoordinate || !New.isThreadDependent()) &&
              !(IsArithmeticUpdate &&
                (Old.isThreadDependent() || New.isThreadDependent()));
  if (Builtins != Old.Builtins || Axes != Old.CoordinateAxes ||
      Bare != Old.IsBareCoordinate) {
    Old.Builtins = Builtins;
    Old.CoordinateAxes = Axes;
    Old.IsBareCoordinate = Bare;
    Changed = true;
  }
  if ((New.isThreadDependent() || New.isLoaded() || New.isFromFloat()) &&
      !Definitions.count(Var))
    Definitions[Var] = {Value, Loc};
}

ValueOrigin ThreadIndexProvenance::originOf(const VarDecl *Var) const {
  auto It = Variables.find(Var);
  if (It == Variables.end())
    return {};
  ValueOrigin Origin = It->second;
  if (!Origin.isThreadDependent())
    Origin.IsBareCoordinate = false;
  return Origin;
}

const VariableDefinition *
ThreadIndexProvenance::definitionOf(const VarDecl *Var) const {
  auto It = Definitions.find(Var);
  return It == Definitions.end() ? nullptr : &It->second;
}

ValueOrigin ThreadIndexProvenance::originOf(const Expr *E) const {
  return computeOrigin(E, 0);
}

ValueOrigin ThreadIndexProvenance::computeOrigin(const Expr *E,
                                                 unsigned Depth) const {
  ValueOrigin Result;
  if (!E)
    return Result;
  E = stripIndexCasts(E);
  if (auto Builtin = getBuiltinComponent(E)) {
    Result = builtinOrigin(*Builtin);
    Result.IsBareCoordinate = Builtin->isCoordinate();
    return Result;
  }
  // Before looking through to a variable: `(int)pos` converts a float.
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    Result = computeOrigin(Cast->getSubExpr(), Depth);
    Result.IsBareCoordinate = false;
    if (Cast->getCastKind() == CK_FloatingToIntegral)
      Result.Builtins |= ValueOrigin::FromFloat;
    return Result;
  }
  if (const VarDecl *Var = getLocalVariable(E))
    return originOf(Var);
  if (isMemoryLoad(E)) {
    Result.Builtins = ValueOrigin::Loaded;
    return Result;
  }
  if (isa<DeclRefExpr, MemberExpr>(E))
    return Result;

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return computeOrigin(BO->getRHS(), Depth);
    Result.add(computeOrigin(BO->getLHS(), Depth));
    Result.add(computeOrigin(BO->getRHS(), Depth));
    return Result;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Result.add(computeOrigin(CO->getTrueExpr(), Depth));
    Result.add(computeOrigin(CO->getFalseExpr(), Depth));
    return Result;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    for (const Expr *Arg : Call->arguments())
      Result.add(computeOrigin(Arg, Depth));
    if (isFloatToIntegerConversion(Call))
      Result.Builtins |= ValueOrigin::FromFloat;
    if (isBitCount(Call))
      return ValueOrigin(); // At most 64, whatever the argument.
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Depth < 3 && Callee->hasBody() &&
          !Context.getSourceManager().isInSystemHeader(Callee->getLocation()))
        Result.add(builtinsReadBy(Callee->getBody()));
    return Result;
  }
  // Anything else (unary arithmetic, casts from floating point, dependent
  // expressions in templates) is thread-dependent when a part of it is.
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      Result.add(computeOrigin(ChildExpr, Depth));
  return Result;
}

static void collectInputs(const ThreadIndexProvenance &Provenance,
                          const Expr *E, SmallVectorImpl<std::string> &Inputs) {
  if (!E)
    return;
  E = E->IgnoreParenImpCasts();
  std::string Name;
  if (auto Builtin = getBuiltinComponent(E)) {
    Name = Builtin->spelling();
  } else if (const VarDecl *Var = getLocalVariable(E)) {
    if (Provenance.isThreadDependent(Var))
      Name = Var->getName().str();
  } else if (isMemoryLoad(E)) {
    return;
  } else {
    for (const Stmt *Child : E->children())
      collectInputs(Provenance, dyn_cast_or_null<Expr>(Child), Inputs);
    return;
  }
  if (!Name.empty() && !llvm::is_contained(Inputs, Name))
    Inputs.push_back(std::move(Name));
}

SmallVector<std::string, 4>
ThreadIndexProvenance::inputsOf(const Expr *E) const {
  SmallVector<std::string, 4> Inputs;
  collectInputs(*this, E, Inputs);
  return Inputs;
}

} // namespace gpuguard
