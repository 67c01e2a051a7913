//===--- IndexEvidence.cpp - Why an unguarded index can go wrong ----------===//

#include "Analysis/Cuda/IndexEvidence.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/EnclosingNodes.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace gpuguard::cuda {

namespace {

/// A bound that is a size: what the data holds, not a position in it. A
/// bound computed from the thread's coordinates (`own_pos`), or one that
/// reads a variable the function steps (a loop counter `t`), is an
/// inclusive last position, and `i <= pos` is how code says "up to and
/// including pos".
/// Whether \p E reads a variable the function assigns: a value that moves
/// at run time.
bool readsAssignedVariable(const Expr *E, const IndexEvidenceContext &Where) {
  llvm::SmallVector<const VarDecl *, 4> Read;
  collectReadVariables(E, Read);
  return llvm::any_of(
      Read, [&](const VarDecl *Var) { return Where.Assigned.contains(Var); });
}

bool isSizeLikeBound(const Expr *Bound, const IndexEvidenceContext &Where) {
  if (!Bound)
    return true;
  return !Where.Provenance.isThreadDependent(Bound) &&
         !readsAssignedVariable(Bound, Where);
}

/// The sides of \p Comparison other than \p Part: the bound of `i < n`, the
/// other arguments of `min(i, n)`.
llvm::SmallVector<const Expr *, 2> otherSides(const Expr *Comparison,
                                              const Expr *Part,
                                              const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 2> Sides;
  auto Add = [&](const Expr *Side) {
    if (!isSameValue(Side, Part, Context))
      Sides.push_back(Side);
  };
  if (const auto *Compare = dyn_cast<BinaryOperator>(Comparison)) {
    Add(Compare->getLHS());
    Add(Compare->getRHS());
  } else if (const auto *Call = dyn_cast<CallExpr>(Comparison)) {
    for (const Expr *Arg : Call->arguments())
      Add(Arg);
  }
  return Sides;
}

/// Whether \p Comparison compares \p Part with a size: not with another
/// index (`j_base > i_base`), and not with zero or below (`i >= 0` is a
/// lower bound).
bool comparesWithSize(const Expr *Comparison, const Expr *Part,
                      const IndexEvidenceContext &Where) {
  llvm::SmallVector<const Expr *, 2> Sides =
      otherSides(Comparison, Part, Where.Context);
  return !Sides.empty() && llvm::all_of(Sides, [&](const Expr *Side) {
    std::optional<int64_t> Constant = integerConstant(Side, Where.Context);
    return isSizeLikeBound(Side, Where) && (!Constant || *Constant > 0);
  });
}

/// Whether \p Guard is a clamp (`min(i, n)`) whose bounds, the arguments
/// that do not depend on the thread, are sizes: `min(t, t2b + t2i)` clamps
/// to a position, not a size.
bool clampsToSize(const Expr *Guard, const IndexEvidenceContext &Where) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Guard);
  if (!Call)
    return false;
  bool AnyBound = false;
  for (const Expr *Arg : Call->arguments()) {
    if (Where.Provenance.isThreadDependent(Arg))
      continue;
    std::optional<int64_t> Constant = integerConstant(Arg, Where.Context);
    if (!isSizeLikeBound(Arg, Where) || (Constant && *Constant <= 0))
      return false;
    AnyBound = true;
  }
  return AnyBound;
}

/// Whether \p Part is the index, one term of its sum, or a row times its
/// stride: a part reached through another variable or divided (`i * 4 + k`
/// held in `element`, `idx / C`) is judged by its shape, and a comparison of
/// `i` elsewhere says nothing of it.
bool isUnscaledTerm(const UnguardedAccess &Access, const Expr *Part,
                    const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Access.Access.Index, Context, Terms, Constant);
  return llvm::any_of(Terms, [&](const Expr *Term) {
    if (isSameValue(Term, Part, Context))
      return true;
    // A row times its stride (`row * cols`) is the row, unscaled.
    const auto *Product = dyn_cast<BinaryOperator>(stripIndexCasts(Term));
    return Product && Product->getOpcode() == BO_Mul &&
           (isSameValue(Product->getLHS(), Part, Context) ||
            isSameValue(Product->getRHS(), Part, Context));
  });
}

/// Whether \p Matches holds for a statement under \p S, \p S included,
/// searched in pre-order and stopped at the first.
bool anyStatement(const Stmt *S,
                  llvm::function_ref<bool(const Stmt *)> Matches) {
  if (!S)
    return false;
  if (Matches(S))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return anyStatement(Child, Matches);
  });
}

/// Whether \p Inner lies inside \p Outer's source range.
bool encloses(const Stmt *Outer, const Expr *Inner, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SourceRange Range = Outer->getSourceRange();
  SourceLocation Loc = SM.getFileLoc(Inner->getBeginLoc());
  return !SM.isBeforeInTranslationUnit(Loc, SM.getFileLoc(Range.getBegin())) &&
         !SM.isBeforeInTranslationUnit(SM.getFileLoc(Range.getEnd()), Loc);
}

/// Whether \p Comparison is the condition of an `if`, loop or `?:` whose
/// body holds the access: then it bounds this path, however weakly the
/// analysis could read it.
bool guardsAccess(const Expr *Comparison, const UnguardedAccess &Access,
                  const IndexEvidenceContext &Where) {
  const Expr *Accessed = Access.Access.Access;
  return anyStatement(Where.Function.getBody(), [&](const Stmt *S) {
    // A do-while tests after its body has run once: no guard.
    const Expr *Condition = isa<DoStmt>(S) ? nullptr : conditionOf(S);
    // The access in the body, or in the condition after the comparison
    // (`i < n && a[i]`); not before it (`a[i] && i < n`).
    return Condition && encloses(Condition, Comparison, Where.Context) &&
           encloses(S, Accessed, Where.Context) &&
           (!encloses(Condition, Accessed, Where.Context) ||
            Where.Context.getSourceManager().isBeforeInTranslationUnit(
                Comparison->getEndLoc(), Accessed->getBeginLoc()));
  });
}

/// Whether a condition over the access bounds a sum that adds something to
/// \p Part (`if (i + BlockSize < n)`, with the template's BlockSize the
/// launch's blockDim.x): the author guards the offset form, in a shape the
/// analysis cannot match with the index.
bool guardsOffsetForm(const UnguardedAccess &Access, const Expr *Part,
                      const IndexEvidenceContext &Where) {
  if (!Part)
    return false;
  return llvm::any_of(Where.Compared.boundedOperands(), [&](const Expr *E) {
    llvm::SmallVector<const Expr *, 4> Terms;
    int64_t Constant = 0;
    flattenSum(E, Where.Context, Terms, Constant);
    return Terms.size() > 1 &&
           llvm::any_of(Terms,
                        [&](const Expr *Term) {
                          return isSameValue(Term, Part, Where.Context);
                        }) &&
           guardsAccess(E, Access, Where);
  });
}

/// Whether \p Var is decreased after the statement whose condition holds
/// \p Comparison ends and before \p Access: the comparison was about an
/// earlier, larger value (`for (; c < C; c += s) ...; c -= s; ... p + c`).
/// A value that grew since (`i += blockDim.x`) keeps the evidence.
bool decreasedSince(const VarDecl *Var, const Expr *Comparison,
                    const Expr *Access, const IndexEvidenceContext &Where) {
  const SourceManager &Sources = Where.Context.getSourceManager();
  const Stmt *Owner = nullptr;
  anyStatement(Where.Function.getBody(), [&](const Stmt *S) {
    const Expr *Condition = conditionOf(S);
    if (Condition && encloses(Condition, Comparison, Where.Context))
      Owner = S;
    return Owner != nullptr;
  });
  SourceLocation After = Owner ? Owner->getEndLoc() : Comparison->getEndLoc();
  return anyStatement(Where.Function.getBody(), [&](const Stmt *S) {
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_SubAssign)
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isDecrementOp())
      Target = UO->getSubExpr();
    return Target && asLocalVariable(Target->IgnoreParenImpCasts()) == Var &&
           Sources.isBeforeInTranslationUnit(After, S->getBeginLoc()) &&
           Sources.isBeforeInTranslationUnit(S->getEndLoc(),
                                             Access->getBeginLoc());
  });
}

/// The bound \p Comparison puts on \p Part on the edge where \p Part is
/// below it, read as exclusive: `n` in `i < n` and `i >= n` (Adjust 0), `n`
/// in `i <= n` and `n >= i` (Adjust 1: the bound is n + 1). Null for a clamp
/// or a comparison \p Part is not a side of.
struct ExclusiveBound {
  const Expr *Bound = nullptr;
  int64_t Adjust = 0;
};
ExclusiveBound exclusiveBoundOf(const Expr *Comparison, const Expr *Part,
                                const ASTContext &Context) {
  const auto *Compare = dyn_cast<BinaryOperator>(Comparison);
  if (!Compare || !Compare->isRelationalOp())
    return {};
  BinaryOperatorKind Kind = Compare->getOpcode();
  if (isSameValue(Compare->getLHS(), Part, Context))
    return {Compare->getRHS(), Kind == BO_LE || Kind == BO_GT ? 1 : 0};
  if (isSameValue(Compare->getRHS(), Part, Context))
    return {Compare->getLHS(), Kind == BO_GE || Kind == BO_LT ? 1 : 0};
  return {};
}

/// Whether \p Comparison keeps \p Part below a size minus something (`i <=
/// n - 2`, `i < N - 1` with N a constant): room for a neighbour `i + 1`.
/// Its author expects the value to reach the last element, not to pass it.
bool leavesRoomForNeighbour(const Expr *Comparison, const Expr *Part,
                            const ASTContext &Context) {
  ExclusiveBound Exclusive = exclusiveBoundOf(Comparison, Part, Context);
  const auto *Minus =
      Exclusive.Bound
          ? dyn_cast<BinaryOperator>(Exclusive.Bound->IgnoreParenImpCasts())
          : nullptr;
  if (!Minus || Minus->getOpcode() != BO_Sub)
    return false;
  std::optional<int64_t> Room = integerConstant(Minus->getRHS(), Context);
  return Room && *Room - Exclusive.Adjust >= 1;
}

/// The constant subtracted from \p Part in \p Index (1 for `i - 1`, for
/// `(i - 1) + j * w` and for `i + (j - 1) * w` with \p Part `j`), or none.
std::optional<int64_t> subtractedFrom(const Expr *Index, const Expr *Part,
                                      const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Index, Context, Terms, Constant);
  for (const Expr *Term : Terms) {
    if (isSameValue(Term, Part, Context))
      return Constant < 0 ? std::optional<int64_t>(-Constant) : std::nullopt;
    // A row minus one times its stride.
    const auto *Product = dyn_cast<BinaryOperator>(stripIndexCasts(Term));
    if (!Product || Product->getOpcode() != BO_Mul)
      continue;
    for (const Expr *Factor : {Product->getLHS(), Product->getRHS()}) {
      llvm::SmallVector<const Expr *, 2> Rows;
      int64_t RowConstant = 0;
      flattenSum(Factor, Context, Rows, RowConstant);
      if (Rows.size() == 1 && RowConstant < 0 &&
          isSameValue(Rows.front(), Part, Context))
        return -RowConstant;
    }
  }
  return std::nullopt;
}

/// Whether \p Comparison tests \p Part against a constant c that the
/// function subtracts from \p Part in an index, by at most c: `i >= 1`
/// before `a[i - 1]`, `g < R ? 0 : in[g - R]`. It guards the lower end,
/// and says nothing of the upper one.
bool testsLowerEnd(const Expr *Comparison, const Expr *Part,
                   const IndexEvidenceContext &Where) {
  ExclusiveBound Exclusive = exclusiveBoundOf(Comparison, Part, Where.Context);
  std::optional<int64_t> Constant =
      Exclusive.Bound ? integerConstant(Exclusive.Bound, Where.Context)
                      : std::nullopt;
  if (!Constant)
    return false;
  int64_t Edge = *Constant + Exclusive.Adjust;
  return anyStatement(Where.Function.getBody(), [&](const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    std::optional<IndexedAccess> Access =
        E ? getIndexedAccess(E) : std::nullopt;
    std::optional<int64_t> Below =
        Access ? subtractedFrom(Access->Index, Part, Where.Context)
               : std::nullopt;
    return Below && *Below <= Edge;
  });
}

/// The comparison elsewhere in the function that bounds the faulty part
/// itself by a size, on a path that does not reach the
/// access; or null. Only the part: that `i` is compared says nothing of
/// `binarySearch(...) + i`.
const Expr *comparisonElsewhere(const UnguardedAccess &Access,
                                const IndexProblem &Problem,
                                const IndexEvidenceContext &Where) {
  if (!Problem.Part || !isUnscaledTerm(Access, Problem.Part, Where.Context))
    return nullptr;
  // The first comparison about the upper end decides; tests of the lower
  // end and bounds that leave room for a neighbour are about other values.
  for (const Expr *Comparison :
       Where.Compared.boundingComparisons(Problem.Part)) {
    if (leavesRoomForNeighbour(Comparison, Problem.Part, Where.Context) ||
        testsLowerEnd(Comparison, Problem.Part, Where))
      continue;
    if (!comparesWithSize(Comparison, Problem.Part, Where) ||
        guardsAccess(Comparison, Access, Where))
      return nullptr;
    if (Problem.Variable && Where.Assigned.contains(Problem.Variable) &&
        decreasedSince(Problem.Variable, Comparison, Access.Access.Access,
                       Where))
      return nullptr;
    return Comparison;
  }
  return nullptr;
}

/// Whether \p Part is computed, through the definitions of the variables it
/// reads, from a thread-dependent value the function bounds somewhere: the
/// author bounded the thread's index, and what is derived from it is the
/// algorithm's business, not the launch's.
bool derivesFromComparedValue(const Expr *Part,
                              const IndexEvidenceContext &Where) {
  // The part's own variables: a bound on `row` elsewhere is evidence
  // (comparisonElsewhere()), not a derivation.
  llvm::SmallVector<const VarDecl *, 8> Own, Worklist;
  // A helper's result (`src[offsetOf(i, info)]`) is derived from its
  // arguments: a bound on `i` there is a bound on what it maps `i` to.
  if (const auto *Call = dyn_cast<CallExpr>(stripIndexCasts(Part)))
    for (const Expr *Argument : Call->arguments())
      collectReadVariables(Argument, Worklist);
  else
    collectReadVariables(Part, Own);
  for (const VarDecl *Var : Own)
    if (const VariableDefinition *Definition =
            Where.Provenance.definitionOf(Var))
      collectReadVariables(Definition->Value, Worklist);
  llvm::SmallPtrSet<const VarDecl *, 8> Seen(Own.begin(), Own.end());
  while (!Worklist.empty() && Seen.size() < 16) {
    const VarDecl *Var = Worklist.pop_back_val();
    if (!Seen.insert(Var).second || !Where.Provenance.isThreadDependent(Var))
      continue;
    if (Where.Compared.boundingComparison(Var))
      return true;
    if (const VariableDefinition *Definition =
            Where.Provenance.definitionOf(Var))
      collectReadVariables(Definition->Value, Worklist);
  }
  return false;
}

/// Whether \p Indexed indexes its pointer straight (`p[i]`, `*(p + i)`):
/// not a row pointer set earlier, not a pointer handed to a helper. What a
/// launch passes for the pointer is then what the index counts from.
bool isStraightThroughPointer(const IndexedAccess &Indexed) {
  return !Indexed.BaseOffset && !Indexed.PassedTo && Indexed.Base &&
         Indexed.Index;
}

/// A visible launch and allocation that take the access past the end
/// (LaunchReach.h), for an access straight through a kernel's pointer.
IndexEvidence launchPastAllocation(const UnguardedAccess &Access,
                                   const IndexEvidenceContext &Where) {
  const IndexedAccess &Indexed = Access.Access;
  if (!isStraightThroughPointer(Indexed))
    return {};
  // Each problem of one access asks; the launches answer once.
  auto [Cached, Inserted] = Where.ReachByAccess.try_emplace(Indexed.Access);
  if (Inserted)
    Cached->second =
        reachPastAllocation(Where.Function, *Indexed.Access, *Indexed.Base,
                            *Indexed.Index, Where.Launches, Where.Context);
  const std::optional<ReachPastAllocation> &Reach = Cached->second;
  if (!Reach)
    return {};
  return {IndexEvidenceKind::PastAllocation, nullptr, nullptr, Reach};
}

/// Whether \p Access only forms an address that a pointer variable keeps
/// (`const T *xp = &x[inX];`, `rows[i] = &x[inX];`): the address one past
/// the end is a valid pointer, and what reads through it is judged there.
/// An address handed to a call (`atomicAdd(&hist[i], 1)`) is an access.
bool formsAddressOnly(const Expr &Access, ASTContext &Context) {
  const auto *AddressOf =
      dyn_cast_or_null<UnaryOperator>(userOf(Access, Context).User);
  if (!AddressOf || AddressOf->getOpcode() != UO_AddrOf)
    return false;
  ValueUser Use = userOf(*AddressOf, Context);
  if (isa_and_nonnull<VarDecl>(Use.Declaration))
    return true;
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(Use.User);
  return Assign && Assign->getOpcode() == BO_Assign &&
         Assign->getRHS() == Use.Operand;
}

/// A guard too weak for the allocation a launch in view passes: the
/// guarded index passes its end.
IndexEvidence guardedLaunchPastAllocation(const UnguardedAccess &Access,
                                          const IndexProblem &Problem,
                                          const IndexEvidenceContext &Where) {
  const IndexedAccess &Indexed = Access.Access;
  if (!isStraightThroughPointer(Indexed) || !Problem.Part || !Problem.Guard)
    return {};
  std::optional<ReachPastAllocation> Reach = guardedReachPastAllocation(
      Where.Function, *Indexed.Base, *Indexed.Index, *Problem.Part,
      *Problem.Guard, Where.Launches, Where.Context);
  if (!Reach)
    return {};
  return {IndexEvidenceKind::PastAllocation, nullptr, nullptr, Reach};
}

/// A guard that looks too weak for the index, `(i + 1) * w` under
/// `i < rows`, that every launch in view shows to be enough for the buffer
/// it allocates: `(rows + 2) * w` elements, halo rows above and below.
bool allocationsHoldGuardedReach(const UnguardedAccess &Access,
                                 const IndexProblem &Problem,
                                 const IndexEvidenceContext &Where) {
  const IndexedAccess &Indexed = Access.Access;
  if (!isStraightThroughPointer(Indexed) || !Problem.Part || !Problem.Guard)
    return false;
  return guardKeepsInsideAllocation(
      Where.Function, *Indexed.Base, *Indexed.Index, *Problem.Part,
      *Problem.Guard, Where.Launches, Where.Context);
}

/// Whether a comparison in \p Problem's guard keeps \p Problem's part plus
/// a block extent below the bound (`ix + blockDim.x < nx`) and every launch
/// in view makes that extent at least the offset the index adds: `in[ti +
/// BDIMX]` where every block is BDIMX threads across.
bool launchedBlocksCoverOffset(const IndexProblem &Problem,
                               const IndexEvidenceContext &Where) {
  if (!Problem.Guard || !Problem.Part || Problem.Offset <= 0 ||
      !Where.Function.hasAttr<CUDAGlobalAttr>())
    return false;
  return anyStatement(Problem.Guard, [&](const Stmt *S) {
    const auto *Compare = dyn_cast<BinaryOperator>(S);
    if (!Compare || !Compare->isRelationalOp())
      return false;
    BinaryOperatorKind Kind = Compare->getOpcode();
    const Expr *Lesser =
        Kind == BO_LT || Kind == BO_LE ? Compare->getLHS() : Compare->getRHS();
    llvm::SmallVector<const Expr *, 4> Terms;
    int64_t Room = 0;
    flattenSum(Lesser, Where.Context, Terms, Room);
    bool HasPart = false;
    for (const Expr *Term : Terms) {
      if (!HasPart && isSameValue(Term, Problem.Part, Where.Context)) {
        HasPart = true;
        continue;
      }
      std::optional<BuiltinComponent> Extent = getBuiltinComponent(Term);
      if (!Extent || Extent->Kind != BuiltinVariable::BlockDim)
        return false;
      std::optional<int64_t> Least = Where.Launches.leastConstantBlockExtent(
          Where.Function, Extent->Dimension - 'x');
      if (!Least)
        return false;
      Room += *Least;
    }
    // `ix + b < nx` keeps `ix + b` below `nx`; `ix + b <= nx`, `ix + b - 1`.
    if (Kind == BO_LE || Kind == BO_GE)
      --Room;
    return HasPart && Terms.size() > 1 && Problem.Offset <= Room;
  });
}

/// `t * TILE + tx` with `t` counting the tiles of a loop that stops before
/// a partial one (`for (t = 0; t < K / TILE; ++t)`): every term that moves
/// at run time is such a counter times its loop's tile width.
bool visitsWholeTiles(const Expr *Sum, const IndexEvidenceContext &Where) {
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Sum, Where.Context, Terms, Constant);
  llvm::DenseMap<const VarDecl *, const ForStmt *> Counters;
  collectLoopCounters(Where.Function.getBody(), Counters);
  auto IsWholeTile = [&](const Expr *Term) {
    const auto *Product = dyn_cast<BinaryOperator>(stripIndexCasts(Term));
    if (!Product || Product->getOpcode() != BO_Mul)
      return false;
    for (auto [Counter, Width] :
         {std::pair(Product->getLHS(), Product->getRHS()),
          std::pair(Product->getRHS(), Product->getLHS())}) {
      auto Loop = Counters.find(asLocalVariable(stripIndexCasts(Counter)));
      if (Loop != Counters.end() &&
          visitsWholeTilesOnly(*Loop->second, *Width, Where.Context))
        return true;
    }
    return false;
  };
  bool AnyTile = false;
  for (const Expr *Term : Terms) {
    if (!readsAssignedVariable(Term, Where))
      continue;
    if (!IsWholeTile(Term))
      return false;
    AnyTile = true;
  }
  return AnyTile;
}

/// A launch whose grid is rounded up in a dimension \p Index is computed
/// from: a grid rounded up along x adds threads past the data in x only.
IndexEvidence roundedUpLaunch(const Expr *Index,
                              const IndexEvidenceContext &Where) {
  if (!Where.Function.hasAttr<CUDAGlobalAttr>())
    return {};
  // All three axes where the coordinates are not known.
  unsigned Axes = Where.Provenance.originOf(Index).CoordinateAxes;
  if (const KernelLaunch *Launch =
          Where.Launches.firstRoundedUpLaunch(Where.Function, Axes ? Axes : 7u))
    return {IndexEvidenceKind::RoundedUpLaunch, Launch};
  return {};
}

/// `tid + s` under `tid < s`, `v[threadIdx.x + 64]` under
/// `threadIdx.x < 64`: the step of a tree reduction, which stays below
/// twice the bound, the size of the array it halves.
bool isTreeReductionStep(const UnguardedAccess &Access,
                         const IndexProblem &Problem,
                         const IndexEvidenceContext &Where) {
  if (!Problem.Bound || !Access.Access.Index)
    return false;
  llvm::SmallVector<const Expr *, 4> Terms;
  int64_t Constant = 0;
  flattenSum(Access.Access.Index, Where.Context, Terms, Constant);
  llvm::SmallVector<const Expr *, 4> Rest;
  bool RemovedPart = false;
  for (const Expr *Term : Terms) {
    if (!RemovedPart && isSameValue(Term, Problem.Part, Where.Context)) {
      RemovedPart = true;
      continue;
    }
    Rest.push_back(Term);
  }
  if (!RemovedPart)
    return false;
  if (Rest.empty()) {
    std::optional<int64_t> Bound =
        integerConstant(Problem.Bound, Where.Context);
    return Bound && Constant == *Bound;
  }
  return Rest.size() == 1 && Constant == 0 &&
         isSameValue(Rest.front(), Problem.Bound, Where.Context);
}

/// An offset past a guard, judged: evidence for a step on an index into
/// the grid's data (`in[i + 1]` under `i < n`, the stencil's neighbour,
/// `in[i + j]` in a window), not for a tree reduction's step or an index
/// into block-sized storage.
bool isUncoveredOffsetEvidence(const UnguardedAccess &Access,
                               const IndexProblem &Problem,
                               const IndexEvidenceContext &Where) {
  if (!Problem.Guard || !isSizeLikeBound(Problem.Bound, Where))
    return false;
  if (Problem.Part && Where.Provenance.originOf(Problem.Part).isBlockLocal())
    return false;
  return !isTreeReductionStep(Access, Problem, Where);
}

} // namespace

IndexEvidenceContext::IndexEvidenceContext(
    const FunctionDecl &Function, ASTContext &Context,
    const ComparedValues &Compared, const ThreadIndexProvenance &Provenance,
    const KernelLaunches &Launches)
    : Function(Function), Context(Context), Compared(Compared),
      Provenance(Provenance), Launches(Launches) {
  collectAssignedVariables(Function.getBody(), Assigned);
}

IndexEvidence evidenceFor(const UnguardedAccess &Access,
                          const IndexProblem &Problem,
                          const IndexEvidenceContext &Where) {
  if (Where.CheckBlockLocalIndexes && Problem.Part &&
      Where.Provenance.originOf(Problem.Part).isBlockLocal())
    return {IndexEvidenceKind::BlockLocalIndex};
  switch (Problem.Kind) {
  case IndexProblemKind::OnePastTheBound:
    if (formsAddressOnly(*Access.Access.Access, Where.Context))
      return {};
    if (Problem.PastRangeEnd)
      return {IndexEvidenceKind::WeakGuard};
    if ((Problem.Bound ? isSizeLikeBound(Problem.Bound, Where)
                       : clampsToSize(Problem.Guard, Where)) &&
        !allocationsHoldGuardedReach(Access, Problem, Where))
      return {IndexEvidenceKind::WeakGuard};
    return {};
  case IndexProblemKind::NegativeOffset:
    // `in[i - R]` where every launch passes `d_in + R`: the elements before
    // the pointer are the allocation's, a halo the launcher left.
    if (!Problem.RowWidth && Problem.Offset < 0 &&
        isStraightThroughPointer(Access.Access))
      if (std::optional<int64_t> Room =
              leastLaunchOffset(Where.Function, *Access.Access.Base,
                                Where.Launches, Where.Context);
          Room && *Room >= -Problem.Offset)
        return {};
    return {IndexEvidenceKind::ThreadZero};
  case IndexProblemKind::OffsetNotCovered:
    // The lanes of an aligned vector pass the bound only if the data size
    // is not a multiple of the width, which vectorised code asserts.
    if (Problem.WithinAlignedVector)
      return {};
    // A row of a padded layout: past the end only if the buffer has no halo
    // rows, which an allocation in view shows.
    if (Problem.WithinPaddedRows)
      return guardedLaunchPastAllocation(Access, Problem, Where);
    if (isUncoveredOffsetEvidence(Access, Problem, Where))
      return allocationsHoldGuardedReach(Access, Problem, Where) ||
                     launchedBlocksCoverOffset(Problem, Where)
                 ? IndexEvidence{}
                 : IndexEvidence{IndexEvidenceKind::WeakGuard};
    return launchPastAllocation(Access, Where);
  case IndexProblemKind::LaunchExtentOffset:
    // `in[i + blockDim.x]` under `i < n`: evidence unless a condition over
    // the access bounds such a sum in a shape the analysis cannot match.
    if (isUncoveredOffsetEvidence(Access, Problem, Where) &&
        !guardsOffsetForm(Access, Problem.Part, Where) &&
        !allocationsHoldGuardedReach(Access, Problem, Where))
      return {IndexEvidenceKind::WeakGuard};
    return {};
  case IndexProblemKind::UnboundedTileColumn:
    // The partial last tile exists only where the grid is rounded up, and
    // only for an index that grows with the grid.
    if (Where.Provenance.originOf(Access.Access.Index).isBlockLocal() ||
        visitsWholeTiles(Problem.Part, Where))
      return {};
    return roundedUpLaunch(Access.Access.Index, Where);
  case IndexProblemKind::Unbounded:
    if (Problem.Source == IndexSource::FromFloat) {
      return {Problem.MissingLowerBound ? IndexEvidenceKind::OneSidedClamp
                                        : IndexEvidenceKind::FloatToIndex};
    }
    if (Problem.Source == IndexSource::Loaded)
      return {IndexEvidenceKind::LoadedIndex};
    break;
  }
  // A block-local index does not grow with the grid, and one derived from a
  // guarded index is bounded by the algorithm that derives it. Nor does a
  // rounded-up grid run past the data by whole blocks: an index of block
  // coordinates alone (`blockIdx.y * gridDim.x + blockIdx.x`, a block's
  // partial sum) stays below the number of blocks the grid was rounded to.
  ValueOrigin Origin;
  if (Problem.Part)
    Origin = Where.Provenance.originOf(
        Problem.AssignedValue ? Problem.AssignedValue : Problem.Part);
  if (Problem.Part && !Origin.isBlockLocal() &&
      (Origin.Builtins & ValueOrigin::ThreadIdx) &&
      !derivesFromComparedValue(Problem.Part, Where))
    if (IndexEvidence Launch = roundedUpLaunch(
            Problem.AssignedValue ? Problem.AssignedValue : Problem.Part,
            Where))
      return Launch;
  if (const Expr *Comparison = comparisonElsewhere(Access, Problem, Where))
    return {IndexEvidenceKind::BoundedElsewhere, nullptr, Comparison};
  if (Problem.Kind == IndexProblemKind::Unbounded)
    return launchPastAllocation(Access, Where);
  return {};
}

} // namespace gpuguard::cuda
