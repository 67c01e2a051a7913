//===--- GuardAnalysis.cpp - Which indexes a guard bounds -----------------===//

#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Core/BranchCondition.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Core/KnownCalls.h"
#include "Analysis/Cuda/DereferencedParameters.h"
#include "Analysis/Cuda/UnrolledStrideLoops.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <numeric>
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

/// "Value < some bound + UpperSlack", "value < ConstUpper" and
/// "value >= Lower" on every path to here. Slack is relative to whatever
/// runtime bound the guard compared with: `i < n` has slack 0, `i <= n`
/// slack 1 (one past the end), `i < n - 1` slack -1 (room for `i + 1`).
struct Fact {
  FactKey Key;
  std::optional<int64_t> UpperSlack;
  std::optional<int64_t> ConstUpper;
  std::optional<int64_t> Lower;
  /// Local variables of the value and of its bound: reassigning one ends the
  /// fact.
  llvm::SmallVector<const VarDecl *, 4> Reads;
  /// The guards that set UpperSlack, ConstUpper and Lower. A constant
  /// bound and a runtime one may come from different guards on different
  /// paths (`t <= 0` past `if (t > 0)`, `t <= last` past `if (t > last)`).
  const Expr *UpperGuard = nullptr;
  const Expr *ConstUpperGuard = nullptr;
  const Expr *LowerGuard = nullptr;
  /// The guard of whichever upper bound there is, the runtime one first.
  const Expr *anyUpperGuard() const {
    return UpperSlack ? UpperGuard : ConstUpperGuard;
  }
  /// The additive terms of the bounded expression, to recognise it inside a
  /// longer sum (`t * TILE + tx` in `row * K + t * TILE + tx`).
  llvm::SmallVector<llvm::FoldingSetNodeID, 2> Terms;
  /// For a variable: the value it was assigned on every path, none of whose
  /// variables changed since (they are in Reads). A variable assigned
  /// several times is as bounded as its latest value: `gmPos = y * s + x`
  /// after `x = min(..., w - 1)` and `y = min(..., h - 1)`.
  const Expr *Assigned = nullptr;
  /// For a bool local assigned more than once, a flag that carries a
  /// guard (`ok = false; if (i < n) ok = true; if (ok) a[i]`): the facts
  /// that hold wherever it is true, or that it is false on every path.
  std::shared_ptr<const llvm::SmallVector<Fact, 4>> WhenTrue;
  bool KnownFalse = false;

  /// This fact less everything but its upper bounds: what still holds once
  /// the value only moves toward 0 (`id /= w`). Its lower bound, the value
  /// it was assigned and what it carried as a flag end there.
  Fact upperBoundsOnly() const {
    Fact Upper = *this;
    Upper.Lower.reset();
    Upper.LowerGuard = nullptr;
    Upper.Assigned = nullptr;
    Upper.WhenTrue.reset();
    Upper.KnownFalse = false;
    Upper.Excluded.clear();
    return Upper;
  }

  /// No bound; an Assigned value or a flag alone is not one.
  bool empty() const { return !UpperSlack && !ConstUpper && !Lower; }
  bool isFlag() const { return WhenTrue || KnownFalse; }
  /// A combination that does not hold here: not every `Value == Constant`
  /// of the list (the false edge of `ty == 0 && tx == 0`). Once all but one
  /// hold, the last one does not. Keyed by the condition.
  llvm::SmallVector<std::pair<const Expr *, int64_t>, 2> Excluded;
  bool isExclusion() const { return !Excluded.empty(); }
};

using FactSet = llvm::SmallVector<Fact, 4>;

static FactSet meet(const FactSet &A, const FactSet &B);
static bool sameFacts(const FactSet &A, const FactSet &B);

/// Adds to \p Into what \p From knows, both holding: the tighter of each
/// bound.
static void strengthen(FactSet &Into, const FactSet &From) {
  for (const Fact &Carry : From) {
    if (Carry.isFlag())
      continue;
    auto Existing =
        llvm::find_if(Into, [&](const Fact &F) { return F.Key == Carry.Key; });
    if (Existing == Into.end()) {
      Into.push_back(Carry);
      continue;
    }
    if (Carry.UpperSlack &&
        (!Existing->UpperSlack || *Carry.UpperSlack < *Existing->UpperSlack)) {
      Existing->UpperSlack = Carry.UpperSlack;
      Existing->UpperGuard = Carry.UpperGuard;
    }
    if (Carry.ConstUpper &&
        (!Existing->ConstUpper || *Carry.ConstUpper < *Existing->ConstUpper)) {
      Existing->ConstUpper = Carry.ConstUpper;
      Existing->ConstUpperGuard = Carry.ConstUpperGuard;
    }
    if (Carry.Lower && (!Existing->Lower || *Carry.Lower > *Existing->Lower)) {
      Existing->Lower = Carry.Lower;
      Existing->LowerGuard = Carry.LowerGuard;
    }
    for (const VarDecl *Read : Carry.Reads)
      if (!llvm::is_contained(Existing->Reads, Read))
        Existing->Reads.push_back(Read);
  }
}

/// What a flag fact \p F of a side whose facts are \p Side says holds where
/// the flag is true after that side: what it carried, and what held on the
/// side itself.
static std::shared_ptr<const FactSet> carriedAcrossJoin(const Fact &F,
                                                        const FactSet &Side) {
  auto Carried = std::make_shared<FactSet>(*F.WhenTrue);
  strengthen(*Carried, Side);
  return Carried;
}

class GuardDataflow {
public:
  /// With \p IndexParameters, the analysis summarises a helper: those
  /// parameters are treated as indexes that need a bound.
  GuardDataflow(const FunctionDecl &Function, ASTContext &Context,
                const ThreadIndexProvenance &Provenance,
                const GuardAnalysisOptions &Options,
                llvm::ArrayRef<const ParmVarDecl *> IndexParameters = {},
                unsigned HelperDepth = 0)
      : Function(Function), Context(Context), Provenance(Provenance),
        Options(Options),
        IndexParameters(IndexParameters.begin(), IndexParameters.end()),
        HelperDepth(HelperDepth) {
    collectAssignedVariables(Function.getBody(), Reassigned);
    collectLoopCounters(Function.getBody(), CounterLoops);
    collectRangeArrays();
  }

  std::vector<UnguardedAccess> run();

  // The domain of ForwardDataflow. While Recording is set, transfers report
  // the unguarded accesses they meet.
  using Facts = FactSet;
  bool transfer(const CFGElement &Element, FactSet &Facts) {
    if (auto S = Element.getAs<CFGStmt>())
      return transfer(S->getStmt(), Facts, Recording);
    return true;
  }
  void edge(const CFGBlock &Block, unsigned Edge, FactSet &Facts) {
    if (const Expr *Cond = branchCondition(Block)) {
      assume(Cond, Edge == 0, Facts, 0);
      // The CFG splits `a == 0 && b == 0` into a block per operand; every
      // false edge out of it knows the whole is false.
      if (const BinaryOperator *Chain = conjunctionOf(Block); Chain && Edge)
        addExclusion(*Chain, Facts);
      resolveExclusions(Facts);
    }
  }
  bool join(FactSet &Into, const FactSet &Incoming) {
    FactSet Met = meet(Into, Incoming);
    if (sameFacts(Met, Into))
      return false;
    Into = std::move(Met);
    return true;
  }
  void widen(FactSet &Facts) { Facts.clear(); }

private:
  /// Applies one statement; returns false when the path ends there.
  bool transfer(const Stmt *S, FactSet &Facts,
                std::vector<UnguardedAccess> *Findings);
  void assume(const Expr *Cond, bool Truth, FactSet &Facts, unsigned Depth);
  void addUpper(const Expr *Value, const Expr *Bound, int64_t Slack,
                const Expr *Guard, FactSet &Facts);
  void addLower(const Expr *Value, int64_t Lower, const Expr *Guard,
                FactSet &Facts);
  Fact &factFor(const Expr *Value, FactSet &Facts);
  void kill(const VarDecl *Var, FactSet &Facts);
  /// Assumes `Value != Constant`.
  void assumeNotEqual(const Expr *Value, int64_t Constant, const Expr *Guard,
                      FactSet &Facts);
  /// The `&&` that \p Block branches on, whole (an `if` condition) or by
  /// its left operand (the block of `a` in `a && b`).
  static const BinaryOperator *conjunctionOf(const CFGBlock &Block) {
    const Stmt *Terminator = Block.getTerminatorStmt();
    if (const auto *And = dyn_cast_or_null<BinaryOperator>(Terminator);
        And && And->getOpcode() == BO_LAnd)
      return And;
    const auto *Cond = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock &>(Block).getTerminatorCondition(false));
    const auto *And =
        Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
    return And && And->getOpcode() == BO_LAnd ? And : nullptr;
  }
  /// The false edge of `a == c && b == d`: records that not both hold.
  void addExclusion(const BinaryOperator &Conjunction, FactSet &Facts);
  /// Applies the exclusions all but one of whose equalities now hold.
  void resolveExclusions(FactSet &Facts);
  /// \p Value assigned to the flag that \p Ref names (see Fact::WhenTrue).
  void defineFlag(const Expr *Value, const Expr *Ref, FactSet &Facts);
  static FactSet withoutFlags(const FactSet &Facts);
  /// Assumes the flag \p Cond is \p Truth: adds what it carries. False when
  /// \p Cond is not a flag with a fact here.
  bool assumeFlag(const Expr *Cond, bool Truth, FactSet &Facts) const;
  void addClampFacts(const Expr *Value, const Expr *Clamp, FactSet &Facts,
                     const FactSet &Known);
  /// The fact on \p E, if any, other than an Assigned value alone.
  const Fact *find(const Expr *E, const FactSet &Facts) const;
  /// The value the local variable \p E holds on every path (Fact::Assigned).
  const Expr *assignedValue(const Expr *E, const FactSet &Facts) const;
  FactKey keyOf(const Expr *E) const;
  const Expr *comparedBound(const Expr *Guard, const Expr *Part) const;
  std::optional<int64_t> writtenSize(const Expr *Guard, const Expr *Part) const;
  std::optional<int64_t> offsetBelowConstant(const Expr *Guard,
                                             const Expr *Part) const;
  std::optional<Fact> quotientFact(const BinaryOperator &Quotient,
                                   const FactSet &Facts) const;
  const Expr *unchangedInit(const Expr *E) const;
  bool needsBound(const Expr *E) const;
  IndexSource sourceOf(const Expr *E) const;

  struct Judgement {
    bool AnyBounded = false;
    llvm::SmallVector<IndexProblem, 2> Problems;
  };
  void evaluate(const Expr *E, int64_t Offset, const FactSet &Facts,
                Judgement &Result) const;
  void evaluateSum(const Expr *E, int64_t Offset, const FactSet &Facts,
                   Judgement &Result) const;
  void judge(const Fact &F, const Expr *Part, int64_t Offset,
             Judgement &Result) const;
  void checkAccess(IndexedAccess Access, const FactSet &Facts,
                   std::vector<UnguardedAccess> &Findings);
  /// Pointer sums passed to calls that access memory through them.
  void checkPointerArguments(const CallExpr &Call, const FactSet &Facts,
                             std::vector<UnguardedAccess> &Findings);
  /// `for (i = ptr[v]; i <= ptr[v + 1]; ++i)`: a loop over a half-open
  /// range of a CSR row or segment that also visits its end.
  std::optional<IndexProblem> pastHalfOpenRange(const Expr *Index,
                                                const FactSet &Facts) const;
  /// The offset a local pointer was set to from another pointer, once.
  const Expr *pointerOffsetOf(const Expr *Base) const;
  /// A sum whose terms are all 0 for the first thread of the first block,
  /// plus a negative constant (`cols * ty + BS * bx - 1`): below zero
  /// there unless a guard keeps a coordinate above 0.
  std::optional<IndexProblem> negativeAtOrigin(const Expr *Sum, int64_t Offset,
                                               const FactSet &Facts) const;
  enum class OriginTerm { NonZero, Guarded, Unguarded };
  /// Whether \p Term is 0 at the origin, and if so whether a guard bounds
  /// one of its coordinates below by 1; adds the coordinates, named as
  /// written, to \p Named.
  OriginTerm
  classifyOriginTerm(const Expr *Term, const FactSet &Facts,
                     llvm::SmallVectorImpl<const Expr *> &Named) const;
  /// `index - w` where every term of `index` is 0 for the first thread of
  /// the first block and one is scaled by `w`: the row above, negative for
  /// the first row of threads, which every launch has, unless a guard keeps
  /// a coordinate of that row term above 0.
  std::optional<IndexProblem> rowAboveTheFirst(const BinaryOperator &Difference,
                                               int64_t Offset,
                                               const FactSet &Facts) const;
  /// Whether \p E is 0 where every thread and block coordinate is, adding
  /// to \p Coordinates the coordinates (or locals copying one) it reads.
  bool zeroAtOrigin(const Expr *E,
                    llvm::SmallVectorImpl<const Expr *> &Coordinates,
                    unsigned Depth = 0) const;
  bool isBlockStorage(const Expr *Base) const;
  /// The `for` loops that declare a counter in their init.
  llvm::DenseMap<const VarDecl *, const ForStmt *> CounterLoops;
  /// The loads a counter loop walks between, `ptr[v]` and `ptr[v + 1]`,
  /// read directly or through locals: `for (e = ptr[v]; e < ptr[v + 1];
  /// ++e)`, with `<` or `<=`.
  std::optional<
      std::pair<const ArraySubscriptExpr *, const ArraySubscriptExpr *>>
  loadedRangeOf(const VarDecl &Counter, const ForStmt &For) const;
  /// The arrays some loop walks as a row of offsets: like CSR row pointers,
  /// they hold one entry more than there are rows, whatever their name.
  void collectRangeArrays();
  llvm::SmallPtrSet<const Decl *, 4> RangeArrays;
  /// [first, last] of a counter of a loop with constant limits.
  std::optional<std::pair<int64_t, int64_t>>
  loopCounterRange(const Expr *Counter) const;
  /// The largest constant \p E is known to be a multiple of (`x * 4`,
  /// `x << 3`, a local set to one), 1 when none is known.
  int64_t constantFactorOf(const Expr *E, unsigned Depth = 0) const;
  std::optional<int64_t> leastValue(const Expr *E, unsigned Depth = 0) const;
  /// Whether \p X is bounded by a width left after \p Y: `x < w` with
  /// `w = end - y` keeps `y + x` below `end` (a window clamped to the data,
  /// `w = min(hi, n) - inX`), however close `y` gets to `end`.
  bool boundedTogether(const Expr *X, const Expr *Y, int64_t Offset,
                       const FactSet &Facts) const;
  /// The least value of \p E when it is never negative: built from launch
  /// builtins and non-negative constants (leastValue()), or 0 for an
  /// unsigned value; none when it may be negative.
  std::optional<int64_t> leastNonNegative(const Expr *E) const;
  /// Marks the problems of \p Part that a constant \p Offset below the
  /// vector width \p Term steps by leaves within one aligned vector.
  void markAlignedLanes(Judgement &Part, const Expr *Term,
                        int64_t Offset) const;
  /// Marks the row offsets of \p Part, a factor of a product with
  /// \p Width, that the padding of that width covers.
  void markPaddedRows(Judgement &Part, const Expr *Width) const;
  /// The constant a row width adds to its terms (`w + 2`: 2), when
  /// positive.
  std::optional<int64_t> paddingOf(const Expr *Width, unsigned Depth = 0) const;

  const FunctionDecl &Function;
  ASTContext &Context;
  const ThreadIndexProvenance &Provenance;
  const GuardAnalysisOptions &Options;
  llvm::SmallPtrSet<const VarDecl *, 16> Reassigned;
  llvm::SmallPtrSet<const ParmVarDecl *, 4> IndexParameters;
  unsigned HelperDepth;
  std::vector<UnguardedAccess> *Recording = nullptr;

  /// A parameter of a helper that the helper uses as an index (plus a
  /// constant offset) with no guard of its own.
  struct HelperSink {
    unsigned Parameter;
    int64_t Offset;
    const Expr *Access;
  };
  const std::vector<HelperSink> &sinksOf(const FunctionDecl &Helper);
  void checkHelperCall(const CallExpr &Call, const FactSet &Facts,
                       std::vector<UnguardedAccess> &Findings);
  bool readsIndexParameter(const Expr *E) const;
  bool readsReassignedLocal(const Expr *E) const;
  bool isGlobalCombination(const Expr *E) const;
  /// Inside a helper's condition read at a call: the call's arguments.
  llvm::DenseMap<const ParmVarDecl *, const Expr *> Bindings;
  const Expr *bound(const Expr *E) const;
  llvm::DenseMap<const FunctionDecl *, std::vector<HelperSink>> Sinks;
  DereferencedParameters Dereferenced{Context};
  UnrolledStrideLoops Unrolled{Function, Context, Reassigned, CounterLoops};
  /// Set while judging a block-local index into block-sized storage: only
  /// its lower bound is in question.
  mutable bool UpperTrusted = false;
  /// How deep evaluate() is in reading locals through their initialisers.
  mutable unsigned Substitutions = 0;
  /// How deep addUpper() is in the terms of a guarded sum.
  unsigned UpperDepth = 0;
  /// Set when the array being indexed is known by its name to hold one more
  /// element than the bound of its index (CSR row pointers, offsets).
  bool ExtentPlusOne = false;
  bool isExtentPlusOneArray(const Expr *Base) const;
  /// The constant extent of the array being indexed, when it has one.
  std::optional<int64_t> CurrentExtent;
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

/// The side of \p Guard that \p Part is compared with (`n` in `j > n`), or
/// null when the guard is not a comparison of \p Part.
/// The size a constant bound was written from: 2048 in `j <= 2048 - 2`
/// (`N - 2` with `#define N 2048`), or in `j + 1 < 2048`. Its author keeps
/// room below it for an offset, as `j <= n - 2` does below `n`.
std::optional<int64_t> GuardDataflow::writtenSize(const Expr *Guard,
                                                  const Expr *Part) const {
  const Expr *Bound = comparedBound(Guard, Part);
  if (!Bound)
    return offsetBelowConstant(Guard, Part);
  const auto *Minus = dyn_cast<BinaryOperator>(Bound->IgnoreParenImpCasts());
  if (!Minus || Minus->getOpcode() != BO_Sub ||
      !integerConstant(Minus->getRHS(), Context))
    return std::nullopt;
  return integerConstant(Minus->getLHS(), Context);
}

/// The constant C of a guard `Part + k < C` (or `C > Part + k`) with a
/// positive constant k: the offset is written into the guard, and C is the
/// size it keeps `Part + k` below.
std::optional<int64_t>
GuardDataflow::offsetBelowConstant(const Expr *Guard, const Expr *Part) const {
  const auto *Compare =
      Guard ? dyn_cast<BinaryOperator>(stripIndexCasts(Guard)) : nullptr;
  if (!Compare ||
      (Compare->getOpcode() != BO_LT && Compare->getOpcode() != BO_GT))
    return std::nullopt;
  const Expr *Offset =
      Compare->getOpcode() == BO_LT ? Compare->getLHS() : Compare->getRHS();
  const Expr *Size =
      Compare->getOpcode() == BO_LT ? Compare->getRHS() : Compare->getLHS();
  llvm::SmallVector<const Expr *, 2> Terms;
  int64_t Added = 0;
  flattenSum(Offset, Context, Terms, Added);
  if (Terms.size() != 1 || Added <= 0 || !(keyOf(Terms.front()) == keyOf(Part)))
    return std::nullopt;
  return integerConstant(Size, Context);
}

const Expr *GuardDataflow::comparedBound(const Expr *Guard,
                                         const Expr *Part) const {
  std::optional<BinaryOperation> Compare =
      Guard ? asBinaryOperation(stripIndexCasts(Guard)) : std::nullopt;
  if (!Compare || !BinaryOperator::isComparisonOp(Compare->Opcode))
    return nullptr;
  FactKey PartKey = keyOf(Part);
  if (keyOf(Compare->LHS) == PartKey)
    return Compare->RHS;
  if (keyOf(Compare->RHS) == PartKey)
    return Compare->LHS;
  return nullptr;
}

/// The initialiser of a local that is never reassigned, so that a guard or
/// bound kept in it can be read through (`bool ok = i < n;`,
/// `int last = n - 1;`).
const Expr *GuardDataflow::unchangedInit(const Expr *E) const {
  return unchangedInitializer(E, Reassigned);
}

const Fact *GuardDataflow::find(const Expr *E, const FactSet &Facts) const {
  FactKey Key = keyOf(E);
  for (const Fact &F : Facts)
    if (F.Key == Key)
      return F.empty() && (F.Assigned || F.isFlag() || F.isExclusion())
                 ? nullptr
                 : &F;
  return nullptr;
}

const Expr *GuardDataflow::assignedValue(const Expr *E,
                                         const FactSet &Facts) const {
  if (!asLocalVariable(E))
    return nullptr;
  FactKey Key = keyOf(E);
  for (const Fact &F : Facts)
    if (F.Key == Key)
      return F.Assigned;
  return nullptr;
}

Fact &GuardDataflow::factFor(const Expr *Value, FactSet &Facts) {
  FactKey Key = keyOf(Value);
  for (Fact &F : Facts)
    if (F.Key == Key)
      return F;
  Fact New;
  New.Key = Key;
  collectReadVariables(Value, New.Reads);
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Ignored = 0;
  flattenSum(Value, Context, Terms, Ignored);
  if (Terms.size() > 1)
    for (const Expr *Term : Terms) {
      llvm::FoldingSetNodeID ID;
      Term->Profile(ID, Context, /*Canonical=*/true);
      New.Terms.push_back(ID);
    }
  Facts.push_back(std::move(New));
  return Facts.back();
}

bool GuardDataflow::readsIndexParameter(const Expr *E) const {
  if (IndexParameters.empty() || !E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      return IndexParameters.count(Param);
  if (isa<ArraySubscriptExpr, CallExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (readsIndexParameter(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
}

/// The declaration an array expression names: `ptr`, `g.rowPtr`.
static const Decl *arrayDeclOf(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(Base))
    return Member->getMemberDecl();
  return nullptr;
}

bool GuardDataflow::isExtentPlusOneArray(const Expr *Base) const {
  const auto *Named =
      Base ? dyn_cast_or_null<NamedDecl>(arrayDeclOf(Base)) : nullptr;
  if (!Named)
    return false;
  if (RangeArrays.contains(Named->getCanonicalDecl()))
    return true;
  return Options.ExtentPlusOneArrays && Named->getIdentifier() &&
         Options.ExtentPlusOneArrays->match(Named->getName());
}

bool GuardDataflow::isGlobalCombination(const Expr *E) const {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Ignored = 0;
  flattenSum(E, Context, Terms, Ignored);
  llvm::SmallVector<const Expr *, 4> Needy;
  for (const Expr *Term : Terms)
    if (needsBound(Term))
      Needy.push_back(stripIndexCasts(Term));
  if (Needy.size() >= 2)
    return true;
  if (Needy.size() == 1)
    if (const auto *BO = dyn_cast<BinaryOperator>(Needy.front()))
      if (BO->isMultiplicativeOp() || BO->isShiftOp() || BO->isBitwiseOp())
        return (needsBound(BO->getLHS()) &&
                isGlobalCombination(BO->getLHS())) ||
               (needsBound(BO->getRHS()) && isGlobalCombination(BO->getRHS()));
  return false;
}

bool GuardDataflow::readsReassignedLocal(const Expr *E) const {
  llvm::SmallVector<const VarDecl *, 4> Reads;
  collectReadVariables(E, Reads);
  return llvm::any_of(
      Reads, [&](const VarDecl *Var) { return Reassigned.count(Var); });
}

bool GuardDataflow::needsBound(const Expr *E) const {
  ValueOrigin Origin = Provenance.originOf(E);
  return Origin.isThreadDependent() || readsIndexParameter(E) ||
         (Options.CheckLoadedIndexes && Origin.isLoaded()) ||
         (Options.CheckFloatIndexes && Origin.isFromFloat());
}

IndexSource GuardDataflow::sourceOf(const Expr *E) const {
  ValueOrigin Origin = Provenance.originOf(E);
  if (Options.CheckFloatIndexes && Origin.isFromFloat())
    return IndexSource::FromFloat;
  if (Origin.isThreadDependent() || readsIndexParameter(E))
    return IndexSource::ThreadIndex;
  return IndexSource::Loaded;
}

const Expr *GuardDataflow::bound(const Expr *E) const {
  E = stripIndexCasts(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      if (const Expr *Argument = Bindings.lookup(Param))
        return Argument;
  return E;
}

void GuardDataflow::addUpper(const Expr *Value, const Expr *Bound,
                             int64_t Slack, const Expr *Guard, FactSet &Facts) {
  Value = bound(Value);
  Bound = bound(Bound);
  // `i + 1 < n` bounds `i` by `n - 1`.
  llvm::SmallVector<const Expr *, 4> ValueTerms;
  int64_t ValueConstant = 0;
  flattenSum(Value, Context, ValueTerms, ValueConstant);
  if (ValueTerms.size() == 1 && ValueConstant != 0) {
    Value = ValueTerms.front();
    Slack -= ValueConstant;
  }
  // `ix + blockDim.x < nx`, or `k < n` with `k = i + offset` and `offset`
  // unsigned: each term beside others that are never negative is below the
  // bound too.
  if (ValueTerms.size() == 1 && ValueConstant == 0 && UpperDepth < 2)
    if (const Expr *Init = unchangedInit(Value)) {
      llvm::SmallVector<const Expr *, 4> InitTerms;
      int64_t InitConstant = 0;
      flattenSum(Init, Context, InitTerms, InitConstant);
      if (InitTerms.size() >= 2) {
        ++UpperDepth;
        addUpper(Init, Bound, Slack, Guard, Facts);
        --UpperDepth;
      }
    }
  if (ValueTerms.size() >= 2 && UpperDepth < 2) {
    ++UpperDepth;
    for (size_t I = 0; I < ValueTerms.size(); ++I) {
      // The least the other terms add: `ix + blockDim.x - 1 < nx` keeps
      // `ix` below `nx`, as `blockDim.x` is at least 1.
      std::optional<int64_t> OthersLeast = 0;
      for (size_t J = 0; J < ValueTerms.size() && OthersLeast; ++J)
        if (I != J) {
          std::optional<int64_t> Least = leastNonNegative(ValueTerms[J]);
          OthersLeast =
              Least ? std::optional(*OthersLeast + *Least) : std::nullopt;
        }
      // Launch coordinates keep the bound the launch gives them: a guard
      // on `blockIdx.x * blockDim.x + threadIdx.x` says nothing of the
      // block-local `threadIdx.x`.
      ValueOrigin Origin = Provenance.originOf(ValueTerms[I]);
      if (OthersLeast && needsBound(ValueTerms[I]) &&
          !Origin.IsBareCoordinate && !Origin.isBlockLocal())
        addUpper(ValueTerms[I], Bound, Slack - ValueConstant - *OthersLeast,
                 Guard, Facts);
    }
    --UpperDepth;
  }
  if (!needsBound(Value))
    return;
  // Read the bound through an unchanged local that holds a last valid
  // index (`last = n - 1; if (i > last)`). A local holding a size
  // (`oh = h - k + 1`) is the extent itself and is kept as it is.
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const Expr *Init = unchangedInit(Bound);
    if (!Init)
      break;
    llvm::SmallVector<const Expr *, 4> InitTerms;
    int64_t InitConstant = 0;
    flattenSum(Init, Context, InitTerms, InitConstant);
    if (InitConstant >= 0)
      break;
    Bound = Init;
  }
  llvm::SmallVector<const Expr *, 4> BoundTerms;
  int64_t BoundConstant = 0;
  flattenSum(Bound, Context, BoundTerms, BoundConstant);
  Fact &F = factFor(Value, Facts);
  collectReadVariables(Bound, F.Reads);
  if (BoundTerms.empty()) {
    int64_t Exclusive = BoundConstant + Slack;
    if (!F.ConstUpper || Exclusive < *F.ConstUpper) {
      F.ConstUpper = Exclusive;
      F.ConstUpperGuard = Guard;
    }
    return;
  }
  int64_t Total = BoundConstant + Slack;
  if (!F.UpperSlack || Total < *F.UpperSlack) {
    F.UpperSlack = Total;
    F.UpperGuard = Guard;
  }
}

void GuardDataflow::addLower(const Expr *Value, int64_t Lower,
                             const Expr *Guard, FactSet &Facts) {
  Value = bound(Value);
  llvm::SmallVector<const Expr *, 4> ValueTerms;
  int64_t ValueConstant = 0;
  flattenSum(Value, Context, ValueTerms, ValueConstant);
  if (ValueTerms.size() == 1 && ValueConstant != 0) {
    Value = ValueTerms.front();
    Lower -= ValueConstant;
  }
  if (!needsBound(Value))
    return;
  Fact &F = factFor(Value, Facts);
  if (!F.Lower || Lower > *F.Lower) {
    F.Lower = Lower;
    F.LowerGuard = Guard;
  }
}

void GuardDataflow::assumeNotEqual(const Expr *Value, int64_t Constant,
                                   const Expr *Guard, FactSet &Facts) {
  // `i != 0` past `i == 0 ? ... : a[i - 1]` or `if (i == 0) return;`: a
  // value that is never negative is then at least 1 (thread indexes count
  // as never negative, as judge() takes them).
  const Expr *Stripped = stripIndexCasts(Value);
  ValueOrigin Origin = Provenance.originOf(Stripped);
  bool NonNegative = Stripped->getType()->isUnsignedIntegerType() ||
                     (Origin.isThreadDependent() && !Origin.isLoaded() &&
                      !Origin.isFromFloat());
  if (Constant == 0 && NonNegative)
    addLower(Value, 1, Guard, Facts);
}

void GuardDataflow::addExclusion(const BinaryOperator &Conjunction,
                                 FactSet &Facts) {
  llvm::SmallVector<const Expr *, 4> Operands;
  flattenChain(&Conjunction, BO_LAnd, Operands);
  Fact Exclusion;
  for (const Expr *Operand : Operands) {
    const auto *Equal = dyn_cast<BinaryOperator>(Operand);
    if (!Equal || Equal->getOpcode() != BO_EQ)
      return;
    const Expr *Value = Equal->getLHS();
    std::optional<int64_t> Constant = integerConstant(Equal->getRHS(), Context);
    if (!Constant) {
      Value = Equal->getRHS();
      Constant = integerConstant(Equal->getLHS(), Context);
    }
    if (!Constant || !needsBound(stripIndexCasts(Value)))
      return;
    Exclusion.Excluded.emplace_back(Value, *Constant);
    collectReadVariables(Value, Exclusion.Reads);
  }
  if (Exclusion.Excluded.size() < 2)
    return;
  Exclusion.Key = keyOf(&Conjunction);
  Exclusion.LowerGuard = &Conjunction;
  if (llvm::none_of(Facts,
                    [&](const Fact &F) { return F.Key == Exclusion.Key; }))
    Facts.push_back(std::move(Exclusion));
}

void GuardDataflow::resolveExclusions(FactSet &Facts) {
  auto Holds = [&](const Expr *Value, int64_t Constant) {
    const Fact *F = find(Value, Facts);
    return F && F->Lower && *F->Lower >= Constant && F->ConstUpper &&
           *F->ConstUpper <= Constant + 1;
  };
  // `else if (ty == 0)` after `if (ty == 0 && tx == 0)`: tx != 0.
  for (size_t I = 0; I < Facts.size(); ++I) {
    if (!Facts[I].isExclusion())
      continue;
    auto Excluded = Facts[I].Excluded;
    const Expr *Guard = Facts[I].LowerGuard;
    const std::pair<const Expr *, int64_t> *Open = nullptr;
    unsigned OpenCount = 0;
    for (const auto &Pair : Excluded)
      if (!Holds(Pair.first, Pair.second)) {
        Open = &Pair;
        ++OpenCount;
      }
    if (OpenCount == 1)
      assumeNotEqual(Open->first, Open->second, Guard, Facts);
  }
}

void GuardDataflow::kill(const VarDecl *Var, FactSet &Facts) {
  auto ReadsVar = [&](const Fact &F) {
    return F.Key.Var == Var || llvm::is_contained(F.Reads, Var);
  };
  llvm::erase_if(Facts, ReadsVar);
  // What a flag carries ends with the variables it reads, too.
  for (Fact &F : Facts)
    if (F.WhenTrue && llvm::any_of(*F.WhenTrue, ReadsVar)) {
      auto Kept = std::make_shared<FactSet>(*F.WhenTrue);
      llvm::erase_if(*Kept, ReadsVar);
      F.WhenTrue = std::move(Kept);
    }
  llvm::erase_if(Facts, [](const Fact &F) {
    return F.empty() && !F.Assigned && !F.isFlag() && !F.isExclusion();
  });
}

void GuardDataflow::defineFlag(const Expr *Value, const Expr *Ref,
                               FactSet &Facts) {
  Fact Flag;
  Flag.Key = keyOf(Ref);
  if (std::optional<int64_t> Constant = integerConstant(Value, Context)) {
    if (*Constant == 0)
      Flag.KnownFalse = true;
    else
      Flag.WhenTrue = std::make_shared<FactSet>(withoutFlags(Facts));
  } else {
    // `ok = i < n;`: what holds here, and the condition.
    auto Holds = std::make_shared<FactSet>(withoutFlags(Facts));
    assume(Value, /*Truth=*/true, *Holds, 0);
    Flag.WhenTrue = std::move(Holds);
  }
  Facts.push_back(std::move(Flag));
}

FactSet GuardDataflow::withoutFlags(const FactSet &Facts) {
  FactSet Result;
  for (const Fact &F : Facts)
    if (!F.isFlag())
      Result.push_back(F);
  return Result;
}

bool GuardDataflow::assumeFlag(const Expr *Cond, bool Truth,
                               FactSet &Facts) const {
  const VarDecl *Var = asLocalVariable(Cond);
  if (!Var || !Reassigned.contains(Var))
    return false;
  const Fact *Flag = nullptr;
  for (const Fact &F : Facts)
    if (F.Key.Var == Var && F.isFlag())
      Flag = &F;
  if (!Flag || !Truth || !Flag->WhenTrue)
    return Flag != nullptr;
  strengthen(Facts, *Flag->WhenTrue);
  return true;
}

void GuardDataflow::assume(const Expr *Cond, bool Truth, FactSet &Facts,
                           unsigned Depth) {
  if (Depth > 4)
    return;
  const Expr *Guard = Cond;
  Cond = stripIndexCasts(Cond);
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
    if (Not->getOpcode() == UO_LNot)
      assume(Not->getSubExpr(), !Truth, Facts, Depth + 1);
    return;
  }
  std::optional<BinaryOperation> Operation = asBinaryOperation(Cond);
  // A guard computed by a helper that returns a condition:
  // `if (inImage(x, y, w, h))`, read with the call's arguments.
  if (const auto *Call = dyn_cast<CallExpr>(Cond); Call && !Operation) {
    const FunctionDecl *Helper = Call->getDirectCallee();
    const FunctionDecl *Definition = nullptr;
    if (!Helper || !Helper->hasBody(Definition) ||
        Context.getSourceManager().isInSystemHeader(Definition->getLocation()))
      return;
    const auto *Body = dyn_cast<CompoundStmt>(Definition->getBody());
    const auto *Return = Body && Body->size() == 1
                             ? dyn_cast<ReturnStmt>(Body->body_front())
                             : nullptr;
    if (!Return || !Return->getRetValue() ||
        Call->getNumArgs() != Definition->getNumParams())
      return;
    auto Saved = Bindings;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      Bindings[Definition->getParamDecl(I)] = bound(Call->getArg(I));
    assume(Return->getRetValue(), Truth, Facts, Depth + 1);
    Bindings = std::move(Saved);
    return;
  }
  // A guard carried by a flag set on the guarded paths.
  if (assumeFlag(Cond, Truth, Facts))
    return;
  // A guard kept in a local that never changes: a bool, or an integer
  // flag initialised with a condition (`int valid = c >= 0 && c < w;`).
  if (const Expr *Init = unchangedInit(Cond);
      Init && (Cond->getType()->isBooleanType() ||
               stripIndexCasts(Init)->getType()->isBooleanType())) {
    assume(Init, Truth, Facts, Depth + 1);
    return;
  }
  if (!Operation)
    return;
  BinaryOperatorKind Op = Operation->Opcode;
  if ((Op == BO_LAnd && Truth) || (Op == BO_LOr && !Truth)) {
    assume(Operation->LHS, Truth, Facts, Depth + 1);
    assume(Operation->RHS, Truth, Facts, Depth + 1);
    return;
  }
  if (Op == BO_LAnd && !Truth) {
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
      addExclusion(*BO, Facts);
    return;
  }
  if (!BinaryOperator::isComparisonOp(Op))
    return;
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  const Expr *L = Operation->LHS, *R = Operation->RHS;
  // Normalise to `Value op Bound` with op one of <, <=, >, >=, ==.
  auto Record = [&](const Expr *Value, BinaryOperatorKind Rel,
                    const Expr *Bound) {
    std::optional<int64_t> Constant = integerConstant(Bound, Context);
    switch (Rel) {
    case BO_LT:
      addUpper(Value, Bound, 0, Guard, Facts);
      break;
    case BO_LE:
      addUpper(Value, Bound, 1, Guard, Facts);
      break;
    case BO_GT:
      if (Constant)
        addLower(Value, *Constant + 1, Guard, Facts);
      break;
    case BO_GE:
      if (Constant)
        addLower(Value, *Constant, Guard, Facts);
      break;
    case BO_EQ:
      // Equal to a constant is bounded both ways; equal to a variable bound
      // (`i == n`) is the classic one-past-the-end value, so it is not.
      if (Constant) {
        addUpper(Value, Bound, 1, Guard, Facts);
        addLower(Value, *Constant, Guard, Facts);
      }
      break;
    case BO_NE:
      if (Constant)
        assumeNotEqual(Value, *Constant, Guard, Facts);
      break;
    default:
      break;
    }
    // An unsigned comparison (`(unsigned)i < n`) also rules out negatives.
    if ((Rel == BO_LT || Rel == BO_LE) &&
        L->getType()->isUnsignedIntegerType() &&
        !stripIndexCasts(Value)->getType()->isUnsignedIntegerType())
      addLower(Value, 0, Guard, Facts);
  };
  auto Mirror = [](BinaryOperatorKind Rel) {
    switch (Rel) {
    case BO_LT:
      return BO_GT;
    case BO_LE:
      return BO_GE;
    case BO_GT:
      return BO_LT;
    case BO_GE:
      return BO_LE;
    default:
      return Rel;
    }
  };
  Record(L, Op, R);
  Record(R, Mirror(Op), L);
}

/// The bounds a clamp gives the value it computes: `min(v, hi)` is at most
/// hi, `max(v, lo)` at least lo, nestings combine, `v % n` is below n and
/// `v & mask` at most mask.
struct ClampBounds {
  const Expr *UpperBound = nullptr; ///< value < UpperBound + UpperSlack
  int64_t UpperSlack = 0;
  std::optional<int64_t> Lower;
};

/// `min(...)`, `max(...)`, `x % n` and `x & mask`: expressions that bound
/// their own value.
bool isClampExpression(const Expr *E) {
  E = stripIndexCasts(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_And;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const auto *Callee = dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl()))
      if (Callee->getIdentifier())
        if (MinMaxFunction MinMax = classifyMinMax(Callee->getName()))
          return !MinMax.Floating;
  return false;
}

/// What the analysis knows of a value where a clamp reads it.
struct ClampContext {
  const ASTContext &Context;
  llvm::function_ref<bool(const Expr *)> NeedsBound;
  /// A lower bound the current facts give the value, if any.
  llvm::function_ref<std::optional<int64_t>(const Expr *)> KnownLower;
  /// The initialiser of an unchanging local, if the value names one.
  llvm::function_ref<const Expr *(const Expr *)> InitOf;
  /// The bound and slack the current facts give the value from above, if
  /// any: `min(t, t3 + k)` inside `for (t = ...; t < T; ...)` is below T.
  llvm::function_ref<std::optional<std::pair<const Expr *, int64_t>>(
      const Expr *)>
      KnownUpper;
};

/// A lower bound of a floating-point value: `fmaxf(v, 0.0f)` is never below
/// 0 (nor NaN: fmaxf returns the other operand), and `fminf` of bounded
/// values keeps the smaller bound.
std::optional<double> floatLowerBound(const Expr *E, const ClampContext &C,
                                      unsigned Depth = 0) {
  if (Depth > 4)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const Expr *Init = C.InitOf(E))
    return floatLowerBound(Init, C, Depth + 1);
  llvm::APFloat Value(0.0);
  if (const auto *Literal = dyn_cast<FloatingLiteral>(E))
    return Literal->getValueAsApproximateDouble();
  if (std::optional<int64_t> Constant = integerConstant(E, C.Context))
    return static_cast<double>(*Constant);
  const auto *Call = dyn_cast<CallExpr>(E);
  const auto *Callee =
      Call ? dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl()) : nullptr;
  if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 2)
    return std::nullopt;
  MinMaxFunction MinMax = classifyMinMax(Callee->getName());
  std::optional<double> A = floatLowerBound(Call->getArg(0), C, Depth + 1);
  std::optional<double> B = floatLowerBound(Call->getArg(1), C, Depth + 1);
  if (MinMax.Kind == MinMaxKind::Max) {
    if (A && B)
      return std::max(*A, *B);
    return A ? A : B;
  }
  if (MinMax.Kind == MinMaxKind::Min)
    // The other operand is taken to be a size-like upper limit.
    return A && B ? std::min(*A, *B) : (A ? A : B);
  return std::nullopt;
}

ClampBounds clampBounds(const Expr *E, const ClampContext &C,
                        unsigned Depth = 0) {
  const ASTContext &Context = C.Context;
  auto NeedsBound = C.NeedsBound;
  ClampBounds Result;
  E = stripIndexCasts(E);
  if (Depth > 4)
    return Result;
  if (std::optional<int64_t> Constant = integerConstant(E, Context)) {
    Result.UpperBound = E;
    Result.UpperSlack = 1;
    Result.Lower = *Constant;
    return Result;
  }
  Result.Lower = C.KnownLower(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    if (Cast->getCastKind() == CK_FloatingToIntegral)
      if (std::optional<double> Lower = floatLowerBound(Cast->getSubExpr(), C);
          Lower && *Lower > -1e18)
        Result.Lower = static_cast<int64_t>(*Lower);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Rem && !NeedsBound(BO->getRHS())) {
      Result.UpperBound = BO->getRHS();
      if (BO->getType()->isUnsignedIntegerType())
        Result.Lower = 0;
    } else if (BO->getOpcode() == BO_And) {
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
        if (std::optional<int64_t> Mask = integerConstant(Side, Context);
            Mask && *Mask >= 0) {
          Result.UpperBound = Side;
          Result.UpperSlack = 1;
          Result.Lower = 0;
        }
    }
    return Result;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || Call->getNumArgs() != 2)
    return Result;
  const auto *Callee = dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl());
  if (!Callee || !Callee->getIdentifier())
    return Result;
  MinMaxFunction MinMax = classifyMinMax(Callee->getName());
  bool IsMin = MinMax.Kind == MinMaxKind::Min && !MinMax.Floating;
  bool IsMax = MinMax.Kind == MinMaxKind::Max && !MinMax.Floating;
  if (!IsMin && !IsMax)
    return Result;
  ClampBounds A = clampBounds(Call->getArg(0), C, Depth + 1);
  ClampBounds B = clampBounds(Call->getArg(1), C, Depth + 1);
  // An argument the analysis does not need to bound (a size, a constant)
  // bounds the minimum from above.
  for (auto [Arg, Bounds] :
       {std::pair(Call->getArg(0), &A), std::pair(Call->getArg(1), &B)}) {
    if (!Bounds->UpperBound && !NeedsBound(Arg)) {
      Bounds->UpperBound = Arg;
      Bounds->UpperSlack = 1;
    }
    // An argument a guard bounds bounds the minimum too.
    if (!Bounds->UpperBound && C.KnownUpper)
      if (auto Known = C.KnownUpper(Arg)) {
        Bounds->UpperBound = Known->first;
        Bounds->UpperSlack = Known->second;
      }
  }
  bool AIsBound = !NeedsBound(Call->getArg(0));
  bool BIsBound = !NeedsBound(Call->getArg(1));
  if (IsMin) {
    // min(a, b) <= a and <= b. It is >= lo when both are; a size-like
    // bound argument (`n - 1`) is taken to be at least the other's lower
    // bound, as in any sensible clamp `min(max(v, 0), n - 1)`.
    const ClampBounds &Upper = A.UpperBound ? A : B;
    Result.UpperBound = Upper.UpperBound;
    Result.UpperSlack = Upper.UpperSlack;
    if (A.Lower && B.Lower)
      Result.Lower = std::min(*A.Lower, *B.Lower);
    else if (BIsBound && A.Lower)
      Result.Lower = A.Lower;
    else if (AIsBound && B.Lower)
      Result.Lower = B.Lower;
  } else {
    // max(a, b) >= a and >= b; it is bounded above when both are, by the
    // runtime bound where one of them is a constant floor (`max(0, ...)`).
    if (A.Lower || B.Lower)
      Result.Lower =
          std::max(A.Lower.value_or(INT64_MIN), B.Lower.value_or(INT64_MIN));
    if (A.UpperBound && B.UpperBound) {
      bool AConstant = integerConstant(Call->getArg(0), Context).has_value();
      const ClampBounds &Upper = AConstant ? B : A;
      Result.UpperBound = Upper.UpperBound;
      Result.UpperSlack = Upper.UpperSlack;
    }
  }
  return Result;
}

void GuardDataflow::addClampFacts(const Expr *Value, const Expr *Clamp,
                                  FactSet &Facts, const FactSet &Known) {
  auto NeedsBound = [this](const Expr *E) { return needsBound(E); };
  auto KnownLower = [&](const Expr *E) -> std::optional<int64_t> {
    llvm::SmallVector<const Expr *, 2> Terms;
    int64_t Constant = 0;
    flattenSum(E, Context, Terms, Constant);
    if (Terms.size() != 1)
      return std::nullopt;
    const Fact *F = find(Terms.front(), Known);
    if (!F || !F->Lower)
      return std::nullopt;
    return *F->Lower + Constant;
  };
  auto InitOf = [this](const Expr *E) { return unchangedInit(E); };
  auto KnownUpper =
      [&](const Expr *E) -> std::optional<std::pair<const Expr *, int64_t>> {
    const Fact *F = find(E, Known);
    if (!F || !F->UpperSlack)
      return std::nullopt;
    // A fact's bound is the size its slack is relative to; when the guard
    // that set it compares another value (`t = t3` after `t3 < T`), the
    // value itself stands in for it, so that the clamp's fact ends with it.
    const Expr *Bound = comparedBound(F->UpperGuard, E);
    return std::make_pair(Bound ? Bound : E, *F->UpperSlack);
  };
  ClampBounds Bounds = clampBounds(
      Clamp, ClampContext{Context, NeedsBound, KnownLower, InitOf, KnownUpper});
  if (Bounds.UpperBound)
    addUpper(Value, Bounds.UpperBound, Bounds.UpperSlack, Clamp, Facts);
  if (Bounds.Lower)
    addLower(Value, *Bounds.Lower, Clamp, Facts);
}

/// `i / 16` (or `i >> 4`) indexing an array of known extent, with `i` below
/// a constant: the quotient is below that constant divided, rounded up.
/// `a[i / 16 + 2]` after `if (i >= 96) return;` reaches 95 / 16 + 2 = 7.
std::optional<Fact> GuardDataflow::quotientFact(const BinaryOperator &Quotient,
                                                const FactSet &Facts) const {
  if (!CurrentExtent)
    return std::nullopt;
  std::optional<int64_t> Divisor = integerConstant(Quotient.getRHS(), Context);
  if (Divisor && Quotient.getOpcode() == BO_Shr)
    Divisor = *Divisor >= 0 && *Divisor < 62
                  ? std::optional<int64_t>(int64_t(1) << *Divisor)
                  : std::nullopt;
  else if (Quotient.getOpcode() != BO_Div)
    return std::nullopt;
  const Fact *Dividend = find(Quotient.getLHS(), Facts);
  if (!Divisor || *Divisor < 1 || !Dividend || !Dividend->ConstUpper ||
      *Dividend->ConstUpper < 1)
    return std::nullopt;
  Fact Result;
  Result.ConstUpper = (*Dividend->ConstUpper - 1) / *Divisor + 1;
  Result.ConstUpperGuard = Dividend->ConstUpperGuard;
  if (Dividend->Lower)
    Result.Lower = *Dividend->Lower / *Divisor;
  Result.LowerGuard = Dividend->LowerGuard;
  return Result;
}

void GuardDataflow::judge(const Fact &F, const Expr *Part, int64_t Offset,
                          Judgement &Result) const {
  IndexProblem Problem;
  Problem.Part = Part;
  Problem.AssignedValue = F.Assigned;
  Problem.Variable = asLocalVariable(stripIndexCasts(Part));
  Problem.Offset = Offset;
  Problem.Source = sourceOf(Part);

  // A launch coordinate is bounded above by the launch itself, unless a
  // guard says the launch covers more than the data and lets the bound
  // through (`r = blockIdx.x; if (r > rows) return;`).
  bool GuardTooWeak =
      F.UpperSlack && *F.UpperSlack > -Offset + (ExtentPlusOne ? 1 : 0);
  bool UpperOK = UpperTrusted || (Offset <= 0 && !GuardTooWeak &&
                                  Provenance.originOf(Part).IsBareCoordinate);
  if (!UpperOK && F.UpperSlack)
    UpperOK = !GuardTooWeak;
  if (!UpperOK && F.ConstUpper)
    UpperOK = CurrentExtent
                  ? *F.ConstUpper + Offset <= *CurrentExtent
                  : Offset <= 0 || *F.ConstUpper + Offset <=
                                       writtenSize(F.ConstUpperGuard, Part)
                                           .value_or(*F.ConstUpper);
  if (!UpperOK) {
    if (!F.UpperSlack && !F.ConstUpper) {
      Problem.Kind = IndexProblemKind::Unbounded;
    } else {
      Problem.Kind = Offset > 0 ? IndexProblemKind::OffsetNotCovered
                                : IndexProblemKind::OnePastTheBound;
      Problem.Guard = F.anyUpperGuard();
      Problem.Bound = comparedBound(Problem.Guard, Part);
    }
    Result.Problems.push_back(Problem);
    return;
  }
  // Thread indexes are never negative; what is subtracted from them, and
  // values loaded or converted from floating point, need a lower bound.
  int64_t Needed = -Offset;
  bool NonNegative = Problem.Source == IndexSource::ThreadIndex ||
                     stripIndexCasts(Part)->getType()->isUnsignedIntegerType();
  // `t = threadIdx.y + 4` is at least 4 wherever it is read.
  std::optional<int64_t> Least =
      Needed > 0 && Problem.Source == IndexSource::ThreadIndex
          ? leastValue(Part)
          : std::nullopt;
  bool LowerOK = (Needed <= 0 && NonNegative) ||
                 (F.Lower && *F.Lower >= Needed) || (Least && *Least >= Needed);
  if (!LowerOK) {
    Problem.Kind = Problem.Source == IndexSource::ThreadIndex
                       ? IndexProblemKind::NegativeOffset
                       : IndexProblemKind::Unbounded;
    Problem.Guard = F.LowerGuard;
    Problem.MissingLowerBound = true;
    Result.Problems.push_back(Problem);
    return;
  }
  // A coordinate with a lower bound alone (`by` past `if (by == 0) ...`)
  // is as neutral as one with no fact: the launch bounds it, no guard does.
  if (F.UpperSlack || F.ConstUpper || UpperTrusted)
    Result.AnyBounded = true;
}

void GuardDataflow::evaluate(const Expr *E, int64_t Offset,
                             const FactSet &Facts, Judgement &Result) const {
  E = stripIndexCasts(E);
  if (!needsBound(E))
    return;
  if (const Fact *F = find(E, Facts)) {
    judge(*F, E, Offset, Result);
    return;
  }
  FactSet Clamped;
  if (isClampExpression(E))
    const_cast<GuardDataflow *>(this)->addClampFacts(E, E, Clamped, Facts);
  if (!Clamped.empty()) {
    judge(Clamped.front(), E, Offset, Result);
    return;
  }
  ValueOrigin Origin = Provenance.originOf(E);
  IndexProblem Problem;
  Problem.Part = E;
  Problem.Offset = Offset;
  Problem.Source = sourceOf(E);
  if (Origin.IsBareCoordinate) {
    // Bounded by the launch; neutral in a combination unless it is
    // decremented below zero.
    if (Offset < 0) {
      Problem.Kind = IndexProblemKind::NegativeOffset;
      Problem.MissingLowerBound = true;
      Result.Problems.push_back(Problem);
    } else if (Offset > 0 && !UpperTrusted) {
      // The launch bounds the coordinate, not the coordinate plus one.
      Problem.Kind = IndexProblemKind::OffsetNotCovered;
      Result.Problems.push_back(Problem);
    }
    return;
  }
  if (const VarDecl *Var = asLocalVariable(E)) {
    Problem.Variable = Var;
    // A local that never changes is as bounded as its initialiser:
    // `base = row * cols` after `if (row >= rows) return;`.
    const Expr *Init = unchangedInit(E);
    const Expr *Assigned = Init ? nullptr : assignedValue(E, Facts);
    Problem.AssignedValue = Assigned;
    if (!Init)
      Init = Assigned;
    if (Init && Substitutions < 4) {
      Judgement Sub;
      ++Substitutions;
      evaluate(Init, Offset, Facts, Sub);
      --Substitutions;
      if (!Sub.Problems.empty()) {
        // Name the variable unless the initialiser's problem names one.
        if (llvm::none_of(Sub.Problems, [](const IndexProblem &P) {
              return P.Variable != nullptr;
            })) {
          IndexProblem Named = Sub.Problems.front();
          Named.Part = E;
          Named.Variable = Var;
          Named.AssignedValue = Assigned;
          Result.Problems.push_back(Named);
          return;
        }
        Result.Problems.append(Sub.Problems.begin(), Sub.Problems.end());
        return;
      }
      if (Sub.AnyBounded) {
        Result.AnyBounded = true;
        return;
      }
      // A scaled coordinate (`blockIdx.x * cols`) is neutral; a sum of
      // coordinates of different levels is a global index needing a bound.
      if (!isGlobalCombination(Init))
        return;
    }
    if (UpperTrusted && Offset >= 0)
      return;
    if (UpperTrusted) {
      Problem.Kind = IndexProblemKind::NegativeOffset;
      Problem.MissingLowerBound = true;
    }
    Result.Problems.push_back(Problem);
    return;
  }
  // The start of row r of a packed triangle, `r * (r + 1) / 2`, stays below
  // the n(n+1)/2 stored while r < n, and one less (`(r + 1) * (r + 2) / 2 -
  // 1`, the end of row r) while r + 1 <= n. The row count is judged as such;
  // a triangular number is never negative, so no lower bound is asked.
  if (const Expr *Rows = packedTriangleRowCount(E, Context)) {
    Judgement Count;
    evaluate(Rows, Offset < 0 ? -2 : -1, Facts, Count);
    for (const IndexProblem &Problem : Count.Problems)
      if (!Problem.MissingLowerBound)
        Result.Problems.push_back(Problem);
    Result.AnyBounded |= Count.AnyBounded;
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp()) {
      evaluateSum(E, Offset, Facts, Result);
      return;
    }
    if (BO->isMultiplicativeOp() || BO->isShiftOp() || BO->isBitwiseOp()) {
      if (std::optional<Fact> Quotient = quotientFact(*BO, Facts)) {
        judge(*Quotient, E, Offset, Result);
        return;
      }
      for (auto [Row, Width] : {std::pair(BO->getLHS(), BO->getRHS()),
                                std::pair(BO->getRHS(), BO->getLHS())}) {
        Judgement Part;
        evaluate(Row, 0, Facts, Part);
        if (BO->getOpcode() == BO_Mul)
          markPaddedRows(Part, Width);
        Result.AnyBounded |= Part.AnyBounded;
        Result.Problems.append(Part.Problems.begin(), Part.Problems.end());
      }
      return;
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    // Each value under its side of the condition: `W = i == 0 ? c : c - 1`
    // takes `c - 1` only where `i` is not 0.
    FactSet WhenTrue = Facts, WhenFalse = Facts;
    if (isa<ConditionalOperator>(CO)) {
      auto *Self = const_cast<GuardDataflow *>(this);
      Self->assume(CO->getCond(), true, WhenTrue, 0);
      Self->assume(CO->getCond(), false, WhenFalse, 0);
    }
    evaluate(CO->getTrueExpr(), Offset, WhenTrue, Result);
    evaluate(CO->getFalseExpr(), Offset, WhenFalse, Result);
    return;
  }
  // `__mul24(row, w)`, the 24-bit product of the SDK's index macros, is a
  // product: each factor needs its own bound.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && Call->getNumArgs() == 2 &&
        llvm::is_contained({"__mul24", "__umul24"}, Callee->getName())) {
      evaluate(Call->getArg(0), 0, Facts, Result);
      evaluate(Call->getArg(1), 0, Facts, Result);
      return;
    }
  }
  // A call, a load or a conversion with no guard of its own.
  Result.Problems.push_back(Problem);
}

static bool readsLaunchExtent(const ValueOrigin &Origin) {
  return Origin.Builtins & (ValueOrigin::BlockDim | ValueOrigin::GridDim);
}

/// The least value of \p E over every thread of every launch, where it is
/// built from launch builtins and constants by sums and products of
/// non-negative parts: a coordinate is at least 0, a launch extent at least
/// 1 (every launched block has a thread in each dimension, every grid a
/// block), so `threadIdx.y + 4` is at least 4 and `2 * blockDim.x` at least
/// 2. Locals are read through their unchanged initialisers.
std::optional<int64_t> GuardDataflow::leastValue(const Expr *E,
                                                 unsigned Depth) const {
  E = stripIndexCasts(E);
  if (Depth > 4)
    return std::nullopt;
  if (std::optional<BuiltinComponent> Builtin = getBuiltinComponent(E))
    return Builtin->isCoordinate() ? 0 : 1;
  if (std::optional<int64_t> Constant = integerConstant(E, Context))
    return Constant;
  if (const auto *Op = dyn_cast<BinaryOperator>(E);
      Op && (Op->getOpcode() == BO_Add || Op->getOpcode() == BO_Mul)) {
    std::optional<int64_t> L = leastValue(Op->getLHS(), Depth + 1);
    std::optional<int64_t> R =
        L ? leastValue(Op->getRHS(), Depth + 1) : std::nullopt;
    int64_t Least = 0;
    if (!R)
      return std::nullopt;
    if (Op->getOpcode() == BO_Add)
      return __builtin_add_overflow(*L, *R, &Least) ? std::nullopt
                                                    : std::optional(Least);
    if (*L < 0 || *R < 0 || __builtin_mul_overflow(*L, *R, &Least))
      return std::nullopt;
    return Least;
  }
  if (const Expr *Init = unchangedInit(E))
    return leastValue(Init, Depth + 1);
  return std::nullopt;
}

void GuardDataflow::evaluateSum(const Expr *E, int64_t Offset,
                                const FactSet &Facts, Judgement &Result) const {
  if (std::optional<IndexProblem> Problem =
          negativeAtOrigin(E, Offset, Facts)) {
    Result.Problems.push_back(*Problem);
    return;
  }
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(E, Context, Terms, Constant);
  Offset += Constant;
  if (Terms.size() == 1 &&
      stripIndexCasts(Terms.front()) != stripIndexCasts(E)) {
    Judgement Part;
    evaluate(Terms.front(), Offset, Facts, Part);
    markAlignedLanes(Part, Terms.front(), Offset);
    Result.AnyBounded |= Part.AnyBounded;
    Result.Problems.append(Part.Problems.begin(), Part.Problems.end());
    return;
  }
  if (Terms.size() == 1) {
    // `a - b` with b not a constant: flattening leaves it whole. `i - nx`
    // keeps i's upper bound (how far below zero it may go is not known);
    // `n - 1 - i` is in bounds when i is.
    const auto *Difference = cast<BinaryOperator>(stripIndexCasts(E));
    if (std::optional<IndexProblem> Problem =
            rowAboveTheFirst(*Difference, Offset, Facts)) {
      Result.Problems.push_back(*Problem);
      return;
    }
    if (needsBound(Difference->getLHS()))
      evaluate(Difference->getLHS(), Offset, Facts, Result);
    if (needsBound(Difference->getRHS()))
      evaluate(Difference->getRHS(), 0, Facts, Result);
    return;
  }
  llvm::SmallVector<bool, 4> Covered(Terms.size(), false);
  llvm::SmallVector<llvm::FoldingSetNodeID, 4> TermIDs(Terms.size());
  for (size_t I = 0; I < Terms.size(); ++I)
    Terms[I]->Profile(TermIDs[I], Context, /*Canonical=*/true);
  // A guard on part of the sum (`t * TILE + tx < K` inside
  // `row * K + t * TILE + tx`) covers those terms together.
  for (const Fact &F : Facts) {
    if (F.Terms.size() < 2 || F.Terms.size() >= Terms.size())
      continue;
    llvm::SmallVector<size_t, 4> Matched;
    for (const llvm::FoldingSetNodeID &ID : F.Terms)
      for (size_t I = 0; I < Terms.size(); ++I)
        if (!Covered[I] && !llvm::is_contained(Matched, I) &&
            TermIDs[I] == ID) {
          Matched.push_back(I);
          break;
        }
    if (Matched.size() != F.Terms.size())
      continue;
    bool HasLast = llvm::is_contained(Matched, Terms.size() - 1);
    judge(F, E, HasLast ? Offset : 0, Result);
    for (size_t I : Matched)
      Covered[I] = true;
  }
  for (size_t I = 0; I < Terms.size(); ++I)
    for (size_t J = 0; J < Terms.size(); ++J)
      if (I != J && !Covered[I] && !Covered[J] &&
          boundedTogether(Terms[I], Terms[J], Offset, Facts)) {
        Covered[I] = Covered[J] = true;
        Result.AnyBounded = true;
      }
  const Expr *LaunchExtent = nullptr;
  // A uniform term that moves at run time (`t * TILE` in a tile loop).
  bool HasMovingOffset = false;
  const Expr *MovingAddend = nullptr;
  size_t LastNeedy = Terms.size();
  for (size_t I = 0; I < Terms.size(); ++I) {
    if (Covered[I])
      continue;
    if (needsBound(Terms[I])) {
      LastNeedy = I;
      continue;
    }
    if (readsLaunchExtent(Provenance.originOf(Terms[I]))) {
      LaunchExtent = LaunchExtent ? LaunchExtent : Terms[I];
      // `t + blockDim.x - 1` is not below `t`: the extent is at least 1.
      if (std::optional<int64_t> Least = leastValue(Terms[I]);
          Least && *Least > 0 && Offset < 0)
        Offset = std::min<int64_t>(0, Offset + *Least);
    } else if (readsReassignedLocal(Terms[I])) {
      HasMovingOffset = true;
      // An unscaled loop counter (`oy + ky`) shifts the value itself.
      if (!MovingAddend && asLocalVariable(stripIndexCasts(Terms[I])))
        MovingAddend = Terms[I];
    }
  }
  for (size_t I = 0; I < Terms.size(); ++I) {
    if (Covered[I] || !needsBound(Terms[I]))
      continue;
    const Expr *Term = stripIndexCasts(Terms[I]);
    int64_t TermOffset = I == LastNeedy ? Offset : 0;
    if (Provenance.originOf(Term).IsBareCoordinate && HasMovingOffset &&
        !UpperTrusted && !find(Term, Facts)) {
      // `t * TILE + threadIdx.x`: the coordinate walks a tile whose offset
      // changes at run time; in the last, partial tile it passes the end.
      IndexProblem Problem;
      Problem.Kind = IndexProblemKind::UnboundedTileColumn;
      Problem.Part = E;
      Result.Problems.push_back(Problem);
      continue;
    }
    Judgement Part;
    const Expr *Addend = LaunchExtent;
    if (!Addend && MovingAddend && asLocalVariable(Term)) {
      // A counter of a loop with constant limits (`for (dy = -1; dy <= 1;
      // ++dy)`) is an offset in a known range: judge both ends.
      if (auto Range = loopCounterRange(MovingAddend)) {
        evaluate(Term, TermOffset + Range->second, Facts, Part);
        evaluate(Term, TermOffset + Range->first, Facts, Part);
        Result.AnyBounded |= Part.AnyBounded;
        if (!Part.Problems.empty()) {
          IndexProblem Problem = Part.Problems.front();
          // `dst[idx + k]`, k below the vector width that idx steps by:
          // the lanes of one vector, past the bound only when the bound is
          // not a multiple of the width.
          Problem.WithinAlignedVector =
              Problem.Kind == IndexProblemKind::OffsetNotCovered &&
              Range->first >= 0 && TermOffset == 0 &&
              Range->second < constantFactorOf(Term);
          Result.Problems.push_back(Problem);
        }
        continue;
      }
      Addend = MovingAddend;
    }
    evaluate(Term, TermOffset, Facts, Part);
    if (Addend && Part.Problems.empty() && Part.AnyBounded && !UpperTrusted) {
      // `j + u * s` in the main loop of an unrolled stride loop: the loop's
      // own limit leaves room for every lane.
      if (const Fact *F = find(Term, Facts);
          F && Unrolled.keepsLaneBelowLimit(F->anyUpperGuard(),
                                            asLocalVariable(Term), Addend)) {
        Result.AnyBounded = true;
        continue;
      }
      IndexProblem Problem;
      Problem.Kind = IndexProblemKind::LaunchExtentOffset;
      Problem.Part = Term;
      Problem.Variable = asLocalVariable(Term);
      Problem.Addend = Addend;
      if (const Fact *F = find(Term, Facts)) {
        Problem.Guard = F->anyUpperGuard();
        Problem.Bound = comparedBound(Problem.Guard, Term);
      }
      Result.Problems.push_back(Problem);
      continue;
    }
    markAlignedLanes(Part, Term, TermOffset);
    Result.AnyBounded |= Part.AnyBounded;
    Result.Problems.append(Part.Problems.begin(), Part.Problems.end());
  }
}

void GuardDataflow::markAlignedLanes(Judgement &Part, const Expr *Term,
                                     int64_t Offset) const {
  // `dst[idx + 1]` with `idx` a multiple of 2: a constant lane of an
  // aligned vector, as `dst[idx + k]` with `k` below the width is.
  for (IndexProblem &Problem : Part.Problems)
    Problem.WithinAlignedVector |=
        Problem.Kind == IndexProblemKind::OffsetNotCovered && Offset > 0 &&
        Offset < constantFactorOf(Term);
}

void GuardDataflow::markPaddedRows(Judgement &Part, const Expr *Width) const {
  // `(i + 1) * (w + 2)`: the width leaves a halo column on each side, and a
  // halo row above and below goes with them (Jacobi's and the halo
  // exchanges' layout), so rows up to `i + 2` are the buffer's.
  std::optional<int64_t> Padding = paddingOf(Width);
  if (!Padding)
    return;
  for (IndexProblem &Problem : Part.Problems)
    Problem.WithinPaddedRows |=
        Problem.Kind == IndexProblemKind::OffsetNotCovered &&
        Problem.Offset > 0 && Problem.Offset <= *Padding;
}

std::optional<int64_t> GuardDataflow::paddingOf(const Expr *Width,
                                                unsigned Depth) const {
  Width = stripIndexCasts(Width);
  if (Depth > 4)
    return std::nullopt;
  if (const Expr *Init = unchangedInit(Width))
    return paddingOf(Init, Depth + 1);
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Width, Context, Terms, Constant);
  if (Terms.empty() || Constant <= 0)
    return std::nullopt;
  return Constant;
}

bool GuardDataflow::boundedTogether(const Expr *X, const Expr *Y,
                                    int64_t Offset,
                                    const FactSet &Facts) const {
  const Expr *Width = nullptr;
  if (const Fact *F = find(X, Facts);
      F && F->UpperSlack && *F->UpperSlack + Offset <= 0)
    Width = comparedBound(F->UpperGuard, X);
  // A counter of a loop up to the width, which needs no bound of its own
  // (`for (k = 0; k < w; ++k)`): the loop's test holds in its body.
  else if (const VarDecl *Var = asLocalVariable(stripIndexCasts(X)))
    if (const ForStmt *For = CounterLoops.lookup(Var))
      if (std::optional<CountedLoop> Shape = countedLoop(*For, Context);
          Shape && Shape->Test == BO_LT && Offset <= 0 && Shape->Step &&
          *Shape->Step > 0 &&
          For->getBody()->getSourceRange().fullyContains(X->getSourceRange()))
        Width = Shape->Bound;
  for (unsigned Depth = 0; Width && Depth < 4; ++Depth) {
    const auto *Difference = dyn_cast<BinaryOperator>(stripIndexCasts(Width));
    if (Difference && Difference->getOpcode() == BO_Sub)
      return isSameValue(Difference->getRHS(), Y, Context);
    Width = unchangedInit(Width);
  }
  return false;
}

std::optional<int64_t> GuardDataflow::leastNonNegative(const Expr *E) const {
  E = stripIndexCasts(E);
  std::optional<int64_t> Least = leastValue(E);
  if (Least && *Least >= 0 && *Least < (int64_t(1) << 20))
    return Least;
  if (E->getType()->isUnsignedIntegerType())
    return 0;
  return std::nullopt;
}

int64_t GuardDataflow::constantFactorOf(const Expr *E, unsigned Depth) const {
  constexpr int64_t Largest = int64_t(1) << 20;
  E = stripIndexCasts(E);
  if (Depth > 4)
    return 1;
  if (std::optional<int64_t> Constant = integerConstant(E, Context))
    return *Constant > 0 && *Constant <= Largest ? *Constant : 1;
  if (const Expr *Init = unchangedInit(E))
    return constantFactorOf(Init, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return 1;
  int64_t L = constantFactorOf(BO->getLHS(), Depth + 1);
  switch (BO->getOpcode()) {
  case BO_Mul:
    return std::min(Largest, L * constantFactorOf(BO->getRHS(), Depth + 1));
  case BO_Shl:
    if (std::optional<int64_t> Shift = integerConstant(BO->getRHS(), Context);
        Shift && *Shift >= 0 && *Shift < 20)
      return std::min(Largest, L << *Shift);
    return L;
  case BO_Add:
  case BO_Sub:
    return std::gcd(L, constantFactorOf(BO->getRHS(), Depth + 1));
  default:
    return 1;
  }
}

std::optional<std::pair<int64_t, int64_t>>
GuardDataflow::loopCounterRange(const Expr *Counter) const {
  const VarDecl *Var = asLocalVariable(stripIndexCasts(Counter));
  // The loop whose init declares the counter.
  const ForStmt *For = Var ? CounterLoops.lookup(Var) : nullptr;
  std::optional<CountedLoop> Shape =
      For ? countedLoop(*For, Context) : std::nullopt;
  if (!Shape || Shape->Counter != Var || Shape->Step != 1)
    return std::nullopt;
  std::optional<int64_t> Start = integerConstant(Shape->Start, Context);
  std::optional<int64_t> Limit = integerConstant(Shape->Bound, Context);
  if (!Start || !Limit)
    return std::nullopt;
  if (Shape->Test == BO_LT && *Limit > *Start)
    return std::make_pair(*Start, *Limit - 1);
  if (Shape->Test == BO_LE && *Limit >= *Start)
    return std::make_pair(*Start, *Limit);
  return std::nullopt;
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

std::optional<std::pair<const ArraySubscriptExpr *, const ArraySubscriptExpr *>>
GuardDataflow::loadedRangeOf(const VarDecl &Counter, const ForStmt &For) const {
  std::optional<CountedLoop> Shape = countedLoop(For, Context);
  if (!Shape || Shape->Counter != &Counter ||
      (Shape->Test != BO_LT && Shape->Test != BO_LE))
    return std::nullopt;
  // `beg = ptr[v]`, `end = ptr[v + 1]`: read directly or through locals.
  auto LoadOf = [&](const Expr *E) {
    E = stripIndexCasts(E);
    if (const Expr *Init = unchangedInit(E))
      E = stripIndexCasts(Init);
    return dyn_cast<ArraySubscriptExpr>(E);
  };
  const ArraySubscriptExpr *Start = LoadOf(Shape->Start);
  const ArraySubscriptExpr *End = LoadOf(Shape->Bound);
  if (!Start || !End || !isSameValue(Start->getBase(), End->getBase(), Context))
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> StartTerms, EndTerms;
  int64_t StartConstant = 0, EndConstant = 0;
  flattenSum(Start->getIdx(), Context, StartTerms, StartConstant);
  flattenSum(End->getIdx(), Context, EndTerms, EndConstant);
  if (EndConstant != StartConstant + 1 ||
      StartTerms.size() != EndTerms.size() ||
      !llvm::all_of(llvm::zip(StartTerms, EndTerms), [&](auto Pair) {
        return isSameValue(std::get<0>(Pair), std::get<1>(Pair), Context);
      }))
    return std::nullopt;
  return std::make_pair(Start, End);
}

void GuardDataflow::collectRangeArrays() {
  for (auto [Counter, For] : CounterLoops)
    if (auto Range = loadedRangeOf(*Counter, *For))
      if (const Decl *Array = arrayDeclOf(Range->first->getBase()))
        RangeArrays.insert(Array->getCanonicalDecl());
}

std::optional<IndexProblem>
GuardDataflow::pastHalfOpenRange(const Expr *Index,
                                 const FactSet &Facts) const {
  const VarDecl *Var = asLocalVariable(Index);
  const ForStmt *For = Var ? CounterLoops.lookup(Var) : nullptr;
  std::optional<CountedLoop> Shape =
      For ? countedLoop(*For, Context) : std::nullopt;
  if (!Shape || Shape->Test != BO_LE || !loadedRangeOf(*Var, *For))
    return std::nullopt;
  const auto *Cond = cast<BinaryOperator>(stripIndexCasts(For->getCond()));
  // A check inside the loop (`if (i == end) break;`) keeps it in range.
  if (const Fact *F = find(Index, Facts);
      F && F->UpperSlack && *F->UpperSlack <= 0)
    return std::nullopt;
  IndexProblem Problem;
  Problem.Kind = IndexProblemKind::OnePastTheBound;
  Problem.Source = IndexSource::Loaded;
  Problem.Part = Index;
  Problem.Variable = Var;
  Problem.Guard = Cond;
  Problem.Bound = Shape->Bound;
  Problem.PastRangeEnd = true;
  return Problem;
}

bool GuardDataflow::zeroAtOrigin(
    const Expr *E, llvm::SmallVectorImpl<const Expr *> &Coordinates,
    unsigned Depth) const {
  E = stripIndexCasts(E);
  if (Depth > 6)
    return false;
  if (std::optional<BuiltinComponent> Component = getBuiltinComponent(E))
    if (Component->isCoordinate()) {
      Coordinates.push_back(E);
      return true;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Mul: {
      // One factor at 0 is enough; keep the coordinates of both.
      bool Left = zeroAtOrigin(BO->getLHS(), Coordinates, Depth + 1);
      bool Right = zeroAtOrigin(BO->getRHS(), Coordinates, Depth + 1);
      return Left || Right;
    }
    case BO_Add:
      return zeroAtOrigin(BO->getLHS(), Coordinates, Depth + 1) &&
             zeroAtOrigin(BO->getRHS(), Coordinates, Depth + 1);
    case BO_Shl:
      return zeroAtOrigin(BO->getLHS(), Coordinates, Depth + 1);
    default:
      return false;
    }
  }
  if (const Expr *Init = unchangedInit(E)) {
    // `row`, then what it is computed from: a guard on either is one on
    // the row.
    Coordinates.push_back(E);
    return zeroAtOrigin(Init, Coordinates, Depth + 1);
  }
  return false;
}

GuardDataflow::OriginTerm GuardDataflow::classifyOriginTerm(
    const Expr *Term, const FactSet &Facts,
    llvm::SmallVectorImpl<const Expr *> &Named) const {
  llvm::SmallVector<const Expr *, 4> Coordinates;
  if (!zeroAtOrigin(Term, Coordinates))
    return OriginTerm::NonZero;
  // `if (ty > 0)`, `if (row == 0) return;`: off the first row or column.
  for (const Expr *Coordinate : Coordinates)
    if (const Fact *F = find(Coordinate, Facts);
        F && F->Lower && *F->Lower >= 1)
      return OriginTerm::Guarded;
  // Named as written: `row`, not what `row` is computed from.
  for (const Expr *Coordinate : Coordinates) {
    bool Inner = llvm::any_of(Coordinates, [&](const Expr *Outer) {
      const Expr *Init = unchangedInit(Outer);
      return Outer != Coordinate && Init &&
             Init->getSourceRange().fullyContains(Coordinate->getSourceRange());
    });
    bool Known = llvm::any_of(Named, [&](const Expr *K) {
      return isSameValue(K, Coordinate, Context);
    });
    if (!Inner && !Known)
      Named.push_back(Coordinate);
  }
  return OriginTerm::Unguarded;
}

std::optional<IndexProblem>
GuardDataflow::negativeAtOrigin(const Expr *Sum, int64_t Offset,
                                const FactSet &Facts) const {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Sum, Context, Terms, Constant);
  if (UpperTrusted || Terms.size() < 2 || Constant + Offset >= 0)
    return std::nullopt;
  IndexProblem Problem;
  for (const Expr *Term : Terms)
    if (classifyOriginTerm(Term, Facts, Problem.OriginCoordinates) !=
        OriginTerm::Unguarded)
      return std::nullopt;
  if (const Fact *F = find(Sum, Facts); F && F->Lower)
    return std::nullopt;
  Problem.Kind = IndexProblemKind::NegativeOffset;
  Problem.Part = Sum;
  Problem.Offset = Constant + Offset;
  Problem.MissingLowerBound = true;
  return Problem;
}

std::optional<IndexProblem>
GuardDataflow::rowAboveTheFirst(const BinaryOperator &Difference,
                                int64_t Offset, const FactSet &Facts) const {
  const Expr *Width = stripIndexCasts(Difference.getRHS());
  if (Difference.getOpcode() != BO_Sub || UpperTrusted ||
      Provenance.originOf(Width).isThreadDependent() ||
      Provenance.originOf(Width).isLoaded())
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Difference.getLHS(), Context, Terms, Constant);
  if (Terms.empty() || Constant + Offset > 0)
    return std::nullopt;
  IndexProblem Problem;
  for (const Expr *Term : Terms) {
    // The row term, `cols * ty`: scaled by the width subtracted.
    llvm::SmallVector<const Expr *, 4> Factors{stripIndexCasts(Term)};
    bool ScaledByWidth = false;
    while (!Factors.empty() && !ScaledByWidth) {
      const Expr *Factor = Factors.pop_back_val();
      ScaledByWidth = isSameValue(Factor, Width, Context);
      if (const auto *Product = dyn_cast<BinaryOperator>(Factor);
          Product && Product->getOpcode() == BO_Mul) {
        Factors.push_back(stripIndexCasts(Product->getLHS()));
        Factors.push_back(stripIndexCasts(Product->getRHS()));
      }
    }
    llvm::SmallVector<const Expr *, 2> Ignored;
    OriginTerm Kind = classifyOriginTerm(
        Term, Facts, ScaledByWidth ? Problem.OriginCoordinates : Ignored);
    if (Kind == OriginTerm::NonZero ||
        (ScaledByWidth && Kind == OriginTerm::Guarded))
      return std::nullopt;
  }
  if (Problem.OriginCoordinates.empty())
    return std::nullopt;
  // A guard on the whole difference, or on what it is subtracted from.
  if (const Fact *F = find(&Difference, Facts); F && F->Lower)
    return std::nullopt;
  if (const Fact *F = find(Difference.getLHS(), Facts);
      F && F->Lower && *F->Lower >= 1)
    return std::nullopt;
  Problem.Kind = IndexProblemKind::NegativeOffset;
  Problem.Part = &Difference;
  Problem.MissingLowerBound = true;
  Problem.RowWidth = Width;
  return Problem;
}

const Expr *GuardDataflow::pointerOffsetOf(const Expr *Base) const {
  const Expr *Init = unchangedInitializer(Base, Reassigned);
  if (!Init || !Base->IgnoreParenImpCasts()->getType()->isPointerType())
    return nullptr;
  if (auto Sum = splitPointerSum(Init, /*AddressOfElement=*/true))
    return Sum->second;
  return nullptr;
}

void GuardDataflow::checkPointerArguments(
    const CallExpr &Call, const FactSet &Facts,
    std::vector<UnguardedAccess> &Findings) {
  // Member and operator calls number their arguments differently; the
  // accessors that matter are free functions.
  if (isa<CXXOperatorCallExpr, CXXMemberCallExpr>(Call))
    return;
  for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
    auto Sum = splitPointerSum(Call.getArg(I));
    if (!Sum || !Dereferenced.dereferences(Call, I))
      continue;
    IndexedAccess Access{Call.getArg(I), Sum->first, Sum->second};
    Access.PassedTo = &Call;
    checkAccess(Access, Facts, Findings);
  }
}

void GuardDataflow::checkAccess(IndexedAccess Access, const FactSet &Facts,
                                std::vector<UnguardedAccess> &Findings) {
  if (!Access.BaseOffset)
    Access.BaseOffset = pointerOffsetOf(Access.Base);
  // `row[c]` with `row = feats + r * ld`: the row's offset is part of the
  // index into feats, and needs the bound its guard gives.
  if (Access.BaseOffset && needsBound(stripIndexCasts(Access.BaseOffset))) {
    UpperTrusted = false;
    CurrentExtent.reset();
    ExtentPlusOne = false;
    Judgement Offset;
    evaluate(Access.BaseOffset, 0, Facts, Offset);
    // `xp = &x[inX]; for (k = 0; k < w; ++k) xp[k]` with `w = end - inX`.
    if (!Offset.Problems.empty() &&
        boundedTogether(stripIndexCasts(Access.Index), Access.BaseOffset, 0,
                        Facts))
      Offset.Problems.clear();
    if (!Offset.Problems.empty()) {
      Findings.push_back({Access, Offset.Problems});
      return;
    }
  }
  const Expr *Index = stripIndexCasts(Access.Index);
  if (!needsBound(Index)) {
    if (std::optional<IndexProblem> Problem = pastHalfOpenRange(Index, Facts))
      Findings.push_back({Access, {*Problem}});
    return;
  }
  ValueOrigin Origin = Provenance.originOf(Index);
  if (Origin.IsBareCoordinate) {
    if (Options.Unproven)
      Options.Unproven->push_back(Access);
    return;
  }
  // A block-local index into block-sized storage (shared tiles, reduction
  // buffers) is sized by the launch; only going below zero is in question.
  UpperTrusted = Options.TrustBlockSizedStorage && Origin.isBlockLocal() &&
                 !Origin.isFromFloat() && !Origin.isLoaded() &&
                 isBlockStorage(Access.Base);
  CurrentExtent.reset();
  ExtentPlusOne = isExtentPlusOneArray(Access.Base);
  if (const auto *Array = Context.getAsConstantArrayType(
          Access.Base->IgnoreParenImpCasts()->getType()))
    CurrentExtent = Array->getSize().getLimitedValue(INT64_MAX);
  Judgement Result;
  evaluate(Index, 0, Facts, Result);
  if (Result.Problems.empty()) {
    // Nothing bounded it, but a scaled coordinate (`out[blockIdx.x * cols]`,
    // `scratch[threadIdx.x >> 5]`) is sized by the launch; only a sum of
    // coordinates (`blockIdx.x * blockDim.x + threadIdx.x`) needs a guard.
    bool CheckedBlockStorage = !Options.TrustBlockSizedStorage &&
                               Origin.isBlockLocal() &&
                               isBlockStorage(Access.Base);
    // Guards prove it, unless only the launch was trusted for the upper end.
    if (Result.AnyBounded && !UpperTrusted)
      return;
    if (UpperTrusted || (!isGlobalCombination(Index) && !CheckedBlockStorage)) {
      if (Options.Unproven)
        Options.Unproven->push_back(Access);
      return;
    }
    // Only launch builtins, combined: `blockIdx.x * blockDim.x + threadIdx.x`.
    IndexProblem Problem;
    Problem.Part = Index;
    Problem.Variable = asLocalVariable(Index);
    Problem.Source = sourceOf(Index);
    Result.Problems.push_back(Problem);
  }
  Findings.push_back({Access, Result.Problems});
}

bool GuardDataflow::transfer(const Stmt *S, FactSet &Facts,
                             std::vector<UnguardedAccess> *Findings) {
  const auto *E = dyn_cast<Expr>(S);
  if (Findings && E)
    if (auto Access = getIndexedAccess(E))
      checkAccess(*Access, Facts, *Findings);

  // A new value for a variable ends what was known of the old one; a clamp
  // or a copy of a bounded value brings its bounds.
  auto Define = [&](const VarDecl *Var, const Expr *Value, const Expr *Ref) {
    FactSet Before = Facts;
    kill(Var, Facts);
    if (!Value)
      return;
    if (Var->getType()->isBooleanType() && Reassigned.contains(Var)) {
      defineFlag(Value, Ref, Facts);
      return;
    }
    // `if (i > n - 1) i = n - 1;`: a value that needs no bound of its own is
    // the variable's bound, so both edges of the clamp agree at the join.
    if (!needsBound(stripIndexCasts(Value)))
      addUpper(Ref, Value, 1, Value, Facts);
    addClampFacts(Ref, Value, Facts, Before);
    if (const Fact *Source = find(Value, Before)) {
      if (Source->Key.Var == Var)
        return;
      Fact Copy = *Source;
      Copy.Key = keyOf(Ref);
      Copy.Terms.clear();
      collectReadVariables(Value, Copy.Reads);
      Facts.push_back(std::move(Copy));
      return;
    }
    // Otherwise the variable is as bounded as the value, while nothing the
    // value reads changes: kept for the accesses that read the variable, and
    // for what a problem with it says of where its value comes from.
    if (!Reassigned.contains(Var) || !needsBound(stripIndexCasts(Value)))
      return;
    llvm::SmallVector<const VarDecl *, 4> Reads;
    collectReadVariables(Value, Reads);
    if (llvm::is_contained(Reads, Var))
      return;
    Fact &Holds = factFor(Ref, Facts);
    Holds.Assigned = Value;
    for (const VarDecl *Read : Reads)
      if (!llvm::is_contained(Holds.Reads, Read))
        Holds.Reads.push_back(Read);
  };
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D)) {
        DeclRefExpr *Ref = DeclRefExpr::Create(
            Context, NestedNameSpecifierLoc(), SourceLocation(),
            const_cast<VarDecl *>(Var), false, Var->getLocation(),
            Var->getType(), VK_LValue);
        Define(Var, Var->getInit(), Ref);
      }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *Var =
              asLocalVariable(BO->getLHS()->IgnoreParenImpCasts())) {
        if (BO->getOpcode() == BO_Assign)
          Define(Var, BO->getRHS(), BO->getLHS());
        else if (BO->getOpcode() == BO_RemAssign && !needsBound(BO->getRHS())) {
          kill(Var, Facts);
          addUpper(BO->getLHS(), BO->getRHS(), 0, BO, Facts);
        } else if ((BO->getOpcode() == BO_DivAssign ||
                    BO->getOpcode() == BO_ShrAssign) &&
                   !needsBound(BO->getRHS())) {
          // `id /= w` (darknet's `j = id % w; id /= w;`) only brings an
          // index closer to 0: what bounded it above still does.
          std::optional<Fact> Kept;
          if (const Fact *Own = find(BO->getLHS(), Facts);
              Own && (Own->UpperSlack || Own->ConstUpper))
            Kept = Own->upperBoundsOnly();
          kill(Var, Facts);
          if (Kept)
            Facts.push_back(std::move(*Kept));
        } else {
          kill(Var, Facts);
        }
      }
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    // Whoever gets the address of a flag may set it.
    bool FlagAddress =
        UO->getOpcode() == UO_AddrOf &&
        UO->getSubExpr()->IgnoreParenImpCasts()->getType()->isBooleanType();
    if (UO->isIncrementDecrementOp() || FlagAddress)
      if (const VarDecl *Var =
              asLocalVariable(UO->getSubExpr()->IgnoreParenImpCasts()))
        kill(Var, Facts);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (isNoReturnCall(Call))
      return false;
    if (Findings) {
      checkHelperCall(*Call, Facts, *Findings);
      checkPointerArguments(*Call, Facts, *Findings);
    }
  }
  return true;
}

const std::vector<GuardDataflow::HelperSink> &
GuardDataflow::sinksOf(const FunctionDecl &Helper) {
  auto [It, Inserted] = Sinks.try_emplace(&Helper);
  if (!Inserted)
    return It->second;
  llvm::SmallVector<const ParmVarDecl *, 4> Parameters;
  for (const ParmVarDecl *Param : Helper.parameters())
    if (Param->getType()->isIntegralOrEnumerationType())
      Parameters.push_back(Param);
  if (Parameters.empty())
    return It->second;
  ThreadIndexProvenance HelperProvenance(Helper, Context);
  GuardDataflow Summary(Helper, Context, HelperProvenance, Options, Parameters,
                        HelperDepth + 1);
  std::vector<HelperSink> Found;
  for (const UnguardedAccess &Finding : Summary.run()) {
    const IndexProblem &Problem = Finding.Problems.front();
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(Problem.Variable);
    if (!Param || Problem.Kind != IndexProblemKind::Unbounded || Finding.Helper)
      continue;
    Found.push_back({Param->getFunctionScopeIndex(), Problem.Offset,
                     Finding.Access.Access});
  }
  // The map may have grown during the nested run.
  return Sinks[&Helper] = std::move(Found);
}

void GuardDataflow::checkHelperCall(const CallExpr &Call, const FactSet &Facts,
                                    std::vector<UnguardedAccess> &Findings) {
  const FunctionDecl *Helper = Call.getDirectCallee();
  if (!Helper || HelperDepth >= 2 || Helper == &Function ||
      !Helper->hasAttr<CUDADeviceAttr>())
    return;
  const FunctionDecl *Definition = nullptr;
  if (!Helper->hasBody(Definition) ||
      Context.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return;
  for (const HelperSink &Sink : sinksOf(*Definition)) {
    if (Sink.Parameter >= Call.getNumArgs())
      continue;
    const Expr *Argument = Call.getArg(Sink.Parameter);
    if (!needsBound(Argument))
      continue;
    UpperTrusted = false;
    CurrentExtent.reset();
    ExtentPlusOne = false;
    Judgement Result;
    evaluate(Argument, Sink.Offset, Facts, Result);
    if (Result.Problems.empty()) {
      if (Result.AnyBounded ||
          Provenance.originOf(stripIndexCasts(Argument)).IsBareCoordinate)
        continue;
      IndexProblem Problem;
      Problem.Part = stripIndexCasts(Argument);
      Problem.Source = sourceOf(Argument);
      Result.Problems.push_back(Problem);
    }
    UnguardedAccess Finding{{&Call, nullptr, Argument}, Result.Problems};
    Finding.Helper = Definition;
    Finding.HelperAccess = Sink.Access;
    Findings.push_back(std::move(Finding));
  }
}

/// What holds after a join: the facts both sides know, at their weakest.
static FactSet meet(const FactSet &A, const FactSet &B) {
  FactSet Result;
  for (const Fact &F : A) {
    const Fact *G = nullptr;
    for (const Fact &Candidate : B)
      if (Candidate.Key == F.Key)
        G = &Candidate;
    if (!G)
      continue;
    Fact M = F;
    M.UpperSlack.reset();
    M.ConstUpper.reset();
    M.Lower.reset();
    if (F.UpperSlack && G->UpperSlack) {
      M.UpperSlack = std::max(*F.UpperSlack, *G->UpperSlack);
      M.UpperGuard =
          *G->UpperSlack > *F.UpperSlack ? G->UpperGuard : F.UpperGuard;
    }
    if (F.ConstUpper && G->ConstUpper) {
      M.ConstUpper = std::max(*F.ConstUpper, *G->ConstUpper);
      M.ConstUpperGuard = *G->ConstUpper > *F.ConstUpper ? G->ConstUpperGuard
                                                         : F.ConstUpperGuard;
    }
    if (F.Lower && G->Lower) {
      M.Lower = std::min(*F.Lower, *G->Lower);
      M.LowerGuard = *G->Lower < *F.Lower ? G->LowerGuard : F.LowerGuard;
    }
    for (const VarDecl *Var : G->Reads)
      if (!llvm::is_contained(M.Reads, Var))
        M.Reads.push_back(Var);
    if (F.Assigned != G->Assigned)
      M.Assigned = nullptr;
    // A flag true after the join came from a side where it was true: what
    // it carried there and what held there. False on one side, it carries
    // the other side's.
    M.KnownFalse = F.KnownFalse && G->KnownFalse;
    M.WhenTrue = nullptr;
    if (F.KnownFalse && G->WhenTrue)
      M.WhenTrue = carriedAcrossJoin(*G, B);
    else if (G->KnownFalse && F.WhenTrue)
      M.WhenTrue = carriedAcrossJoin(F, A);
    else if (F.WhenTrue && G->WhenTrue)
      M.WhenTrue = std::make_shared<FactSet>(
          meet(*carriedAcrossJoin(F, A), *carriedAcrossJoin(*G, B)));
    if (!M.empty() || M.Assigned || M.isFlag() || M.isExclusion())
      Result.push_back(std::move(M));
  }
  return Result;
}

static bool sameFacts(const FactSet &A, const FactSet &B) {
  if (A.size() != B.size())
    return false;
  for (const Fact &F : A)
    if (llvm::none_of(B, [&](const Fact &G) {
          return G.Key == F.Key && G.UpperSlack == F.UpperSlack &&
                 G.ConstUpper == F.ConstUpper && G.Lower == F.Lower &&
                 G.Assigned == F.Assigned && G.KnownFalse == F.KnownFalse &&
                 (G.WhenTrue == F.WhenTrue ||
                  (G.WhenTrue && F.WhenTrue &&
                   sameFacts(*G.WhenTrue, *F.WhenTrue)));
        }))
      return false;
  return true;
}

std::vector<UnguardedAccess> GuardDataflow::run() {
  std::vector<UnguardedAccess> Findings;
  if (!Function.hasBody())
    return Findings;
  std::unique_ptr<CFG> Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return Findings;

  ForwardDataflow<GuardDataflow> Dataflow(*Graph, *this);
  Dataflow.run(FactSet());
  // Report from the fixpoint only, so that each access is judged once
  // against the facts that hold on every path.
  Recording = &Findings;
  Dataflow.forEachElement([](const CFGElement &, const FactSet &) {});
  Recording = nullptr;

  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Findings, [&](const UnguardedAccess &A, const UnguardedAccess &B) {
    return SM.isBeforeInTranslationUnit(A.Access.Access->getBeginLoc(),
                                        B.Access.Access->getBeginLoc());
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

std::optional<UpperLimit> upperLimitOf(const Expr *Guard, const Expr *Part,
                                       const ASTContext &Context) {
  std::optional<BinaryOperation> Compare =
      Guard ? asBinaryOperation(stripIndexCasts(Guard)) : std::nullopt;
  if (!Compare || !BinaryOperator::isRelationalOp(Compare->Opcode) || !Part)
    return std::nullopt;
  // With Part on the left: `<` and the false edge of `>=` keep it below
  // the other side, `<=` and the false edge of `>` one above.
  auto OnLeft = [](BinaryOperatorKind Op) {
    return Op == BO_LT || Op == BO_GE ? int64_t(0) : int64_t(1);
  };
  for (bool PartOnLeft : {true, false}) {
    const Expr *Side = PartOnLeft ? Compare->LHS : Compare->RHS;
    llvm::SmallVector<const Expr *, 2> Terms;
    int64_t Added = 0;
    flattenSum(Side, Context, Terms, Added);
    if (Terms.size() != 1 || !isSameValue(Terms.front(), Part, Context))
      continue;
    BinaryOperatorKind Op =
        PartOnLeft ? Compare->Opcode
                   : BinaryOperator::reverseComparisonOp(Compare->Opcode);
    return UpperLimit{PartOnLeft ? Compare->RHS : Compare->LHS,
                      OnLeft(Op) - Added};
  }
  return std::nullopt;
}

} // namespace gpuguard
