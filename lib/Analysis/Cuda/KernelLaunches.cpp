//===--- KernelLaunches.cpp - Where each kernel is launched ---------------===//

#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/EnclosingNodes.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/KnownCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

using namespace clang;

namespace gpuguard::cuda {

namespace {

/// Variables are followed this many initialisers deep.
constexpr unsigned MaxDepth = 4;

/// The most threads a block may have and still never be rejected: 65,536
/// registers a block over 255 registers a thread at most.
constexpr int64_t MaxUnrejectableBlock = 256;

/// Casts, parentheses and the temporaries of `dim3(...)` arguments.
const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenCasts();
    const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E);
    if (!Bind)
      return E;
    E = Bind->getSubExpr();
  }
}

bool isConstantOne(const Expr *E, const ASTContext &Context) {
  std::optional<int64_t> Value = integerConstant(E, Context);
  return Value && *Value == 1;
}

/// `ceil_div`, `CEIL_DIV`, `iDivUp`, `divRoundUp`, `cdiv`, `ceilf`: the
/// names every code base gives its rounding-up division.
bool isRoundingUpName(StringRef Name) {
  std::string Folded;
  for (char C : Name)
    if (C != '_')
      Folded += llvm::toLower(C);
  StringRef F(Folded);
  return F.contains("ceil") || F.contains("divup") || F.contains("roundup") ||
         F == "cdiv" || F.ends_with("cdiv");
}

bool containsRemainder(const Expr *E) {
  E = stripCasts(E);
  if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
    if (Op->getOpcode() == BO_Rem)
      return true;
    return containsRemainder(Op->getLHS()) || containsRemainder(Op->getRHS());
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return containsRemainder(Conditional->getCond());
  return false;
}

/// `(n + b - 1) / b`, `(n + (b - 1)) / b`, `(n + 255) / 256`.
bool isRoundedUpQuotient(const BinaryOperator &Division,
                         const ASTContext &Context) {
  const Expr *Numerator = stripCasts(Division.getLHS());
  const auto *Sum = dyn_cast<BinaryOperator>(Numerator);
  if (!Sum)
    return false;
  if (Sum->getOpcode() == BO_Sub && isConstantOne(Sum->getRHS(), Context))
    return isa<BinaryOperator>(stripCasts(Sum->getLHS())) &&
           cast<BinaryOperator>(stripCasts(Sum->getLHS()))->getOpcode() ==
               BO_Add;
  if (Sum->getOpcode() != BO_Add)
    return false;
  for (const Expr *Term : {Sum->getLHS(), Sum->getRHS()}) {
    const auto *Less = dyn_cast<BinaryOperator>(stripCasts(Term));
    if (Less && Less->getOpcode() == BO_Sub &&
        isConstantOne(Less->getRHS(), Context))
      return true;
  }
  std::optional<int64_t> Addend = integerConstant(Sum->getRHS(), Context);
  std::optional<int64_t> Divisor = integerConstant(Division.getRHS(), Context);
  return Addend && Divisor && *Divisor > 1 && *Addend == *Divisor - 1;
}

const Expr *roundedUp(const Expr *E, const ASTContext &Context,
                      unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return nullptr;
  E = stripCasts(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && Var->getInit() &&
        (Var->hasLocalStorage() || Var->getType().isConstQualified()))
      return roundedUp(Var->getInit(), Context, Depth + 1);
    return nullptr;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return roundedUp(Member->getBase(), Context, Depth + 1);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *Arg : Construct->arguments())
      if (const Expr *Found = roundedUp(Arg, Context, Depth + 1))
        return Found;
    return nullptr;
  }
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : List->inits())
      if (const Expr *Found = roundedUp(Init, Context, Depth + 1))
        return Found;
    return nullptr;
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E)) {
    if (const Expr *Found =
            roundedUp(Conditional->getTrueExpr(), Context, Depth + 1))
      return Found;
    return roundedUp(Conditional->getFalseExpr(), Context, Depth + 1);
  }
  if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
    if (Op->getOpcode() == BO_Div && isRoundedUpQuotient(*Op, Context))
      return E;
    // `n / b + (n % b != 0)` and `n / b + (n % b ? 1 : 0)`.
    if (Op->getOpcode() == BO_Add &&
        ((isa<BinaryOperator>(stripCasts(Op->getLHS())) &&
          cast<BinaryOperator>(stripCasts(Op->getLHS()))->getOpcode() ==
              BO_Div &&
          containsRemainder(Op->getRHS()))))
      return E;
    if (Op->isMultiplicativeOp() || Op->isAdditiveOp()) {
      if (const Expr *Found = roundedUp(Op->getLHS(), Context, Depth + 1))
        return Found;
      return roundedUp(Op->getRHS(), Context, Depth + 1);
    }
    return nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const NamedDecl *Callee =
        dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl());
    if (Callee && Callee->getIdentifier() &&
        isRoundingUpName(Callee->getName()))
      return E;
    if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
            Call->getCallee()->IgnoreParenImpCasts());
        Lookup && Lookup->getName().isIdentifier() &&
        isRoundingUpName(Lookup->getName().getAsString()))
      return E;
  }
  return nullptr;
}

/// Which dimensions of a grid argument are rounded up (x = 1, y = 2, z = 4);
/// all three where the dimensions cannot be told apart.
unsigned roundedUpDimensions(const Expr *Grid, const ASTContext &Context) {
  constexpr unsigned All = 7;
  std::optional<llvm::SmallVector<const Expr *, 3>> Extents =
      configurationExtents(Grid, Context);
  if (!Extents)
    return All;
  unsigned Dimensions = 0;
  for (unsigned Axis = 0; Axis < Extents->size(); ++Axis)
    if (roundedUp((*Extents)[Axis], Context, 0))
      Dimensions |= 1u << Axis;
  return Dimensions ? Dimensions : All;
}

/// The count and the divisor of a rounded-up extent: `n` and `b` in
/// `(n + b - 1) / b`, `(n + (b - 1)) / b`, `(n + 255) / 256`,
/// `n / b + (n % b != 0)` and `ceil_div(n, b)`.
std::optional<std::pair<const Expr *, const Expr *>>
roundedUpParts(const Expr *Extent, const ASTContext &Context) {
  Extent = stripCasts(Extent);
  if (const auto *Call = dyn_cast<CallExpr>(Extent)) {
    if (Call->getNumArgs() != 2)
      return std::nullopt;
    return std::make_pair(Call->getArg(0), Call->getArg(1));
  }
  const auto *Op = dyn_cast<BinaryOperator>(Extent);
  if (!Op)
    return std::nullopt;
  if (Op->getOpcode() == BO_Add) {
    const auto *Quotient = dyn_cast<BinaryOperator>(stripCasts(Op->getLHS()));
    if (!Quotient || Quotient->getOpcode() != BO_Div)
      return std::nullopt;
    return std::make_pair(Quotient->getLHS(), Quotient->getRHS());
  }
  if (Op->getOpcode() != BO_Div)
    return std::nullopt;
  const auto *Sum = dyn_cast<BinaryOperator>(stripCasts(Op->getLHS()));
  if (!Sum)
    return std::nullopt;
  // `n + b - 1` parses as `(n + b) - 1`.
  if (Sum->getOpcode() == BO_Sub)
    Sum = dyn_cast<BinaryOperator>(stripCasts(Sum->getLHS()));
  if (!Sum || Sum->getOpcode() != BO_Add)
    return std::nullopt;
  auto IsAddend = [&](const Expr *Term) {
    const auto *Less = dyn_cast<BinaryOperator>(stripCasts(Term));
    return integerConstant(Term, Context) ||
           (Less && Less->getOpcode() == BO_Sub &&
            isConstantOne(Less->getRHS(), Context)) ||
           isSameValue(Term, Op->getRHS(), Context);
  };
  const Expr *Count = IsAddend(Sum->getRHS()) ? Sum->getLHS() : Sum->getRHS();
  return std::make_pair(Count, Op->getRHS());
}

/// Whether \p E is `Count % Divisor`.
bool isRemainder(const Expr *E, const Expr *Count, const Expr *Divisor,
                 const ASTContext &Context) {
  const auto *Op = dyn_cast<BinaryOperator>(stripCasts(E));
  return Op && Op->getOpcode() == BO_Rem &&
         isSameValue(Op->getLHS(), Count, Context) &&
         isSameValue(Op->getRHS(), Divisor, Context);
}

/// Whether \p Condition having the value \p Holds means that `Count` is a
/// multiple of `Divisor`: `n % b == 0`, `!(n % b)`, one conjunct of a true
/// `&&`, one disjunct of a false `||`, `n % b != 0` and `n % b` false.
bool impliesMultiple(const Expr *Condition, bool Holds, const Expr *Count,
                     const Expr *Divisor, const ASTContext &Context) {
  Condition = stripCasts(Condition);
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition);
      Not && Not->getOpcode() == UO_LNot)
    return impliesMultiple(Not->getSubExpr(), !Holds, Count, Divisor, Context);
  if (const auto *Op = dyn_cast<BinaryOperator>(Condition)) {
    BinaryOperatorKind Kind = Op->getOpcode();
    if ((Kind == BO_LAnd && Holds) || (Kind == BO_LOr && !Holds))
      return impliesMultiple(Op->getLHS(), Holds, Count, Divisor, Context) ||
             impliesMultiple(Op->getRHS(), Holds, Count, Divisor, Context);
    if ((Kind == BO_EQ && Holds) || (Kind == BO_NE && !Holds)) {
      auto IsZero = [&](const Expr *E) {
        std::optional<int64_t> Value = integerConstant(E, Context);
        return Value && *Value == 0;
      };
      return (IsZero(Op->getRHS()) &&
              isRemainder(Op->getLHS(), Count, Divisor, Context)) ||
             (IsZero(Op->getLHS()) &&
              isRemainder(Op->getRHS(), Count, Divisor, Context));
    }
  }
  return !Holds && isRemainder(Condition, Count, Divisor, Context);
}

/// Whether \p S never completes normally: a return, a throw, a call that
/// never returns, or a block that ends in one.
bool alwaysExits(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return !Block->body_empty() && alwaysExits(Block->body_back());
  if (isa<ReturnStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    if (const auto *Call = dyn_cast<CallExpr>(stripCasts(E)))
      return isNoReturnCall(Call);
  return false;
}

/// Whether \p S stops the function unless `Count` is a multiple of
/// `Divisor`: `assert(n % b == 0)`, `if (n % b != 0) return;`.
bool requiresMultiple(const Stmt *S, const Expr *Count, const Expr *Divisor,
                      const ASTContext &Context) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && alwaysExits(If->getThen()) &&
           impliesMultiple(If->getCond(), false, Count, Divisor, Context);
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  // `assert(c)` expands to `c ? (void)0 : __assert_fail(...)`.
  const auto *Assert = dyn_cast<ConditionalOperator>(stripCasts(E));
  return Assert && alwaysExits(Assert->getFalseExpr()) &&
         impliesMultiple(Assert->getCond(), true, Count, Divisor, Context);
}

/// Whether a statement before \p Site in the blocks that enclose it stops
/// the function unless the rounded-up \p Extent divides exactly: then the
/// grid covers its count exactly, as vectorised launchers assert
/// (`assert(N % (block_size * 4) == 0)` above `ceil_div(N, block_size * 4)`).
bool isExactByRequirement(const Expr *Site, const Expr *Extent,
                          ASTContext &Context) {
  std::optional<std::pair<const Expr *, const Expr *>> Parts =
      roundedUpParts(Extent, Context);
  if (!Parts)
    return false;
  return anyEnclosingBlock(
      *Site, Context, [&](const CompoundStmt &Block, const Stmt &Holder) {
        for (const Stmt *Before : Block.body()) {
          if (Before == &Holder)
            break;
          if (requiresMultiple(Before, Parts->first, Parts->second, Context))
            return true;
        }
        return false;
      });
}

const FunctionDecl *launchedKernel(const Expr *E) {
  E = stripCasts(E);
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(E);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf)
    E = stripCasts(AddressOf->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(Ref->getDecl());
  return nullptr;
}

class LaunchCollector : public DynamicRecursiveASTVisitor {
public:
  using AddFn = std::function<void(const FunctionDecl *, const Expr *,
                                   const Expr *, const Expr *)>;
  explicit LaunchCollector(AddFn Add) : Add(std::move(Add)) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) override {
    const CallExpr *Config = Launch->getConfig();
    if (const FunctionDecl *Kernel = Launch->getDirectCallee();
        Kernel && Config && Config->getNumArgs() > 0)
      Add(Kernel, Launch, Config->getArg(0),
          Config->getNumArgs() > 1 ? Config->getArg(1) : nullptr);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) override {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() < 2)
      return true;
    StringRef Name = Callee->getName();
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return true;
    if (const FunctionDecl *Kernel = launchedKernel(Call->getArg(0)))
      Add(Kernel, Call, Call->getArg(1),
          Call->getNumArgs() > 2 ? Call->getArg(2) : nullptr);
    return true;
  }

private:
  // Owned: the collector outlives the lambda its creator passes.
  AddFn Add;
};

/// The extents of a launch argument as constants: a dim3 built from
/// constants, through const variables and locals never changed.
std::optional<llvm::SmallVector<int64_t, 3>>
constantExtents(const Expr *E, const ASTContext &Context) {
  std::optional<llvm::SmallVector<const Expr *, 3>> Extents =
      configurationExtents(E, Context);
  if (!Extents)
    return std::nullopt;
  llvm::SmallVector<int64_t, 3> Values;
  for (const Expr *Extent : *Extents) {
    std::optional<int64_t> Value =
        Extent ? integerConstant(stripCasts(Extent), Context) : 1;
    if (!Value)
      return std::nullopt;
    Values.push_back(*Value);
  }
  return Values;
}

} // namespace

std::optional<llvm::SmallVector<const Expr *, 3>>
configurationExtents(const Expr *Argument, const ASTContext &Context) {
  const Expr *E = Argument;
  for (unsigned Depth = 0; E && Depth <= MaxDepth; ++Depth) {
    E = stripCasts(E);
    if (E->getType()->isIntegralOrEnumerationType())
      return llvm::SmallVector<const Expr *, 3>{E};
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Var->getInit())
        return std::nullopt;
      if (!Var->getType().isConstQualified()) {
        // A local dim3 that is never changed after its construction.
        const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
        llvm::SmallPtrSet<const VarDecl *, 8> Assigned;
        if (!Var->hasLocalStorage() || !Function)
          return std::nullopt;
        collectAssignedVariables(Function->getBody(), Assigned);
        if (Assigned.contains(Var))
          return std::nullopt;
      }
      E = Var->getInit();
      continue;
    }
    llvm::SmallVector<const Expr *, 3> Parts;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      // A copy of another dim3.
      if (Construct->getNumArgs() == 1 &&
          !Construct->getArg(0)->getType()->isIntegralOrEnumerationType()) {
        E = Construct->getArg(0);
        continue;
      }
      Parts.append(Construct->arg_begin(), Construct->arg_end());
    } else if (const auto *List = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : List->inits())
        Parts.push_back(Init);
    }
    if (Parts.empty() || Parts.size() > 3)
      return std::nullopt;
    for (const Expr *&Part : Parts)
      if (isa<CXXDefaultArgExpr>(Part))
        Part = nullptr;
    return Parts;
  }
  return std::nullopt;
}

bool hasFixedValidConfiguration(const CUDAKernelCallExpr &Launch,
                                const ASTContext &Context) {
  const CallExpr *Config = Launch.getConfig();
  if (!Config || Config->getNumArgs() < 2)
    return false;
  auto Product = [](llvm::ArrayRef<int64_t> Extents) {
    int64_t Total = 1;
    for (int64_t Extent : Extents) {
      if (Extent <= 0 || Extent > (1 << 24))
        return int64_t(0);
      Total *= Extent;
    }
    return Total;
  };
  std::optional<llvm::SmallVector<int64_t, 3>> Grid =
      constantExtents(Config->getArg(0), Context);
  std::optional<llvm::SmallVector<int64_t, 3>> Block =
      constantExtents(Config->getArg(1), Context);
  // At most 256 threads: even at 255 registers a thread, the block fits the
  // 65,536 registers of every device, so it cannot run out of resources.
  if (!Grid || !Block || Product(*Grid) <= 0 || Product(*Block) <= 0 ||
      Product(*Block) > MaxUnrejectableBlock)
    return false;
  // No dynamic shared memory: with the kernel's static shared memory it could
  // pass what the device allows.
  if (Config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(Config->getArg(2))) {
    std::optional<int64_t> Shared =
        integerConstant(stripCasts(Config->getArg(2)), Context);
    if (!Shared || *Shared != 0)
      return false;
  }
  return true;
}

KernelLaunches::KernelLaunches(ASTContext &Context) : Context(Context) {
  LaunchCollector Collector(
      [&](const FunctionDecl *Kernel, const Expr *Site, const Expr *Grid,
          const Expr *Block) { add(Kernel, Site, Grid, Block); });
  Collector.TraverseAST(Context);
}

void KernelLaunches::add(const FunctionDecl *Kernel, const Expr *Site,
                         const Expr *Grid, const Expr *Block) {
  std::vector<KernelLaunch> &Sites = Launches[CallSites::key(*Kernel)];
  if (llvm::any_of(Sites,
                   [&](const KernelLaunch &L) { return L.Site == Site; }))
    return;
  const Expr *RoundedUp = roundedUp(Grid, Context, 0);
  if (RoundedUp && isExactByRequirement(Site, RoundedUp, Context))
    RoundedUp = nullptr;
  Sites.push_back({Site, RoundedUp,
                   RoundedUp ? roundedUpDimensions(Grid, Context) : 0u, Block});
}

llvm::ArrayRef<KernelLaunch>
KernelLaunches::of(const FunctionDecl &Kernel) const {
  auto It = Launches.find(CallSites::key(Kernel));
  if (It == Launches.end())
    return {};
  return It->second;
}

const KernelLaunch *
KernelLaunches::firstRoundedUpLaunch(const FunctionDecl &Kernel,
                                     unsigned Dimensions) const {
  for (const KernelLaunch &Launch : of(Kernel))
    if (Launch.RoundedUpExtent && (Launch.RoundedUpDimensions & Dimensions))
      return &Launch;
  return nullptr;
}

std::optional<int64_t>
KernelLaunches::leastConstantBlockExtent(const FunctionDecl &Kernel,
                                         unsigned Axis) const {
  std::optional<int64_t> Least;
  for (const KernelLaunch &Launch : of(Kernel)) {
    std::optional<llvm::SmallVector<int64_t, 3>> Extents =
        Launch.Block ? constantExtents(Launch.Block, Context) : std::nullopt;
    if (!Extents)
      return std::nullopt;
    // A dim3 leaves the extents it is not given at 1.
    int64_t Extent = Axis < Extents->size() ? (*Extents)[Axis] : 1;
    if (Extent <= 0)
      return std::nullopt;
    Least = Least ? std::min(*Least, Extent) : Extent;
  }
  return Least;
}

} // namespace gpuguard::cuda
