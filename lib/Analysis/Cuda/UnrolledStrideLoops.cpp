//===--- UnrolledStrideLoops.cpp - Lanes of unrolled stride loops ---------===//

#include "Analysis/Cuda/UnrolledStrideLoops.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include <optional>

using namespace clang;

namespace gpuguard {

namespace {

/// The operands of \p E when it is a product, else nulls.
std::pair<const Expr *, const Expr *> factorsOf(const Expr *E) {
  const auto *Product = dyn_cast_or_null<BinaryOperator>(E);
  if (!Product || Product->getOpcode() != BO_Mul)
    return {nullptr, nullptr};
  return {stripIndexCasts(Product->getLHS()),
          stripIndexCasts(Product->getRHS())};
}

/// The launch builtin \p E reads, if it is one of kind \p Kind.
std::optional<char> dimensionOf(const Expr *E, BuiltinVariable Kind) {
  std::optional<BuiltinComponent> Component = getBuiltinComponent(E);
  if (!Component || Component->Kind != Kind)
    return std::nullopt;
  return Component->Dimension;
}

/// Whether \p A and \p B are \p KindA.d and \p KindB.d of one dimension d,
/// in either order.
bool arePairOf(const Expr *A, const Expr *B, BuiltinVariable KindA,
               BuiltinVariable KindB, char &Dimension) {
  for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
    std::optional<char> First = dimensionOf(A, KindA);
    std::optional<char> Second = dimensionOf(B, KindB);
    if (First && Second && *First == *Second) {
      Dimension = *First;
      return true;
    }
  }
  return false;
}

void collectLoops(const Stmt *S,
                  llvm::DenseMap<const Expr *, const ForStmt *> &ByGuard,
                  llvm::DenseMap<const ForStmt *, const Stmt *> &Preceding) {
  if (!S)
    return;
  if (const auto *For = dyn_cast<ForStmt>(S); For && For->getCond())
    ByGuard[stripIndexCasts(For->getCond())] = For;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    const Stmt *Previous = nullptr;
    for (const Stmt *Child : Block->body()) {
      if (const auto *For = dyn_cast<ForStmt>(Child); For && Previous)
        Preceding[For] = Previous;
      Previous = Child;
    }
  }
  for (const Stmt *Child : S->children())
    collectLoops(Child, ByGuard, Preceding);
}

} // namespace

UnrolledStrideLoops::UnrolledStrideLoops(
    const FunctionDecl &Function, const ASTContext &Context,
    const llvm::SmallPtrSetImpl<const VarDecl *> &Reassigned,
    const llvm::DenseMap<const VarDecl *, const ForStmt *> &CounterLoops)
    : Context(Context), Reassigned(Reassigned), CounterLoops(CounterLoops) {
  collectLoops(Function.getBody(), LoopsByGuard, Preceding);
}

const Expr *UnrolledStrideLoops::resolve(const Expr *E) const {
  E = stripIndexCasts(E);
  for (int Step = 0; E && Step < 4; ++Step) {
    const Expr *Init = unchangedInitializer(E, Reassigned);
    if (!Init)
      break;
    E = stripIndexCasts(Init);
  }
  return E;
}

bool UnrolledStrideLoops::same(const Expr *A, const Expr *B) const {
  return A && B &&
         (isSameValue(A, B, Context) ||
          isSameValue(resolve(A), resolve(B), Context));
}

const Expr *UnrolledStrideLoops::startOf(const ForStmt &Loop,
                                         const VarDecl *Counter) const {
  if (std::optional<CountedLoop> Shape = countedLoop(Loop, Context))
    return Shape->Counter == Counter ? Shape->Start : nullptr;
  if (Loop.getInit())
    return nullptr;
  // `int j = start; for (; j < limit; ...)`: nothing runs in between.
  const auto *Decl = dyn_cast_or_null<DeclStmt>(Preceding.lookup(&Loop));
  if (!Decl || !Decl->isSingleDecl() || Decl->getSingleDecl() != Counter)
    return nullptr;
  return Counter->getInit();
}

bool UnrolledStrideLoops::isLaneBelow(const Expr *Lane,
                                      const Expr *Lanes) const {
  const VarDecl *Var = asLocalVariable(Lane);
  const ForStmt *Loop = Var ? CounterLoops.lookup(Var) : nullptr;
  std::optional<CountedLoop> Shape =
      Loop ? countedLoop(*Loop, Context) : std::nullopt;
  return Shape && Shape->Counter == Var && Shape->Test == BO_LT &&
         Shape->Step.value_or(0) > 0 &&
         integerConstant(Shape->Start, Context).value_or(-1) >= 0 &&
         same(Shape->Bound, Lanes);
}

bool UnrolledStrideLoops::startsWithinStride(const Expr *Start,
                                             const Expr *Stride) const {
  Start = resolve(Start);
  auto [Extent, Count] = factorsOf(resolve(Stride));
  char StrideDimension = 0;
  // threadIdx.d with the block's stride, blockDim.d.
  if (std::optional<char> Thread =
          dimensionOf(Start, BuiltinVariable::ThreadIdx)) {
    std::optional<char> Block =
        dimensionOf(resolve(Stride), BuiltinVariable::BlockDim);
    return Block && *Block == *Thread;
  }
  // blockIdx.d * blockDim.d + threadIdx.d with the grid's, blockDim.d *
  // gridDim.d.
  if (!Extent || !arePairOf(Extent, Count, BuiltinVariable::BlockDim,
                            BuiltinVariable::GridDim, StrideDimension))
    return false;
  const auto *Sum = dyn_cast_or_null<BinaryOperator>(Start);
  if (!Sum || Sum->getOpcode() != BO_Add)
    return false;
  const Expr *Left = stripIndexCasts(Sum->getLHS());
  const Expr *Right = stripIndexCasts(Sum->getRHS());
  for (int Swap = 0; Swap < 2; ++Swap, std::swap(Left, Right)) {
    std::optional<char> Thread = dimensionOf(Right, BuiltinVariable::ThreadIdx);
    auto [Block, Size] = factorsOf(Left);
    char BlockDimension = 0;
    if (Thread && *Thread == StrideDimension && Block &&
        arePairOf(Block, Size, BuiltinVariable::BlockIdx,
                  BuiltinVariable::BlockDim, BlockDimension) &&
        BlockDimension == StrideDimension)
      return true;
  }
  return false;
}

bool UnrolledStrideLoops::keepsLaneBelowLimit(const Expr *Guard,
                                              const VarDecl *Counter,
                                              const Expr *LaneOffset) const {
  if (!Guard || !Counter || !LaneOffset)
    return false;
  // The main loop tests `j < limit`.
  const ForStmt *Loop = LoopsByGuard.lookup(stripIndexCasts(Guard));
  const auto *Test = dyn_cast<BinaryOperator>(stripIndexCasts(Guard));
  if (!Loop || !Test || Test->getOpcode() != BO_LT ||
      asLocalVariable(stripIndexCasts(Test->getLHS())) != Counter)
    return false;
  const Expr *Limit = Test->getRHS();
  // Steps by the width W: `j += W`.
  const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc());
  if (!Step || Step->getOpcode() != BO_AddAssign ||
      asLocalVariable(Step->getLHS()->IgnoreParenImpCasts()) != Counter)
    return false;
  const Expr *Width = Step->getRHS();
  // The limit is a multiple of W rounded down: `(n / W) * W`.
  auto [Quotient, Multiplier] = factorsOf(resolve(Limit));
  bool RoundedDown = false;
  for (int Swap = 0; Swap < 2 && Quotient;
       ++Swap, std::swap(Quotient, Multiplier)) {
    const auto *Division = dyn_cast<BinaryOperator>(Quotient);
    RoundedDown |= Division && Division->getOpcode() == BO_Div &&
                   same(Division->getRHS(), Width) && same(Multiplier, Width);
  }
  if (!RoundedDown)
    return false;
  // W is U * s, the lane offset u * s with u < U, and j starts below s.
  auto [WidthLeft, WidthRight] = factorsOf(resolve(Width));
  auto [LaneLeft, LaneRight] = factorsOf(resolve(LaneOffset));
  if (!WidthLeft || !LaneLeft)
    return false;
  const Expr *Start = startOf(*Loop, Counter);
  for (int SwapWidth = 0; SwapWidth < 2;
       ++SwapWidth, std::swap(WidthLeft, WidthRight)) {
    const Expr *Lanes = WidthLeft, *Stride = WidthRight;
    for (int SwapLane = 0; SwapLane < 2;
         ++SwapLane, std::swap(LaneLeft, LaneRight)) {
      if (same(LaneRight, Stride) && isLaneBelow(LaneLeft, Lanes) && Start &&
          startsWithinStride(Start, Stride))
        return true;
    }
  }
  return false;
}

} // namespace gpuguard
