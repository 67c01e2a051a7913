//===--- GuardAnalysis.cpp - Which indexes a guard bounds -----------------===//

#include "Analysis/GuardAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <deque>
#include <optional>

using namespace clang;

namespace gpuguard {

std::optional<IndexedAccess> getIndexedAccess(const Expr *E) {
  auto IsIndexType = [](const Expr *Index) {
    QualType T = Index->getType();
    return T->isIntegralOrEnumerationType() || T->isDependentType();
  };
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
    if (IsIndexType(Subscript->getIdx()))
      return IndexedAccess{E, Subscript->getBase(), Subscript->getIdx()};
    return std::nullopt;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        IsIndexType(Op->getArg(1)))
      return IndexedAccess{E, Op->getArg(0), Op->getArg(1)};
    return std::nullopt;
  }
  if (const auto *Deref = dyn_cast<UnaryOperator>(E)) {
    if (Deref->getOpcode() != UO_Deref)
      return std::nullopt;
    const auto *Sum =
        dyn_cast<BinaryOperator>(Deref->getSubExpr()->IgnoreParenImpCasts());
    if (!Sum || (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_Sub))
      return std::nullopt;
    const Expr *L = Sum->getLHS(), *R = Sum->getRHS();
    if (L->getType()->isPointerType() && IsIndexType(R))
      return IndexedAccess{E, L, R};
    if (R->getType()->isPointerType() && IsIndexType(L) &&
        Sum->getOpcode() == BO_Add)
      return IndexedAccess{E, R, L};
  }
  return std::nullopt;
}

namespace {

/// What a fact is about: a local variable, or any other expression by its
/// structural profile (so `blockIdx.x * blockDim.x + threadIdx.x` in a guard
/// matches the same expression in a subscript).
struct FactKey {
  const VarDecl *Var = nullptr;
  llvm::FoldingSetNodeID Profile;

  bool operator==(const FactKey &Other) const {
    if (Var || Other.Var)
      return Var == Other.Var;
    return Profile == Other.Profile;
  }
};

/// "This value is bounded above on every path to here."
struct Fact {
  FactKey Key;
  /// Local variables the bounded expression reads: reassigning one ends the
  /// fact.
  llvm::SmallVector<const VarDecl *, 2> Reads;
};

using FactSet = llvm::SmallVector<Fact, 4>;

const VarDecl *asLocalVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  return Var && Var->hasLocalStorage() ? Var : nullptr;
}

void collectReads(const Expr *E, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!E)
    return;
  if (const VarDecl *Var = asLocalVariable(E->IgnoreParenImpCasts()))
    if (!llvm::is_contained(Out, Var))
      Out.push_back(Var);
  for (const Stmt *Child : E->children())
    collectReads(dyn_cast_or_null<Expr>(Child), Out);
}

bool isNoReturnAssertHandler(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  const IdentifierInfo *Name = Callee->getIdentifier();
  return Name && llvm::StringSwitch<bool>(Name->getName())
                     .Cases({"__assert_fail", "__assertfail", "__assert_rtn",
                             "_wassert", "__trap", "abort"},
                            true)
                     .Default(false);
}

/// The condition a branching block evaluates last: Clang's CFG splits `&&`
/// and `||` into blocks, and each block branches on its rightmost leaf.
const Expr *lastEvaluatedLeaf(const Expr *Cond) {
  while (Cond) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO || !BO->isLogicalOp())
      return Cond;
    Cond = BO->getRHS();
  }
  return Cond;
}

class GuardDataflow {
public:
  GuardDataflow(const FunctionDecl &Function, ASTContext &Context,
                const ThreadIndexProvenance &Provenance,
                const GuardAnalysisOptions &Options)
      : Function(Function), Context(Context), Provenance(Provenance),
        Options(Options) {}

  std::vector<UnguardedAccess> run();

private:
  /// Applies one CFG element; returns false when the path ends there.
  bool transfer(const Stmt *S, FactSet &Facts,
                std::vector<UnguardedAccess> *Findings);
  void assume(const Expr *Cond, bool Truth, FactSet &Facts);
  void addBoundFact(const Expr *Bounded, FactSet &Facts);
  void kill(const VarDecl *Var, FactSet &Facts);
  bool holds(const Expr *E, const FactSet &Facts) const;
  bool isClampedAbove(const Expr *E) const;
  FactKey keyOf(const Expr *E) const;
  void checkAccess(const IndexedAccess &Access, const FactSet &Facts,
                   std::vector<UnguardedAccess> &Findings);
  bool isBlockStorage(const Expr *Base) const;

  struct Coverage {
    bool AnyBounded = false; ///< Some part is bounded by a guard or clamp.
    bool OpaquePart = false; ///< A part no reasoning applies to.
    llvm::SmallVector<const VarDecl *, 2> UnboundedVariables;
  };
  void evaluate(const Expr *E, const FactSet &Facts, Coverage &Result) const;

  const FunctionDecl &Function;
  ASTContext &Context;
  const ThreadIndexProvenance &Provenance;
  const GuardAnalysisOptions &Options;
};

FactKey GuardDataflow::keyOf(const Expr *E) const {
  FactKey Key;
  E = stripIndexCasts(E);
  if (const VarDecl *Var = asLocalVariable(E)) {
    Key.Var = Var;
    return Key;
  }
  E->Profile(Key.Profile, Context, /*Canonical=*/true);
  return Key;
}

void GuardDataflow::addBoundFact(const Expr *Bounded, FactSet &Facts) {
  Bounded = stripIndexCasts(Bounded);
  if (!Provenance.isThreadDependent(Bounded))
    return;
  Fact New;
  New.Key = keyOf(Bounded);
  if (llvm::any_of(Facts, [&](const Fact &F) { return F.Key == New.Key; }))
    return;
  collectReads(Bounded, New.Reads);
  Facts.push_back(std::move(New));
}

void GuardDataflow::kill(const VarDecl *Var, FactSet &Facts) {
  llvm::erase_if(Facts, [&](const Fact &F) {
    return F.Key.Var == Var || llvm::is_contained(F.Reads, Var);
  });
}

bool GuardDataflow::holds(const Expr *E, const FactSet &Facts) const {
  FactKey Key = keyOf(E);
  return llvm::any_of(Facts, [&](const Fact &F) { return F.Key == Key; });
}

static bool isIntegerConstant(const Expr *E, const ASTContext &Context) {
  return !E->isValueDependent() && E->isIntegerConstantExpr(Context);
}

void GuardDataflow::assume(const Expr *Cond, bool Truth, FactSet &Facts) {
  Cond = stripIndexCasts(Cond);
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
    if (Not->getOpcode() == UO_LNot)
      assume(Not->getSubExpr(), !Truth, Facts);
    return;
  }
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return;
  BinaryOperatorKind Op = BO->getOpcode();
  if ((Op == BO_LAnd && Truth) || (Op == BO_LOr && !Truth)) {
    assume(BO->getLHS(), Truth, Facts);
    assume(BO->getRHS(), Truth, Facts);
    return;
  }
  if (!BO->isComparisonOp())
    return;
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  switch (Op) {
  case BO_LT:
  case BO_LE:
    addBoundFact(L, Facts);
    break;
  case BO_GT:
  case BO_GE:
    addBoundFact(R, Facts);
    break;
  case BO_EQ:
    // Equal to a constant (`tid == 0`) is bounded; equal to a variable bound
    // (`i == n`) is the classic one-past-the-end value, so it is not.
    if (isIntegerConstant(R, Context))
      addBoundFact(L, Facts);
    else if (isIntegerConstant(L, Context))
      addBoundFact(R, Facts);
    break;
  default:
    break;
  }
}

bool GuardDataflow::isClampedAbove(const Expr *E) const {
  E = stripIndexCasts(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // `x % n` is below n (for non-negative x); `x & mask` is below mask + 1.
    if (BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_RemAssign)
      return !Provenance.isThreadDependent(BO->getRHS());
    if (BO->getOpcode() == BO_And)
      return isIntegerConstant(BO->getRHS(), Context) ||
             isIntegerConstant(BO->getLHS(), Context);
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const auto *Callee = dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl());
    if (!Callee || !Callee->getIdentifier())
      return false;
    bool IsMin = llvm::StringSwitch<bool>(Callee->getName())
                     .Cases({"min", "umin", "llmin", "ullmin"}, true)
                     .Default(false);
    return IsMin && llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
             return !Provenance.isThreadDependent(Arg);
           });
  }
  return false;
}

void GuardDataflow::evaluate(const Expr *E, const FactSet &Facts,
                             Coverage &Result) const {
  E = stripIndexCasts(E);
  ValueOrigin Origin = Provenance.originOf(E);
  if (!Origin.isThreadDependent())
    return;
  if (holds(E, Facts) || isClampedAbove(E)) {
    Result.AnyBounded = true;
    return;
  }
  if (Origin.IsBareCoordinate)
    return; // Bounded by the launch; neutral in a combination.
  if (const VarDecl *Var = asLocalVariable(E)) {
    if (!llvm::is_contained(Result.UnboundedVariables, Var))
      Result.UnboundedVariables.push_back(Var);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp() ||
        BO->isBitwiseOp()) {
      evaluate(BO->getLHS(), Facts, Result);
      evaluate(BO->getRHS(), Facts, Result);
      return;
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    evaluate(CO->getTrueExpr(), Facts, Result);
    evaluate(CO->getFalseExpr(), Facts, Result);
    return;
  }
  Result.OpaquePart = true;
}

bool GuardDataflow::isBlockStorage(const Expr *Base) const {
  // `tile[ty][tx]`: the storage is the array the outermost subscript names.
  while (true) {
    Base = Base->IgnoreParenImpCasts();
    if (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      Base = Inner->getBase();
      continue;
    }
    break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return false;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var)
    return false;
  if (Var->hasAttr<CUDASharedAttr>())
    return true;
  return Var->hasLocalStorage() && Var->getType()->isArrayType();
}

void GuardDataflow::checkAccess(const IndexedAccess &Access,
                                const FactSet &Facts,
                                std::vector<UnguardedAccess> &Findings) {
  ValueOrigin Origin = Provenance.originOf(Access.Index);
  if (!Origin.isThreadDependent() || Origin.IsBareCoordinate)
    return;
  // A block-local index into block-sized storage (shared tiles, reduction
  // buffers) is sized by the launch, not by a runtime extent.
  if (Options.TrustBlockSizedStorage && Origin.isBlockLocal() &&
      isBlockStorage(Access.Base))
    return;
  Coverage Result;
  evaluate(Access.Index, Facts, Result);
  if (Result.AnyBounded && !Result.OpaquePart &&
      Result.UnboundedVariables.empty())
    return;
  Findings.push_back({Access, Result.UnboundedVariables});
}

bool GuardDataflow::transfer(const Stmt *S, FactSet &Facts,
                             std::vector<UnguardedAccess> *Findings) {
  const auto *E = dyn_cast<Expr>(S);
  if (Findings && E)
    if (auto Access = getIndexedAccess(E))
      checkAccess(*Access, Facts, *Findings);

  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var)
        continue;
      kill(Var, Facts);
      if (Var->getInit() && isClampedAbove(Var->getInit()))
        Facts.push_back({FactKey{Var, {}}, {}});
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *Var =
              asLocalVariable(BO->getLHS()->IgnoreParenImpCasts())) {
        kill(Var, Facts);
        if ((BO->getOpcode() == BO_Assign && isClampedAbove(BO->getRHS())) ||
            BO->getOpcode() == BO_RemAssign)
          Facts.push_back({FactKey{Var, {}}, {}});
      }
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *Var =
              asLocalVariable(UO->getSubExpr()->IgnoreParenImpCasts()))
        kill(Var, Facts);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (isNoReturnAssertHandler(Call))
      return false;
  }
  return true;
}

static FactSet intersect(const FactSet &A, const FactSet &B) {
  FactSet Result;
  for (const Fact &F : A)
    if (llvm::any_of(B, [&](const Fact &G) { return G.Key == F.Key; }))
      Result.push_back(F);
  return Result;
}

std::vector<UnguardedAccess> GuardDataflow::run() {
  std::vector<UnguardedAccess> Findings;
  if (!Function.hasBody())
    return Findings;
  CFG::BuildOptions BuildOptions;
  BuildOptions.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(&Function, Function.getBody(), &Context, BuildOptions);
  if (!Graph)
    return Findings;

  std::vector<std::optional<FactSet>> In(Graph->getNumBlockIDs());
  std::vector<bool> Queued(Graph->getNumBlockIDs(), false);
  std::deque<const CFGBlock *> Worklist;
  const CFGBlock &Entry = Graph->getEntry();
  In[Entry.getBlockID()] = FactSet();
  Worklist.push_back(&Entry);
  Queued[Entry.getBlockID()] = true;

  auto Propagate = [&](const CFGBlock *Block, bool Record) {
    FactSet Facts = *In[Block->getBlockID()];
    for (const CFGElement &Element : *Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (!transfer(S->getStmt(), Facts, Record ? &Findings : nullptr))
          return;
    if (Record)
      return;
    const Expr *Cond = nullptr;
    if (Block->succ_size() == 2 && Block->getTerminatorStmt() &&
        !isa<SwitchStmt>(Block->getTerminatorStmt()))
      if (const auto *Terminator = dyn_cast_or_null<Expr>(
              Block->getTerminatorCondition(/*StripParens=*/false)))
        Cond = lastEvaluatedLeaf(Terminator);
    unsigned Index = 0;
    for (const CFGBlock *Succ : Block->succs()) {
      unsigned Edge = Index++;
      if (!Succ)
        continue;
      FactSet EdgeFacts = Facts;
      if (Cond)
        assume(Cond, Edge == 0, EdgeFacts);
      std::optional<FactSet> &Target = In[Succ->getBlockID()];
      if (!Target) {
        Target = std::move(EdgeFacts);
      } else {
        FactSet Met = intersect(*Target, EdgeFacts);
        if (Met.size() == Target->size())
          continue;
        Target = std::move(Met);
      }
      if (!Queued[Succ->getBlockID()]) {
        Queued[Succ->getBlockID()] = true;
        Worklist.push_back(Succ);
      }
    }
  };

  while (!Worklist.empty()) {
    const CFGBlock *Block = Worklist.front();
    Worklist.pop_front();
    Queued[Block->getBlockID()] = false;
    Propagate(Block, /*Record=*/false);
  }
  // Report from the fixpoint only, so that each access is judged once
  // against the facts that hold on every path.
  for (const CFGBlock *Block : *Graph)
    if (In[Block->getBlockID()])
      Propagate(Block, /*Record=*/true);

  llvm::sort(Findings, [&](const UnguardedAccess &A, const UnguardedAccess &B) {
    return Context.getSourceManager().isBeforeInTranslationUnit(
        A.Access.Access->getBeginLoc(), B.Access.Access->getBeginLoc());
  });
  return Findings;
}

} // namespace

std::vector<UnguardedAccess>
findUnguardedAccesses(const FunctionDecl &Function, ASTContext &Context,
                      const ThreadIndexProvenance &Provenance,
                      const GuardAnalysisOptions &Options) {
  return GuardDataflow(Function, Context, Provenance, Options).run();
}

} // namespace gpuguard
