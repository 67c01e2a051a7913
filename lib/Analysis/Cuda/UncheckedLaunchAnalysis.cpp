//===--- UncheckedLaunchAnalysis.cpp - Kernel launches left unchecked -----===//

#include "Analysis/Cuda/UncheckedLaunchAnalysis.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Core/KnownCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

using namespace clang;

namespace gpuguard {

namespace {

/// A launch not yet checked on some path, and whether that path has passed a
/// synchronising call since, where the launch's faults surfaced.
struct PendingLaunch {
  const CallExpr *Launch;
  bool Synchronized;
  bool operator==(const PendingLaunch &Other) const {
    return Launch == Other.Launch && Synchronized == Other.Synchronized;
  }
};
using PendingSet = llvm::SmallVector<PendingLaunch, 2>;

/// The ForwardDataflow domain: the launches pending on some path, united at
/// joins. Findings are recorded only once the fixed point is reached, so
/// that each launch is judged against every path that reaches a
/// synchronisation or the exit.
class LaunchDataflow {
public:
  using Facts = PendingSet;

  LaunchDataflow(
      const FunctionDecl &Function, ASTContext &Context,
      llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify,
      llvm::function_ref<bool(const CallExpr &)> SurfacesAllErrors)
      : Function(Function), Context(Context), Classify(Classify),
        SurfacesAllErrors(SurfacesAllErrors) {}

  std::vector<UncheckedLaunch> run();

  bool transfer(const CFGElement &Element, PendingSet &Pending) {
    if (auto S = Element.getAs<CFGStmt>())
      return transfer(S->getStmt(), Pending);
    return true;
  }
  void edge(const CFGBlock &, unsigned, PendingSet &) {}
  bool join(PendingSet &Into, const PendingSet &Incoming);
  /// The launches of a function are finitely many: the sets stop growing.
  void widen(PendingSet &) {}

private:
  /// Applies one statement; returns false when the path ends there.
  bool transfer(const Stmt *S, PendingSet &Pending);
  void recordExit(const CFGBlock &Block, const PendingSet &Pending);
  /// Where a path leaves the function with \p Pending unchecked.
  void recordEnd(const PendingSet &Pending);
  bool isEarlier(SourceLocation A, SourceLocation B) const;
  UncheckedLaunch &findingFor(const CallExpr *Launch);
  /// Whether the statements \p Body starts with, which run whenever it
  /// does, read the last error before anything that may skip the rest or
  /// launch a kernel.
  bool checksFirst(const Stmt *Body) const;
  /// The initialisers of loops whose first iteration always runs and checks
  /// the last error: what is pending before the loop is checked there.
  void collectCheckingLoops();

  const FunctionDecl &Function;
  ASTContext &Context;
  llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify;
  llvm::function_ref<bool(const CallExpr &)> SurfacesAllErrors;
  llvm::DenseMap<const CallExpr *, UncheckedLaunch> Findings;
  llvm::SmallPtrSet<const Stmt *, 4> CheckingLoopInits;
  /// Set once the fixed point is reached.
  bool Record = false;
};

bool LaunchDataflow::isEarlier(SourceLocation A, SourceLocation B) const {
  const SourceManager &SM = Context.getSourceManager();
  return SM.isBeforeInTranslationUnit(SM.getFileLoc(A), SM.getFileLoc(B));
}

UncheckedLaunch &LaunchDataflow::findingFor(const CallExpr *Launch) {
  UncheckedLaunch &Finding = Findings[Launch];
  Finding.Launch = Launch;
  return Finding;
}

bool LaunchDataflow::checksFirst(const Stmt *Body) const {
  llvm::ArrayRef<Stmt *> Leading;
  Stmt *Single[] = {const_cast<Stmt *>(Body)};
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    Leading = llvm::ArrayRef(Block->body_begin(), Block->body_end());
  else
    Leading = Single;
  for (const Stmt *S : Leading) {
    if (!isa<Expr, DeclStmt>(S))
      return false;
    // The calls of one statement, in order, outside branches of `?:`, `&&`
    // and `||`, which may not run.
    struct CallsInOrder : RecursiveASTVisitor<CallsInOrder> {
      llvm::SmallVector<const CallExpr *, 4> Calls;
      bool TraverseConditionalOperator(ConditionalOperator *) { return true; }
      bool TraverseBinaryConditionalOperator(BinaryConditionalOperator *) {
        return true;
      }
      bool TraverseBinLAnd(BinaryOperator *) { return true; }
      bool TraverseBinLOr(BinaryOperator *) { return true; }
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitCallExpr(CallExpr *Call) {
        Calls.push_back(Call);
        return true;
      }
    } Visitor;
    Visitor.TraverseStmt(const_cast<Stmt *>(S));
    for (const CallExpr *Call : Visitor.Calls) {
      // A kernel launched before the check runs on what a pending call may
      // have failed to set up, which the check does not undo.
      if (isa<CUDAKernelCallExpr>(Call) || isNoReturnCall(Call))
        return false;
      // A synchronisation before the check leaves what it surfaces for the
      // check to see.
      if (Classify(*Call) == PendingLaunchEffect::Check)
        return true;
    }
  }
  return false;
}

void LaunchDataflow::collectCheckingLoops() {
  struct Loops : RecursiveASTVisitor<Loops> {
    llvm::SmallVector<const ForStmt *, 4> Found;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitForStmt(ForStmt *Loop) {
      Found.push_back(Loop);
      return true;
    }
  } Visitor;
  Visitor.TraverseStmt(Function.getBody());
  for (const ForStmt *Loop : Visitor.Found)
    if (Loop->getInit() && Loop->getBody() &&
        entersAtLeastOnce(*Loop, Context) && checksFirst(Loop->getBody()))
      CheckingLoopInits.insert(Loop->getInit());
}

bool LaunchDataflow::transfer(const Stmt *S, PendingSet &Pending) {
  // `for (int i = 0; i < 2000; ++i) { step(); getLastCudaError(...); }`
  // checks what is pending before it in its first iteration, which runs.
  if (CheckingLoopInits.contains(S)) {
    Pending.clear();
    return true;
  }
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    if (Record)
      for (const PendingLaunch &Entry : Pending) {
        if (isa<CUDAKernelCallExpr>(Entry.Launch))
          continue;
        UncheckedLaunch &Finding = findingFor(Entry.Launch);
        if (!Finding.LaunchedWhilePending ||
            isEarlier(Launch->getBeginLoc(),
                      Finding.LaunchedWhilePending->getBeginLoc()))
          Finding.LaunchedWhilePending = Launch;
      }
    PendingLaunch Fresh{Launch, /*Synchronized=*/false};
    if (!llvm::is_contained(Pending, Fresh))
      Pending.push_back(Fresh);
    return true;
  }
  // A throw leaves the normal flow, and whoever catches is out of sight.
  if (isa<CXXThrowExpr>(S))
    return false;
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return true;
  if (isNoReturnCall(Call))
    return false;
  switch (Classify(*Call)) {
  case PendingLaunchEffect::None:
    break;
  case PendingLaunchEffect::Pending: {
    PendingLaunch Fresh{Call, /*Synchronized=*/false};
    if (!llvm::is_contained(Pending, Fresh))
      Pending.push_back(Fresh);
    break;
  }
  case PendingLaunchEffect::Check:
    Pending.clear();
    break;
  case PendingLaunchEffect::CheckedSynchronize:
    // What the synchronisation's result reports in full is checked.
    if (SurfacesAllErrors)
      llvm::erase_if(Pending, [&](const PendingLaunch &Entry) {
        return SurfacesAllErrors(*Entry.Launch);
      });
    [[fallthrough]];
  case PendingLaunchEffect::Synchronize: {
    if (Record)
      for (const PendingLaunch &Entry : Pending) {
        UncheckedLaunch &Finding = findingFor(Entry.Launch);
        if (!Finding.Synchronization ||
            isEarlier(Call->getBeginLoc(),
                      Finding.Synchronization->getBeginLoc()))
          Finding.Synchronization = Call;
      }
    // The faults surface in its result, and also stay the thread's last
    // error: a check after it still sees them.
    PendingSet Synchronized;
    for (PendingLaunch Entry : Pending) {
      Entry.Synchronized = true;
      if (!llvm::is_contained(Synchronized, Entry))
        Synchronized.push_back(Entry);
    }
    Pending = std::move(Synchronized);
    break;
  }
  }
  return true;
}

void LaunchDataflow::recordEnd(const PendingSet &Pending) {
  if (!Record)
    return;
  for (const PendingLaunch &Entry : Pending)
    if (Entry.Synchronized)
      findingFor(Entry.Launch).UncheckedAfterSynchronization = true;
}

void LaunchDataflow::recordExit(const CFGBlock &Block,
                                const PendingSet &Pending) {
  if (Pending.empty())
    return;
  SourceLocation Loc;
  for (const CFGElement &Element : llvm::reverse(Block))
    if (auto S = Element.getAs<CFGStmt>()) {
      if (const auto *Return = dyn_cast<ReturnStmt>(S->getStmt()))
        Loc = Return->getBeginLoc();
      break;
    }
  // Falling off the end: the closing brace (of the last handler, for a
  // function-try-block).
  if (Loc.isInvalid())
    Loc = Function.getBody()->getEndLoc();
  if (Loc.isInvalid())
    return;
  for (const PendingLaunch &Entry : Pending) {
    UncheckedLaunch &Finding = findingFor(Entry.Launch);
    if (Finding.Exit.isInvalid() || isEarlier(Loc, Finding.Exit))
      Finding.Exit = Loc;
  }
  recordEnd(Pending);
}

bool LaunchDataflow::join(PendingSet &Into, const PendingSet &Incoming) {
  bool Grew = false;
  for (const PendingLaunch &Entry : Incoming)
    if (!llvm::is_contained(Into, Entry)) {
      Into.push_back(Entry);
      Grew = true;
    }
  return Grew;
}

std::vector<UncheckedLaunch> LaunchDataflow::run() {
  std::vector<UncheckedLaunch> Result;
  std::unique_ptr<CFG> Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return Result;
  collectCheckingLoops();
  ForwardDataflow<LaunchDataflow> Dataflow(*Graph, *this);
  Dataflow.run(PendingSet());

  Record = true;
  const CFGBlock &Exit = Graph->getExit();
  for (const CFGBlock *Block : *Graph) {
    if (Block == &Exit)
      continue;
    std::optional<PendingSet> Out = Dataflow.exitFacts(*Block);
    if (Out && llvm::is_contained(Block->succs(), &Exit))
      recordExit(*Block, *Out);
  }

  for (auto &Entry : Findings)
    Result.push_back(Entry.second);
  llvm::sort(Result, [&](const UncheckedLaunch &A, const UncheckedLaunch &B) {
    return isEarlier(A.Launch->getBeginLoc(), B.Launch->getBeginLoc());
  });
  return Result;
}

} // namespace

std::vector<UncheckedLaunch> findUncheckedLaunches(
    const FunctionDecl &Function, ASTContext &Context,
    llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify,
    llvm::function_ref<bool(const CallExpr &)> SurfacesAllErrors) {
  return LaunchDataflow(Function, Context, Classify, SurfacesAllErrors).run();
}

bool isDeviceOnly(const FunctionDecl &Function) {
  return Function.hasAttr<CUDAGlobalAttr>() ||
         (Function.hasAttr<CUDADeviceAttr>() &&
          !Function.hasAttr<CUDAHostAttr>());
}

LauncherHabit launcherHabit(
    ASTContext &Context, const CallSites &Calls,
    llvm::function_ref<bool(const FunctionDecl &)> LeavesLaunchPending) {
  const SourceManager &SM = Context.getSourceManager();
  LauncherHabit Habit;
  llvm::DenseSet<const FunctionDecl *> Seen;
  for (const CallSite &Site : Calls.all()) {
    const FunctionDecl *Launcher = Site.Caller;
    if (!isa<CUDAKernelCallExpr>(Site.Call) || !Launcher ||
        !Launcher->hasBody() || Launcher->isMain() || isDeviceOnly(*Launcher) ||
        !SM.isInMainFile(SM.getExpansionLoc(Launcher->getLocation())) ||
        !Seen.insert(CallSites::key(*Launcher)).second)
      continue;
    if (LeavesLaunchPending(*Launcher)) {
      ++Habit.LeaveLaunchesPending;
      continue;
    }
    ++Habit.CheckOwnLaunches;
    if (!Habit.Example)
      Habit.Example = Launcher;
  }
  return Habit;
}

} // namespace gpuguard
