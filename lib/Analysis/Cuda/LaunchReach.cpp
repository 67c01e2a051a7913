//===--- LaunchReach.cpp - How far a launch takes an index ----------------===//

#include "Analysis/Cuda/LaunchReach.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/KnownCalls.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Cuda/OffsetLaunchArguments.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace gpuguard::cuda {

namespace {

/// Deep enough for `size = rows * cols` behind `bytes = size * 4`.
constexpr unsigned MaxDepth = 8;
/// Two sample sizes: a conclusion that holds at both is no coincidence of
/// one size with a block size or a constant.
constexpr int64_t Samples[] = {1024, 4096};

std::optional<int64_t> combine(BinaryOperatorKind Kind, int64_t L, int64_t R) {
  int64_t Out = 0;
  switch (Kind) {
  case BO_Add:
    return __builtin_add_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional(Out);
  case BO_Sub:
    return __builtin_sub_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional(Out);
  case BO_Mul:
    return __builtin_mul_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional(Out);
  case BO_Div:
    return R == 0 ? std::nullopt : std::optional(L / R);
  case BO_Rem:
    return R == 0 ? std::nullopt : std::optional(L % R);
  case BO_Shl:
    return R < 0 || R > 40 || L < 0 || L > (int64_t(1) << 40)
               ? std::nullopt
               : std::optional(L << R);
  case BO_Shr:
    return R < 0 || R > 62 ? std::nullopt : std::optional(L >> R);
  default:
    return std::nullopt;
  }
}

/// The values a launching function computes, with every count it reads
/// from outside (its integer parameters, a global it never sets, a number
/// parsed from text) at one sample size.
class HostValues {
public:
  HostValues(const FunctionDecl &Caller, const VariableWrites &Writes,
             ASTContext &Context, int64_t Sample)
      : Caller(Caller), Writes(Writes), Context(Context), Sample(Sample) {}

  /// The value of \p E; the sampled variables it reads are added to \p
  /// Reads.
  std::optional<int64_t> value(const Expr *E,
                               llvm::SmallSetVector<const VarDecl *, 4> &Reads,
                               unsigned Depth = 0) {
    // A conversion from a float is left in place, and has no value here.
    E = stripIndexCasts(E);
    if (!E || Depth > MaxDepth || E->isValueDependent())
      return std::nullopt;
    if (std::optional<int64_t> Constant = integerConstant(E, Context))
      return Constant;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      return Var ? valueOf(*Var, Reads, Depth) : std::nullopt;
    }
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> L = value(Op->getLHS(), Reads, Depth + 1);
      std::optional<int64_t> R =
          L ? value(Op->getRHS(), Reads, Depth + 1) : std::nullopt;
      return R ? combine(Op->getOpcode(), *L, *R) : std::nullopt;
    }
    if (const auto *Op = dyn_cast<UnaryOperator>(E);
        Op && (Op->getOpcode() == UO_Minus || Op->getOpcode() == UO_Plus)) {
      std::optional<int64_t> V = value(Op->getSubExpr(), Reads, Depth + 1);
      return V && Op->getOpcode() == UO_Minus ? combine(BO_Sub, 0, *V) : V;
    }
    return std::nullopt;
  }

  /// The extents of a launch configuration argument (configurationExtents()).
  std::optional<std::array<int64_t, 3>>
  extents(const Expr *E, llvm::SmallSetVector<const VarDecl *, 4> &Reads) {
    std::optional<llvm::SmallVector<const Expr *, 3>> Parts =
        configurationExtents(E, Context);
    if (!Parts)
      return std::nullopt;
    std::array<int64_t, 3> Extents{1, 1, 1};
    for (unsigned Axis = 0; Axis < Parts->size(); ++Axis) {
      if (!(*Parts)[Axis])
        continue;
      std::optional<int64_t> V = value((*Parts)[Axis], Reads);
      if (!V)
        return std::nullopt;
      Extents[Axis] = *V;
    }
    return Extents;
  }

private:
  std::optional<int64_t>
  valueOf(const VarDecl &Var, llvm::SmallSetVector<const VarDecl *, 4> &Reads,
          unsigned Depth) {
    if (!Var.getType()->isIntegralOrEnumerationType() ||
        Var.getType()->isReferenceType() ||
        Writes.ChangedOtherwise.contains(&Var))
      return std::nullopt;
    auto Sampled = [&]() -> std::optional<int64_t> {
      Reads.insert(&Var);
      return Sample;
    };
    if (const auto *Param = dyn_cast<ParmVarDecl>(&Var))
      return Param->getDeclContext() == &Caller ? Sampled() : std::nullopt;
    auto ReadFromText = [](const Expr *E) {
      const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      return Callee && Callee->getIdentifier() &&
             isTextToNumber(Callee->getName());
    };
    auto Written = Writes.Assigned.find(&Var);
    if (Written == Writes.Assigned.end()) {
      if (Var.getInit())
        return ReadFromText(Var.getInit())
                   ? Sampled()
                   : value(Var.getInit(), Reads, Depth + 1);
      // A global this function never sets: set elsewhere, from outside.
      return Var.hasGlobalStorage() && !Var.isStaticLocal() ? Sampled()
                                                            : std::nullopt;
    }
    // One assignment, over at most a constant default.
    if (Written->second.size() != 1 ||
        (Var.getInit() && !integerConstant(Var.getInit(), Context)))
      return std::nullopt;
    const Expr *Value = Written->second.front();
    return ReadFromText(Value) ? Sampled() : value(Value, Reads, Depth + 1);
  }

  const FunctionDecl &Caller;
  const VariableWrites &Writes;
  ASTContext &Context;
  int64_t Sample;
};

/// An index linear in the thread's coordinates: threadIdx.x, .y, .z, then
/// blockIdx.x, .y, .z, and last a guarded value (GuardedSlot) whose range a
/// guard, not the launch, gives.
constexpr unsigned GuardedSlot = 6;
struct Linear {
  std::array<int64_t, 7> Coefficients{};
  int64_t Constant = 0;
  bool isConstant() const {
    return llvm::all_of(Coefficients, [](int64_t C) { return C == 0; });
  }
};

std::optional<Linear> scaled(Linear L, int64_t Factor) {
  for (int64_t &C : L.Coefficients)
    if (__builtin_mul_overflow(C, Factor, &C))
      return std::nullopt;
  if (__builtin_mul_overflow(L.Constant, Factor, &L.Constant))
    return std::nullopt;
  return L;
}

std::optional<Linear> summed(Linear L, const Linear &R, int64_t Sign) {
  for (unsigned I = 0; I < L.Coefficients.size(); ++I)
    if (__builtin_add_overflow(L.Coefficients[I], Sign * R.Coefficients[I],
                               &L.Coefficients[I]))
      return std::nullopt;
  if (__builtin_add_overflow(L.Constant, Sign * R.Constant, &L.Constant))
    return std::nullopt;
  return L;
}

/// The kernel's index under one launch: its parameters hold what the launch
/// passes, blockDim and gridDim the launch's extents.
class KernelIndex {
public:
  using ArgumentValue = llvm::function_ref<std::optional<int64_t>(unsigned)>;
  /// \p Guarded, when set, is a value kept as it is (GuardedSlot) rather
  /// than followed to the coordinates it is computed from.
  KernelIndex(const FunctionDecl &Kernel, ASTContext &Context,
              ArgumentValue Argument, std::array<int64_t, 3> Block,
              std::array<int64_t, 3> Grid, const Expr *Guarded = nullptr)
      : Kernel(Kernel), Context(Context), Argument(Argument), Block(Block),
        Grid(Grid), Guarded(Guarded) {
    collectAssignedVariables(Kernel.getBody(), Changed);
  }

  std::optional<Linear> value(const Expr *E, unsigned Depth = 0) {
    E = stripIndexCasts(E);
    if (!E || Depth > MaxDepth || E->isValueDependent())
      return std::nullopt;
    if (Guarded && isSameValue(E, Guarded, Context)) {
      Linear L;
      L.Coefficients[GuardedSlot] = 1;
      return L;
    }
    if (std::optional<int64_t> Constant = integerConstant(E, Context))
      return Linear{{}, *Constant};
    if (std::optional<BuiltinComponent> Builtin = getBuiltinComponent(E)) {
      unsigned Axis = Builtin->Dimension - 'x';
      Linear L;
      switch (Builtin->Kind) {
      case BuiltinVariable::ThreadIdx:
        L.Coefficients[Axis] = 1;
        break;
      case BuiltinVariable::BlockIdx:
        L.Coefficients[3 + Axis] = 1;
        break;
      case BuiltinVariable::BlockDim:
        L.Constant = Block[Axis];
        break;
      case BuiltinVariable::GridDim:
        L.Constant = Grid[Axis];
        break;
      }
      return L;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && Param->getDeclContext() == &Kernel &&
          Param->getType()->isIntegralOrEnumerationType() &&
          !Changed.contains(Param)) {
        std::optional<int64_t> V = Argument(Param->getFunctionScopeIndex());
        return V ? std::optional(Linear{{}, *V}) : std::nullopt;
      }
      const Expr *Init = unchangedInitializer(E, Changed);
      return Init ? value(Init, Depth + 1) : std::nullopt;
    }
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      std::optional<Linear> L = value(Op->getLHS(), Depth + 1);
      std::optional<Linear> R =
          L ? value(Op->getRHS(), Depth + 1) : std::nullopt;
      if (!R)
        return std::nullopt;
      switch (Op->getOpcode()) {
      case BO_Add:
        return summed(*L, *R, 1);
      case BO_Sub:
        return summed(*L, *R, -1);
      case BO_Mul:
        if (R->isConstant())
          return scaled(*L, R->Constant);
        if (L->isConstant())
          return scaled(*R, L->Constant);
        return std::nullopt;
      case BO_Shl:
        if (R->isConstant() && R->Constant >= 0 && R->Constant < 32)
          return scaled(*L, int64_t(1) << R->Constant);
        return std::nullopt;
      default:
        // A quotient or remainder of the thread's coordinates is not
        // linear in them.
        if (!L->isConstant() || !R->isConstant())
          return std::nullopt;
        std::optional<int64_t> V =
            combine(Op->getOpcode(), L->Constant, R->Constant);
        return V ? std::optional(Linear{{}, *V}) : std::nullopt;
      }
    }
    if (const auto *Op = dyn_cast<UnaryOperator>(E);
        Op && (Op->getOpcode() == UO_Minus || Op->getOpcode() == UO_Plus)) {
      std::optional<Linear> V = value(Op->getSubExpr(), Depth + 1);
      return V && Op->getOpcode() == UO_Minus ? scaled(*V, -1) : V;
    }
    return std::nullopt;
  }

private:
  const FunctionDecl &Kernel;
  ASTContext &Context;
  ArgumentValue Argument;
  std::array<int64_t, 3> Block;
  std::array<int64_t, 3> Grid;
  const Expr *Guarded;
  llvm::SmallPtrSet<const VarDecl *, 16> Changed;
};

/// Whether \p S holds \p Target.
bool holds(const Stmt *S, const Stmt *Target) {
  if (!S)
    return false;
  if (S == Target)
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return holds(Child, Target); });
}

/// Whether \p S may leave the function: a return, a goto, a throw, inline
/// assembly, or a call that does not return (`__trap()`, `assert`'s).
bool mayLeave(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr, AsmStmt>(S))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isNoReturnCall(Call))
    return true;
  return llvm::any_of(S->children(), mayLeave);
}

/// Whether the path from \p S down to \p Target passes no branch: no
/// conditional operator, no short circuit, no statement that decides.
bool reachedUnconditionally(const Stmt *S, const Stmt *Target) {
  if (S == Target)
    return true;
  if (isa<ConditionalOperator, BinaryConditionalOperator, LambdaExpr, StmtExpr,
          IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
          CompoundStmt>(S))
    return false;
  if (const auto *Op = dyn_cast<BinaryOperator>(S); Op && Op->isLogicalOp())
    return false;
  for (const Stmt *Child : S->children())
    if (holds(Child, Target))
      return reachedUnconditionally(Child, Target);
  return false;
}

bool runsInBlock(const CompoundStmt &Block, const Expr &Access) {
  for (const Stmt *S : Block.body()) {
    if (!holds(S, &Access)) {
      if (mayLeave(S))
        return false;
      continue;
    }
    if (const auto *Nested = dyn_cast<CompoundStmt>(S))
      return runsInBlock(*Nested, Access);
    return reachedUnconditionally(S, &Access);
  }
  return false;
}

/// What the reach of one launch is computed from, the same at every sample
/// size: the launcher's writes and the buffer's one allocation.
struct LaunchInView {
  const FunctionDecl &Kernel;
  const CUDAKernelCallExpr &Launch;
  const FunctionDecl &Caller;
  const VarDecl &Buffer;
  const CallExpr &Allocation;
  VariableWrites Writes;
};

/// A value of the kernel a guard keeps below a limit where the access runs.
struct GuardedPart {
  const Expr &Part;
  UpperLimit Limit;
};

/// The launch's reach at one sample size, or none where a step is
/// uncertain. With \p Guarded, the guarded part is taken at the largest
/// value its guard lets through rather than followed to the coordinates.
std::optional<ReachPastAllocation>
reachAtSample(const LaunchInView &View, const Expr &Index, int64_t Sample,
              ASTContext &Context, const GuardedPart *Guarded = nullptr) {
  const CUDAKernelCallExpr &Launch = View.Launch;
  const CallExpr *Config = Launch.getConfig();
  if (!Config || Config->getNumArgs() < 2)
    return std::nullopt;
  HostValues Host(View.Caller, View.Writes, Context, Sample);
  llvm::SmallSetVector<const VarDecl *, 4> CountReads, ReachReads;
  // The byte count over the element's size.
  QualType Element = View.Buffer.getType()->getPointeeType();
  if (Element.isNull() || Element->isIncompleteType())
    return std::nullopt;
  int64_t ElementSize = Context.getTypeSizeInChars(Element).getQuantity();
  std::optional<int64_t> Bytes =
      Host.value(View.Allocation.getArg(1), CountReads);
  if (!Bytes || ElementSize <= 0 || *Bytes % ElementSize != 0)
    return std::nullopt;
  int64_t Count = *Bytes / ElementSize;
  std::optional<std::array<int64_t, 3>> Grid =
      Host.extents(Config->getArg(0), ReachReads);
  std::optional<std::array<int64_t, 3>> Block =
      Grid ? Host.extents(Config->getArg(1), ReachReads) : std::nullopt;
  if (!Block || Count <= 0 ||
      llvm::any_of(*Grid, [](int64_t E) { return E <= 0; }) ||
      llvm::any_of(*Block, [](int64_t E) { return E <= 0; }))
    return std::nullopt;
  auto Argument = [&](unsigned Param) -> std::optional<int64_t> {
    if (Param >= Launch.getNumArgs())
      return std::nullopt;
    return Host.value(Launch.getArg(Param), ReachReads);
  };
  KernelIndex Kernels(View.Kernel, Context, Argument, *Block, *Grid,
                      Guarded ? &Guarded->Part : nullptr);
  std::optional<Linear> Reach = Kernels.value(&Index);
  // The largest value the guard lets the part through with, read at this
  // launch; a part that lowers the index would need its least value.
  std::optional<int64_t> GuardedLast;
  if (Reach && Guarded) {
    std::optional<Linear> Limit = Kernels.value(Guarded->Limit.Limit);
    GuardedLast =
        Limit && Limit->isConstant()
            ? combine(BO_Add, Limit->Constant, Guarded->Limit.Offset - 1)
            : std::nullopt;
    if (!GuardedLast || Reach->Coefficients[GuardedSlot] < 0)
      return std::nullopt;
  }
  // The same counts on both sides, or the comparison means nothing.
  if (!Reach || CountReads.size() != ReachReads.size() ||
      !llvm::all_of(CountReads, [&](const VarDecl *Var) {
        return ReachReads.contains(Var);
      }))
    return std::nullopt;
  ReachPastAllocation Result;
  Result.Launch = &Launch;
  Result.Allocation = &View.Allocation;
  Result.Buffer = &View.Buffer;
  Result.Sampled.assign(CountReads.begin(), CountReads.end());
  Result.Sample = Sample;
  Result.Count = Count;
  Result.Reached = Reach->Constant;
  if (GuardedLast) {
    std::optional<int64_t> Term =
        combine(BO_Mul, Reach->Coefficients[GuardedSlot], *GuardedLast);
    std::optional<int64_t> Sum =
        Term ? combine(BO_Add, Result.Reached, *Term) : Term;
    if (!Sum)
      return std::nullopt;
    Result.Reached = *Sum;
    Result.GuardedPart = &Guarded->Part;
    Result.GuardedValue = *GuardedLast;
  }
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    for (unsigned Kind = 0; Kind < 2; ++Kind) {
      int64_t Coefficient = Reach->Coefficients[Kind * 3 + Axis];
      int64_t Last = (Kind == 0 ? (*Block)[Axis] : (*Grid)[Axis]) - 1;
      int64_t At = Coefficient > 0 ? Last : 0;
      (Kind == 0 ? Result.Thread : Result.Block)[Axis] = At;
      std::optional<int64_t> Term = combine(BO_Mul, Coefficient, At);
      std::optional<int64_t> Sum =
          Term ? combine(BO_Add, Result.Reached, *Term) : Term;
      if (!Sum)
        return std::nullopt;
      Result.Reached = *Sum;
    }
    if ((*Grid)[Axis] > 1 || (*Block)[Axis] > 1)
      Result.Dimensions = Axis + 1;
  }
  return Result;
}

} // namespace

bool runsOnEveryThread(const FunctionDecl &Kernel, const Expr &Access) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  return Body && runsInBlock(*Body, Access);
}

namespace {

/// The pointer parameter \p Base names, when it is one of \p Kernel's.
const ParmVarDecl *kernelPointer(const FunctionDecl &Kernel, const Expr &Base) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base.IgnoreParenImpCasts());
  const auto *Pointer = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Kernel.hasAttr<CUDAGlobalAttr>() || !Pointer ||
      Pointer->getDeclContext() != &Kernel ||
      !Pointer->getType()->isPointerType())
    return nullptr;
  return Pointer;
}

/// \p Launch with the buffer it passes for \p Pointer and the buffer's one
/// allocation, when the launcher shows them.
std::optional<LaunchInView> launchInView(const FunctionDecl &Kernel,
                                         const KernelLaunch &Launch,
                                         const ParmVarDecl &Pointer,
                                         ASTContext &Context) {
  const auto *Call = dyn_cast<CUDAKernelCallExpr>(Launch.Site);
  // The kernel itself, not another instantiation of its template.
  if (!Call || !Call->getDirectCallee() ||
      Call->getDirectCallee()->getCanonicalDecl() !=
          Kernel.getCanonicalDecl() ||
      Call->getNumArgs() != Kernel.getNumParams())
    return std::nullopt;
  const FunctionDecl *Caller = enclosingFunction(*Call, Context);
  const auto *Passed = dyn_cast<DeclRefExpr>(
      Call->getArg(Pointer.getFunctionScopeIndex())->IgnoreParenImpCasts());
  const auto *Buffer = Passed ? dyn_cast<VarDecl>(Passed->getDecl()) : nullptr;
  if (!Caller || !Caller->hasBody() || !Buffer || !Buffer->hasLocalStorage() ||
      !Context.hasSameUnqualifiedType(Buffer->getType()->getPointeeType(),
                                      Pointer.getType()->getPointeeType()))
    return std::nullopt;
  // The buffer's one allocation; its count is read from the byte count,
  // as the launcher computes it.
  llvm::SmallPtrSet<const VarDecl *, 16> Assigned;
  collectAssignedVariables(Caller->getBody(), Assigned);
  llvm::SmallVector<const Expr *, 4> Factors;
  const CallExpr *Allocation = soleDeviceAllocation(*Buffer, Caller->getBody(),
                                                    Context, Assigned, Factors);
  if (!Allocation || Allocation->getNumArgs() < 2)
    return std::nullopt;
  return LaunchInView{Kernel,      *Call,
                      *Caller,     *Buffer,
                      *Allocation, collectVariableWrites(Caller->getBody())};
}

} // namespace

/// The reach of \p Index past the allocation of \p View at the first
/// sample size, when every sample size takes it past: a size the launcher
/// rounds to a multiple of its block may fit exactly at one of them.
static std::optional<ReachPastAllocation>
pastAtEverySample(const LaunchInView &View, const Expr &Index,
                  ASTContext &Context, const GuardedPart *Guarded = nullptr) {
  std::optional<ReachPastAllocation> First;
  for (int64_t Sample : Samples) {
    std::optional<ReachPastAllocation> Reach =
        reachAtSample(View, Index, Sample, Context, Guarded);
    if (!Reach || Reach->Reached < Reach->Count)
      return std::nullopt;
    if (!First)
      First = Reach;
  }
  return First;
}

std::optional<ReachPastAllocation>
reachPastAllocation(const FunctionDecl &Kernel, const Expr &Access,
                    const Expr &Base, const Expr &Index,
                    const KernelLaunches &Launches, ASTContext &Context) {
  const ParmVarDecl *Pointer = kernelPointer(Kernel, Base);
  if (!Pointer || !runsOnEveryThread(Kernel, Access))
    return std::nullopt;
  for (const KernelLaunch &Launch : Launches.of(Kernel))
    if (std::optional<LaunchInView> View =
            launchInView(Kernel, Launch, *Pointer, Context))
      if (std::optional<ReachPastAllocation> Reach =
              pastAtEverySample(*View, Index, Context))
        return Reach;
  return std::nullopt;
}

std::optional<ReachPastAllocation>
guardedReachPastAllocation(const FunctionDecl &Kernel, const Expr &Base,
                           const Expr &Index, const Expr &Part,
                           const Expr &Guard, const KernelLaunches &Launches,
                           ASTContext &Context) {
  const ParmVarDecl *Pointer = kernelPointer(Kernel, Base);
  std::optional<UpperLimit> Limit = upperLimitOf(&Guard, &Part, Context);
  if (!Pointer || !Limit || !Limit->Limit)
    return std::nullopt;
  GuardedPart Guarded{Part, *Limit};
  for (const KernelLaunch &Launch : Launches.of(Kernel))
    if (std::optional<LaunchInView> View =
            launchInView(Kernel, Launch, *Pointer, Context))
      if (std::optional<ReachPastAllocation> Reach =
              pastAtEverySample(*View, Index, Context, &Guarded))
        return Reach;
  return std::nullopt;
}

bool guardKeepsInsideAllocation(const FunctionDecl &Kernel, const Expr &Base,
                                const Expr &Index, const Expr &Part,
                                const Expr &Guard,
                                const KernelLaunches &Launches,
                                ASTContext &Context) {
  const ParmVarDecl *Pointer = kernelPointer(Kernel, Base);
  std::optional<UpperLimit> Limit = upperLimitOf(&Guard, &Part, Context);
  if (!Pointer || !Limit || !Limit->Limit)
    return false;
  GuardedPart Guarded{Part, *Limit};
  bool AnyLaunch = false;
  for (const KernelLaunch &Launch : Launches.of(Kernel)) {
    // Every launch, or one out of view may be the one that runs past.
    std::optional<LaunchInView> View =
        launchInView(Kernel, Launch, *Pointer, Context);
    if (!View)
      return false;
    for (int64_t Sample : Samples) {
      std::optional<ReachPastAllocation> Reach =
          reachAtSample(*View, Index, Sample, Context, &Guarded);
      if (!Reach || Reach->Reached >= Reach->Count)
        return false;
    }
    AnyLaunch = true;
  }
  return AnyLaunch;
}

std::optional<int64_t> leastLaunchOffset(const FunctionDecl &Kernel,
                                         const Expr &Base,
                                         const KernelLaunches &Launches,
                                         ASTContext &Context) {
  const ParmVarDecl *Pointer = kernelPointer(Kernel, Base);
  if (!Pointer)
    return std::nullopt;
  std::optional<int64_t> Least;
  for (const KernelLaunch &Launch : Launches.of(Kernel)) {
    const auto *Call = dyn_cast<CUDAKernelCallExpr>(Launch.Site);
    if (!Call || Call->getNumArgs() != Kernel.getNumParams())
      return std::nullopt;
    const Expr *Argument = Call->getArg(Pointer->getFunctionScopeIndex());
    std::optional<int64_t> Offset = 0;
    if (auto Sum = splitPointerSum(Argument, /*AddressOfElement=*/true))
      Offset = integerConstant(Sum->second, Context);
    if (!Offset)
      return std::nullopt;
    Least = Least ? std::min(*Least, *Offset) : *Offset;
  }
  return Least;
}

} // namespace gpuguard::cuda
