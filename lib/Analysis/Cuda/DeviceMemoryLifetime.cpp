//===--- DeviceMemoryLifetime.cpp - Allocations and their release ---------===//

#include "Analysis/Cuda/DeviceMemoryLifetime.h"
#include "Analysis/Core/BranchCondition.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Core/KnownCalls.h"
#include "Analysis/Cuda/CudaApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include <map>
#include <set>
#include <tuple>

using namespace clang;
using namespace llvm;

namespace gpuguard {

std::optional<MemoryFamily> allocatedFamily(StringRef Name) {
  return StringSwitch<std::optional<MemoryFamily>>(Name)
      .Cases({"cudaMalloc", "cudaMallocManaged", "cudaMallocAsync",
              "cudaMallocFromPoolAsync", "cudaMallocPitch", "cudaMalloc3D"},
             MemoryFamily::Device)
      .Cases({"cuMemAlloc", "cuMemAllocManaged", "cuMemAllocPitch",
              "cuMemAllocAsync", "cuMemAllocFromPoolAsync"},
             MemoryFamily::Device)
      .Cases({"cudaMallocHost", "cudaHostAlloc", "cuMemAllocHost",
              "cuMemHostAlloc"},
             MemoryFamily::PinnedHost)
      .Cases({"cudaMallocArray", "cudaMalloc3DArray"}, MemoryFamily::Array)
      .Case("cudaMallocMipmappedArray", MemoryFamily::MipmappedArray)
      .Cases({"malloc", "calloc", "realloc", "aligned_alloc"},
             MemoryFamily::HostHeap)
      .Default(std::nullopt);
}

std::optional<MemoryFamily> releasedFamily(StringRef Name) {
  return StringSwitch<std::optional<MemoryFamily>>(Name)
      .Cases({"cudaFree", "cudaFreeAsync", "cuMemFree", "cuMemFreeAsync"},
             MemoryFamily::Device)
      .Cases({"cudaFreeHost", "cuMemFreeHost"}, MemoryFamily::PinnedHost)
      .Case("cudaFreeArray", MemoryFamily::Array)
      .Case("cudaFreeMipmappedArray", MemoryFamily::MipmappedArray)
      .Case("free", MemoryFamily::HostHeap)
      .Default(std::nullopt);
}

StringRef releaseFunctionOf(MemoryFamily Family) {
  switch (Family) {
  case MemoryFamily::Device:
    return "cudaFree";
  case MemoryFamily::PinnedHost:
    return "cudaFreeHost";
  case MemoryFamily::Array:
    return "cudaFreeArray";
  case MemoryFamily::MipmappedArray:
    return "cudaFreeMipmappedArray";
  case MemoryFamily::HostHeap:
    return "free";
  case MemoryFamily::NewArray:
    return "delete[]";
  case MemoryFamily::NewObject:
    return "delete";
  }
  return "";
}

bool isCudaFamily(MemoryFamily Family) {
  return Family != MemoryFamily::HostHeap && Family != MemoryFamily::NewArray &&
         Family != MemoryFamily::NewObject;
}

namespace {

/// The local variable \p E names, through parentheses and casts.
const VarDecl *localVariable(const Expr *E) {
  return asLocalVariable(E->IgnoreParenCasts());
}

/// The variable a release's argument names: `p`, `(void *)p`, and the
/// `ptr` member of a `cudaPitchedPtr`.
const VarDecl *releasedVariable(const Expr *Arg) {
  const Expr *Stripped = Arg->IgnoreParenCasts();
  if (const auto *Member = dyn_cast<MemberExpr>(Stripped))
    if (!Member->isArrow() && Member->getMemberDecl()->getName() == "ptr")
      Stripped = Member->getBase();
  return localVariable(Stripped);
}

StringRef canonicalCallee(const CallExpr &Call) {
  return canonicalApiName(calleeName(Call));
}

/// Calls that use a pointer without keeping it for later release: the CUDA
/// libraries' functions, and C's string and stdio functions.
bool borrowsPointerArguments(const CallExpr &Call) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  if (isa<CXXMemberCallExpr>(Call) || isa<CXXOperatorCallExpr>(Call))
    return false;
  StringRef Name = calleeName(Call);
  if (Name.empty())
    return false;
  for (StringRef Prefix : {"cuda", "cublas", "cufft", "cusparse", "curand",
                           "cusolver", "cudnn", "nccl", "nvtx", "nvjpeg"})
    if (Name.starts_with(Prefix))
      return true;
  // The driver API: cuMemcpyHtoD, cuLaunchKernel, ...
  if (Name.size() > 2 && Name.starts_with("cu") && isUppercase(Name[2]))
    return true;
  return StringSwitch<bool>(Name)
      .Cases({"memcpy", "memset", "memcmp", "memmove", "printf", "fprintf",
              "sprintf", "snprintf", "puts", "fwrite", "fread"},
             true)
      .Default(false);
}

/// An allocation the analysis follows: the call (or new-expression) and
/// the local pointer it allocates into.
struct TrackedAllocation {
  const Expr *Site;
  StringRef Name;
  MemoryFamily Family;
  const VarDecl *Holder;
};

/// Finds the allocations into local pointers, and the pointers that escape.
class AllocationCollector : public RecursiveASTVisitor<AllocationCollector> {
public:
  explicit AllocationCollector(const Stmt *Body)
      : Parents(const_cast<Stmt *>(Body)) {}

  bool VisitCallExpr(CallExpr *Call) {
    StringRef Name = canonicalCallee(*Call);
    std::optional<MemoryFamily> Family = allocatedFamily(Name);
    if (!Family)
      return true;
    if (*Family == MemoryFamily::HostHeap) {
      if (const VarDecl *Holder = assignedVariable(Call))
        add(Call, Name, *Family, Holder);
      return true;
    }
    if (Call->getNumArgs() == 0)
      return true;
    if (const VarDecl *Holder = addressedLocalVariable(Call->getArg(0)))
      add(Call, Name, *Family, Holder);
    return true;
  }

  bool VisitCXXNewExpr(CXXNewExpr *New) {
    if (New->getNumPlacementArgs())
      return true;
    if (const VarDecl *Holder = assignedVariable(New))
      add(New, New->isArray() ? "new[]" : "new",
          New->isArray() ? MemoryFamily::NewArray : MemoryFamily::NewObject,
          Holder);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    References.push_back(Ref);
    return true;
  }

  /// Runs the escape test once every allocation is known.
  void finish() {
    for (const DeclRefExpr *Ref : References) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Holders.contains(Var) && escapes(Ref))
        Escaped.insert(Var);
    }
  }

  std::vector<TrackedAllocation> Allocations;
  DenseSet<const VarDecl *> Holders;
  DenseSet<const VarDecl *> Escaped;

private:
  ParentMap Parents;

  void add(const Expr *Site, StringRef Name, MemoryFamily Family,
           const VarDecl *Holder) {
    // A reference (`float *&out`) names a pointer that outlives the
    // function: the caller's, or an element of something longer-lived.
    if (Holder->getType()->isReferenceType())
      return;
    Allocations.push_back({Site, Name, Family, Holder});
    Holders.insert(Holder);
  }

  /// The local variable that \p Value initialises or is assigned to, when
  /// it is the whole initialiser or right-hand side (casts aside).
  const VarDecl *assignedVariable(const Expr *Value) {
    const Stmt *Child = Value;
    const Stmt *Parent = Parents.getParent(Child);
    while (Parent && (isa<ParenExpr>(Parent) || isa<CastExpr>(Parent))) {
      Child = Parent;
      Parent = Parents.getParent(Parent);
    }
    if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent))
      if (Assign->getOpcode() == BO_Assign && Assign->getRHS() == Child)
        return localVariable(Assign->getLHS());
    if (const auto *Declaration = dyn_cast_or_null<DeclStmt>(Parent))
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (Var->getInit() == Child && Var->hasLocalStorage())
            return Var;
    return nullptr;
  }

  /// Whether the use \p Ref of the holder \p Var lets the pointer's value
  /// go somewhere the function does not follow.
  bool escapes(const DeclRefExpr *Ref) {
    if (Ref->refersToEnclosingVariableOrCapture())
      return true; // Used inside a lambda or block: captured.
    const Stmt *Child = Ref;
    // Whether Child now stands for the pointer's value (as opposed to an
    // element or a scalar read from it).
    while (const Stmt *Parent = Parents.getParent(Child)) {
      if (isa<ParenExpr>(Parent) || isa<CastExpr>(Parent)) {
        Child = Parent;
        continue;
      }
      if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
        // `pitched.ptr` is the pointer; other members are sizes.
        if (!Member->isArrow() && Member->getMemberDecl()->getName() == "ptr") {
          Child = Parent;
          continue;
        }
        return false;
      }
      if (const auto *Unary = dyn_cast<UnaryOperator>(Parent)) {
        switch (Unary->getOpcode()) {
        case UO_Deref:
        case UO_LNot:
          return false;
        case UO_AddrOf:
          // Only the allocation itself may take the holder's address.
          return !isAllocationArgument(Parent);
        default:
          return true; // `p++` moves the pointer off its allocation.
        }
      }
      if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Parent)) {
        if (Subscript->getBase()->IgnoreParenImpCasts() !=
            cast<Expr>(Child)->IgnoreParenImpCasts())
          return false; // Used as an index.
        // `&p[i]` is a pointer into the memory; `p[i]` an element.
        const Stmt *Above = Parents.getParentIgnoreParenCasts(Parent);
        const auto *AddressOf = dyn_cast_or_null<UnaryOperator>(Above);
        if (!AddressOf || AddressOf->getOpcode() != UO_AddrOf)
          return false;
        Child = AddressOf;
        continue;
      }
      if (const auto *Binary = dyn_cast<BinaryOperator>(Parent)) {
        if (Binary->isAdditiveOp() && Binary->getType()->isPointerType()) {
          Child = Parent;
          continue;
        }
        if (Binary->isAssignmentOp())
          return Binary->getRHS() == Child;
        // Comparisons, logic, and pointer differences.
        return false;
      }
      if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
        if (Call->getCallee() == Child)
          return true;
        StringRef Name = canonicalCallee(*Call);
        if (releasedFamily(Name) || borrowsPointerArguments(*Call))
          return false;
        return true;
      }
      if (isa<CXXDeleteExpr>(Parent) || isa<UnaryExprOrTypeTraitExpr>(Parent))
        return false;
      if (isa<IfStmt, WhileStmt, DoStmt, ForStmt>(Parent))
        return false; // The pointer as a condition: a null test.
      return true;
    }
    return true;
  }

  /// Whether \p AddressOf (`&p`) is the first argument of an allocation.
  bool isAllocationArgument(const Stmt *AddressOf) {
    const Stmt *Child = AddressOf;
    const Stmt *Parent = Parents.getParent(Child);
    while (Parent && (isa<ParenExpr>(Parent) || isa<CastExpr>(Parent))) {
      Child = Parent;
      Parent = Parents.getParent(Parent);
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
    if (!Call || Call->getNumArgs() == 0 || Call->getArg(0) != Child)
      return false;
    std::optional<MemoryFamily> Family =
        allocatedFamily(canonicalCallee(*Call));
    return Family && *Family != MemoryFamily::HostHeap;
  }

  std::vector<const DeclRefExpr *> References;
};

/// The dataflow facts: which allocations each pointer may still hold, and
/// which allocation's status each status variable holds.
/// A flag a branch tests: a local variable or parameter, or a member of
/// one (`Options.Pinned`), as the chain of declarations from the variable.
using FlagKey = std::vector<const ValueDecl *>;
/// What the path is known to have taken: each flag's truth.
using FlagValues = std::map<FlagKey, bool>;

/// The dataflow facts: which allocations each pointer may still hold, each
/// with the flags known where it was made (so that a later test of the same
/// flag, `if (Pinned) cudaFreeHost(p); else cudaFree(p);`, follows only the
/// allocations of its side), and which allocation's status each status
/// variable holds.
struct LifetimeFacts {
  std::map<const VarDecl *, std::map<const Expr *, FlagValues>> Held;
  std::map<const VarDecl *, const Expr *> StatusOf;
  FlagValues Flags;
};

/// The flag \p E tests, when it is one.
std::optional<FlagKey> flagOf(const Expr *E) {
  FlagKey Key;
  E = E->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(E)) {
    Key.push_back(Member->getMemberDecl());
    E = Member->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasLocalStorage())
    return std::nullopt;
  Key.push_back(Var);
  std::reverse(Key.begin(), Key.end());
  return Key;
}

/// The variable a write through \p Target changes (`x = ...`, `s.f = ...`).
const ValueDecl *writtenVariable(const Expr *Target) {
  Target = Target->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(Target))
    Target = Member->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Target);
  return Ref ? Ref->getDecl() : nullptr;
}

/// Forgets every flag rooted at \p Var, which is being written.
void forgetFlags(const ValueDecl *Var, LifetimeFacts &State) {
  auto Rooted = [&](FlagValues &Values) {
    for (auto It = Values.begin(); It != Values.end();)
      It = It->first.front() == Var ? Values.erase(It) : std::next(It);
  };
  Rooted(State.Flags);
  for (auto &[Holder, Sites] : State.Held)
    for (auto &[Site, Values] : Sites)
      Rooted(Values);
}

/// The flags both \p Into and \p Other know, with the same value.
bool intersectFlags(FlagValues &Into, const FlagValues &Other) {
  bool Changed = false;
  for (auto It = Into.begin(); It != Into.end();) {
    auto Found = Other.find(It->first);
    if (Found == Other.end() || Found->second != It->second) {
      It = Into.erase(It);
      Changed = true;
    } else {
      ++It;
    }
  }
  return Changed;
}

/// How a branch condition relates to the allocations.
struct ConditionMeaning {
  enum KindType { Unrelated, Status, NullTest, Opaque } Kind = Unrelated;
  /// Status: the allocation whose status it tests. NullTest: unused.
  const Expr *Allocation = nullptr;
  /// NullTest: the pointer it tests.
  const VarDecl *Holder = nullptr;
  /// Whether the true edge is the one where the value is non-zero (a
  /// failed status, a non-null pointer).
  bool TrueWhenNonZero = true;
};

bool isZeroLike(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (const auto *Literal = dyn_cast<IntegerLiteral>(E))
    return Literal->getValue() == 0;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(Ref->getDecl()))
      return Enumerator->getInitVal() == 0;
  return false;
}

class LifetimeDomain {
public:
  using Facts = LifetimeFacts;

  LifetimeDomain(const DenseMap<const Expr *, TrackedAllocation> &BySite)
      : BySite(BySite) {}

  bool transfer(const CFGElement &Element, Facts &State) {
    std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>();
    if (!Statement)
      return true;
    const Stmt *S = Statement->getStmt();
    if (isa<CXXThrowExpr>(S))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (isNoReturnCall(Call))
        return false;
      if (const TrackedAllocation *Allocation = tracked(Call)) {
        State.Held[Allocation->Holder] = {{Call, State.Flags}};
        return true;
      }
      if (const VarDecl *Holder = releasedHolder(*Call))
        State.Held.erase(Holder);
      return true;
    }
    if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
      if (const VarDecl *Holder = releasedVariable(Delete->getArgument()))
        State.Held.erase(Holder);
      return true;
    }
    if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
      if (const TrackedAllocation *Allocation = tracked(New))
        State.Held[Allocation->Holder] = {{New, State.Flags}};
      return true;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
      if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf)
        if (const ValueDecl *Var = writtenVariable(Unary->getSubExpr()))
          forgetFlags(Var, State);
      return true;
    }
    if (const auto *Assign = dyn_cast<BinaryOperator>(S)) {
      if (Assign->isAssignmentOp())
        if (const ValueDecl *Var = writtenVariable(Assign->getLHS()))
          forgetFlags(Var, State);
      if (Assign->getOpcode() != BO_Assign)
        return true;
      const VarDecl *Target = localVariable(Assign->getLHS());
      if (!Target)
        return true;
      assignStatus(Target, Assign->getRHS(), State);
      // A new value that is not an allocation: followed no further.
      const TrackedAllocation *Allocation =
          tracked(Assign->getRHS()->IgnoreParenCasts());
      if (!Allocation || Allocation->Holder != Target)
        State.Held.erase(Target);
      return true;
    }
    if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit())
          assignStatus(Var, Var->getInit(), State);
      return true;
    }
    return true;
  }

  void edge(const CFGBlock &Block, unsigned Edge, Facts &State) {
    const Expr *Condition = branchCondition(Block);
    if (!Condition)
      return;
    learnFlag(Condition, Edge == 0, State);
    ConditionMeaning Meaning = meaningOf(Condition, State);
    bool NonZero = (Edge == 0) == Meaning.TrueWhenNonZero;
    switch (Meaning.Kind) {
    case ConditionMeaning::Unrelated:
      return;
    case ConditionMeaning::Status:
      // A failed allocation holds nothing to release.
      if (NonZero)
        forget(Meaning.Allocation, State);
      return;
    case ConditionMeaning::Opaque:
      forget(Meaning.Allocation, State);
      return;
    case ConditionMeaning::NullTest:
      if (!NonZero)
        State.Held.erase(Meaning.Holder);
      return;
    }
  }

  bool join(Facts &Into, const Facts &Incoming) {
    bool Changed = false;
    for (const auto &[Holder, Sites] : Incoming.Held) {
      std::map<const Expr *, FlagValues> &Mine = Into.Held[Holder];
      for (const auto &[Site, Values] : Sites) {
        auto [It, Inserted] = Mine.try_emplace(Site, Values);
        Changed |= Inserted || intersectFlags(It->second, Values);
      }
    }
    Changed |= intersectFlags(Into.Flags, Incoming.Flags);
    for (auto It = Into.StatusOf.begin(); It != Into.StatusOf.end();) {
      auto Other = Incoming.StatusOf.find(It->first);
      if (Other == Incoming.StatusOf.end() || Other->second != It->second) {
        It = Into.StatusOf.erase(It);
        Changed = true;
      } else {
        ++It;
      }
    }
    return Changed;
  }

  void widen(Facts &State) {
    // Forgetting held memory would only hide findings; statuses and flags
    // go.
    State.StatusOf.clear();
    State.Flags.clear();
    for (auto &[Holder, Sites] : State.Held)
      for (auto &[Site, Values] : Sites)
        Values.clear();
  }

  const TrackedAllocation *tracked(const Expr *Site) const {
    auto It = BySite.find(Site);
    return It == BySite.end() ? nullptr : &It->second;
  }

  const VarDecl *releasedHolder(const CallExpr &Call) const {
    if (Call.getNumArgs() == 0 || !releasedFamily(canonicalCallee(Call)))
      return nullptr;
    return releasedVariable(Call.getArg(0));
  }

private:
  /// On the edge where \p Condition is \p Taken: the flag it tests takes
  /// that value, and allocations made under the other value are not held.
  void learnFlag(const Expr *Condition, bool Taken, Facts &State) {
    const Expr *E = Condition->IgnoreParenImpCasts();
    while (const auto *Not = dyn_cast<UnaryOperator>(E)) {
      if (Not->getOpcode() != UO_LNot)
        break;
      Taken = !Taken;
      E = Not->getSubExpr()->IgnoreParenImpCasts();
    }
    std::optional<FlagKey> Key = flagOf(E);
    if (!Key)
      return;
    State.Flags[*Key] = Taken;
    for (auto &[Holder, Sites] : State.Held)
      for (auto It = Sites.begin(); It != Sites.end();) {
        auto Known = It->second.find(*Key);
        if (Known != It->second.end() && Known->second != Taken)
          It = Sites.erase(It);
        else
          ++It;
      }
  }

  void assignStatus(const VarDecl *Target, const Expr *Value, Facts &State) {
    const auto *Call = dyn_cast<CallExpr>(Value->IgnoreParenCasts());
    const TrackedAllocation *Allocation = Call ? tracked(Call) : nullptr;
    if (Allocation && Allocation->Family != MemoryFamily::HostHeap)
      State.StatusOf[Target] = Call;
    else
      State.StatusOf.erase(Target);
  }

  void forget(const Expr *Allocation, Facts &State) const {
    const TrackedAllocation *Tracked = tracked(Allocation);
    if (!Tracked)
      return;
    auto It = State.Held.find(Tracked->Holder);
    if (It != State.Held.end())
      It->second.erase(Allocation);
  }

  /// The allocation whose status \p E is, or the holder it names.
  std::pair<const Expr *, const VarDecl *> operand(const Expr *E,
                                                   const Facts &State) const {
    E = E->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const TrackedAllocation *Allocation = tracked(Call);
          Allocation && Allocation->Family != MemoryFamily::HostHeap)
        return {Call, nullptr};
    if (const VarDecl *Var = localVariable(E)) {
      if (auto It = State.StatusOf.find(Var); It != State.StatusOf.end())
        return {It->second, nullptr};
      return {nullptr, Var};
    }
    return {nullptr, nullptr};
  }

  ConditionMeaning meaningOf(const Expr *Condition, const Facts &State) const {
    ConditionMeaning Meaning;
    const Expr *E = Condition->IgnoreParenImpCasts();
    bool Inverted = false;
    while (const auto *Not = dyn_cast<UnaryOperator>(E)) {
      if (Not->getOpcode() != UO_LNot)
        break;
      Inverted = !Inverted;
      E = Not->getSubExpr()->IgnoreParenImpCasts();
    }
    const Expr *Tested = E;
    if (const auto *Compare = dyn_cast<BinaryOperator>(E);
        Compare && Compare->isEqualityOp()) {
      const Expr *LHS = Compare->getLHS(), *RHS = Compare->getRHS();
      if (isZeroLike(LHS))
        std::swap(LHS, RHS);
      if (isZeroLike(RHS)) {
        Tested = LHS;
        if (Compare->getOpcode() == BO_EQ)
          Inverted = !Inverted;
      } else {
        // `err == cudaErrorMemoryAllocation`: about the status, but not
        // whether it failed.
        for (const Expr *Side : {LHS, RHS})
          if (const Expr *Allocation = operand(Side, State).first) {
            Meaning.Kind = ConditionMeaning::Opaque;
            Meaning.Allocation = Allocation;
          }
        return Meaning;
      }
    }
    auto [Allocation, Holder] = operand(Tested, State);
    Meaning.TrueWhenNonZero = !Inverted;
    if (Allocation) {
      Meaning.Kind = ConditionMeaning::Status;
      Meaning.Allocation = Allocation;
    } else if (Holder && State.Held.count(Holder)) {
      Meaning.Kind = ConditionMeaning::NullTest;
      Meaning.Holder = Holder;
    }
    return Meaning;
  }

  const DenseMap<const Expr *, TrackedAllocation> &BySite;
};

} // namespace

std::vector<MemoryLifetimeFinding>
analyzeDeviceMemoryLifetime(const FunctionDecl &Function, ASTContext &Context) {
  std::vector<MemoryLifetimeFinding> Findings;
  const Stmt *Body = Function.getBody();
  if (!Body)
    return Findings;
  AllocationCollector Collector(Body);
  Collector.TraverseStmt(const_cast<Stmt *>(Body));
  if (Collector.Allocations.empty())
    return Findings;
  Collector.finish();

  DenseMap<const Expr *, TrackedAllocation> BySite;
  for (const TrackedAllocation &Allocation : Collector.Allocations)
    if (!Collector.Escaped.contains(Allocation.Holder))
      BySite[Allocation.Site] = Allocation;
  if (BySite.empty())
    return Findings;

  std::unique_ptr<CFG> Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return Findings;
  LifetimeDomain Domain(BySite);
  ForwardDataflow<LifetimeDomain> Flow(*Graph, Domain);
  Flow.run(LifetimeFacts());

  std::set<std::tuple<int, const Expr *, const Stmt *>> Reported;
  auto Add = [&](MemoryLifetimeFinding Finding) {
    // A leak is reported once per allocation, at its first return.
    const Stmt *Key = Finding.Kind == MemoryLifetimeFinding::LeakedAtReturn
                          ? nullptr
                          : Finding.Site;
    if (Reported.insert({Finding.Kind, Finding.Allocation, Key}).second)
      Findings.push_back(Finding);
  };
  auto Describe = [&](const Expr *Site, MemoryLifetimeFinding Finding) {
    const TrackedAllocation &Allocation = BySite.find(Site)->second;
    Finding.Allocation = Site;
    Finding.AllocatedBy = Allocation.Name;
    Finding.Family = Allocation.Family;
    Finding.Holder = Allocation.Holder;
    return Finding;
  };
  // Memory held when `main` returns goes with the process.
  bool ReportsReturns = !Function.isMain();
  auto Leaks = [&](const LifetimeFacts &State, const Stmt *Site,
                   SourceLocation At) {
    if (!ReportsReturns)
      return;
    for (const auto &[Holder, Sites] : State.Held)
      for (const auto &[Allocation, Flags] : Sites)
        if (isCudaFamily(BySite.find(Allocation)->second.Family)) {
          MemoryLifetimeFinding Finding;
          Finding.Kind = MemoryLifetimeFinding::LeakedAtReturn;
          Finding.Site = Site;
          Finding.At = At;
          Add(Describe(Allocation, Finding));
        }
  };

  Flow.forEachElement(
      [&](const CFGElement &Element, const LifetimeFacts &State) {
        std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>();
        if (!Statement)
          return;
        const Stmt *S = Statement->getStmt();
        if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
          Leaks(State, Return, Return->getBeginLoc());
          return;
        }
        const Expr *New = nullptr;
        const VarDecl *Released = nullptr;
        StringRef ReleasedBy;
        std::optional<MemoryFamily> ReleasedAs;
        if (const auto *Call = dyn_cast<CallExpr>(S)) {
          if (Domain.tracked(Call)) {
            New = Call;
          } else if ((Released = Domain.releasedHolder(*Call))) {
            ReleasedBy = calleeName(*Call);
            ReleasedAs = releasedFamily(canonicalCallee(*Call));
          }
        } else if (const auto *NewExpr = dyn_cast<CXXNewExpr>(S)) {
          if (Domain.tracked(NewExpr))
            New = NewExpr;
        } else if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
          Released = releasedVariable(Delete->getArgument());
          ReleasedBy = Delete->isArrayForm() ? "delete[]" : "delete";
          ReleasedAs = Delete->isArrayForm() ? MemoryFamily::NewArray
                                             : MemoryFamily::NewObject;
        }
        if (New) {
          const TrackedAllocation &Allocation = BySite.find(New)->second;
          auto It = State.Held.find(Allocation.Holder);
          if (It == State.Held.end())
            return;
          for (const auto &[Previous, Flags] : It->second)
            if (isCudaFamily(BySite.find(Previous)->second.Family)) {
              MemoryLifetimeFinding Finding;
              Finding.Kind = MemoryLifetimeFinding::OverwrittenBeforeRelease;
              Finding.Site = New;
              Finding.At = New->getBeginLoc();
              Add(Describe(Previous, Finding));
            }
          return;
        }
        if (Released) {
          auto It = State.Held.find(Released);
          if (It == State.Held.end())
            return;
          // Memory of the right family may reach the release too: the code
          // tells the two apart by a test this analysis does not follow.
          if (llvm::any_of(It->second, [&](const auto &Held) {
                return BySite.find(Held.first)->second.Family == *ReleasedAs;
              }))
            return;
          for (const auto &[Allocation, Flags] : It->second)
            if (BySite.find(Allocation)->second.Family != *ReleasedAs) {
              MemoryLifetimeFinding Finding;
              Finding.Kind = MemoryLifetimeFinding::MismatchedRelease;
              Finding.Site = S;
              Finding.At = S->getBeginLoc();
              Finding.ReleasedBy = ReleasedBy;
              Finding.ReleasedFamily = *ReleasedAs;
              Add(Describe(Allocation, Finding));
            }
        }
      });

  // Paths that fall off the end of the body.
  const CFGBlock &Exit = Graph->getExit();
  for (const CFGBlock *Pred : Exit.preds()) {
    if (!Pred)
      continue;
    bool Returns = llvm::any_of(*Pred, [](const CFGElement &Element) {
      std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>();
      return Statement && isa<ReturnStmt>(Statement->getStmt());
    });
    if (Returns)
      continue;
    std::optional<LifetimeFacts> State = Flow.exitFacts(*Pred);
    if (!State)
      continue;
    // Along each edge into the exit: `if (Flag) cudaFree(p);` ends the
    // function on its false edge, where what the flag allocated is gone.
    unsigned Edge = 0;
    for (const CFGBlock *Succ : Pred->succs()) {
      if (Succ == &Exit) {
        LifetimeFacts Leaving = *State;
        Domain.edge(*Pred, Edge, Leaving);
        Leaks(Leaving, nullptr, Body->getEndLoc());
      }
      ++Edge;
    }
  }

  SourceManager &Sources = Context.getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return Sources.isBeforeInTranslationUnit(A, B);
  };
  llvm::sort(Findings, [&](const MemoryLifetimeFinding &A,
                           const MemoryLifetimeFinding &B) {
    SourceLocation AllocationA = A.Allocation->getBeginLoc();
    SourceLocation AllocationB = B.Allocation->getBeginLoc();
    if (AllocationA != AllocationB)
      return Before(AllocationA, AllocationB);
    if (A.At != B.At)
      return Before(A.At, B.At);
    return A.Kind < B.Kind;
  });
  return Findings;
}

} // namespace gpuguard
