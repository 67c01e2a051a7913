//===--- UncheckedLaunchAnalysis.cpp - Kernel launches left unchecked -----===//

#include "Analysis/Cuda/UncheckedLaunchAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <optional>

using namespace clang;

namespace gpuguard {

namespace {

using PendingSet = llvm::SmallVector<const CUDAKernelCallExpr *, 2>;

class LaunchDataflow {
public:
  LaunchDataflow(
      const FunctionDecl &Function, ASTContext &Context,
      llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify)
      : Function(Function), Context(Context), Classify(Classify) {}

  std::vector<UncheckedLaunch> run();

private:
  /// Applies one CFG element; returns false when the path ends there.
  bool transfer(const Stmt *S, PendingSet &Pending, bool Record);
  void recordExit(const CFGBlock &Block, const PendingSet &Pending);
  bool isEarlier(SourceLocation A, SourceLocation B) const;
  UncheckedLaunch &findingFor(const CUDAKernelCallExpr *Launch);

  const FunctionDecl &Function;
  ASTContext &Context;
  llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify;
  llvm::DenseMap<const CUDAKernelCallExpr *, UncheckedLaunch> Findings;
};

bool LaunchDataflow::isEarlier(SourceLocation A, SourceLocation B) const {
  const SourceManager &SM = Context.getSourceManager();
  return SM.isBeforeInTranslationUnit(SM.getFileLoc(A), SM.getFileLoc(B));
}

UncheckedLaunch &LaunchDataflow::findingFor(const CUDAKernelCallExpr *Launch) {
  UncheckedLaunch &Finding = Findings[Launch];
  Finding.Launch = Launch;
  return Finding;
}

bool LaunchDataflow::transfer(const Stmt *S, PendingSet &Pending, bool Record) {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    if (!llvm::is_contained(Pending, Launch))
      Pending.push_back(Launch);
    return true;
  }
  // A throw leaves the normal flow, and whoever catches is out of sight.
  if (isa<CXXThrowExpr>(S))
    return false;
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return true;
  if (const FunctionDecl *Callee = Call->getDirectCallee();
      Callee && Callee->isNoReturn())
    return false;
  switch (Classify(*Call)) {
  case PendingLaunchEffect::None:
    break;
  case PendingLaunchEffect::Check:
    Pending.clear();
    break;
  case PendingLaunchEffect::Synchronize:
    if (Record)
      for (const CUDAKernelCallExpr *Launch : Pending) {
        UncheckedLaunch &Finding = findingFor(Launch);
        if (!Finding.Synchronization ||
            isEarlier(Call->getBeginLoc(),
                      Finding.Synchronization->getBeginLoc()))
          Finding.Synchronization = Call;
      }
    // The faults have surfaced here; later synchronisations add nothing.
    Pending.clear();
    break;
  }
  return true;
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
  for (const CUDAKernelCallExpr *Launch : Pending) {
    UncheckedLaunch &Finding = findingFor(Launch);
    if (Finding.Exit.isInvalid() || isEarlier(Loc, Finding.Exit))
      Finding.Exit = Loc;
  }
}

/// Unites \p From into \p Into; returns true when \p Into grew.
static bool unite(PendingSet &Into, const PendingSet &From) {
  bool Grew = false;
  for (const CUDAKernelCallExpr *Launch : From)
    if (!llvm::is_contained(Into, Launch)) {
      Into.push_back(Launch);
      Grew = true;
    }
  return Grew;
}

std::vector<UncheckedLaunch> LaunchDataflow::run() {
  std::vector<UncheckedLaunch> Result;
  if (!Function.hasBody())
    return Result;
  CFG::BuildOptions BuildOptions;
  BuildOptions.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(&Function, Function.getBody(), &Context, BuildOptions);
  if (!Graph)
    return Result;

  std::vector<std::optional<PendingSet>> In(Graph->getNumBlockIDs());
  std::vector<bool> Queued(Graph->getNumBlockIDs(), false);
  std::deque<const CFGBlock *> Worklist;
  const CFGBlock &Entry = Graph->getEntry();
  const CFGBlock &Exit = Graph->getExit();
  In[Entry.getBlockID()] = PendingSet();
  Worklist.push_back(&Entry);
  Queued[Entry.getBlockID()] = true;

  // Returns the pending set at the end of the block, or nothing when the
  // path ends inside it (a no-return call, a throw).
  auto Apply = [&](const CFGBlock &Block,
                   bool Record) -> std::optional<PendingSet> {
    PendingSet Pending = *In[Block.getBlockID()];
    for (const CFGElement &Element : Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (!transfer(S->getStmt(), Pending, Record))
          return std::nullopt;
    if (Block.hasNoReturnElement())
      return std::nullopt;
    return Pending;
  };

  while (!Worklist.empty()) {
    const CFGBlock *Block = Worklist.front();
    Worklist.pop_front();
    Queued[Block->getBlockID()] = false;
    std::optional<PendingSet> Out = Apply(*Block, /*Record=*/false);
    if (!Out)
      continue;
    for (const CFGBlock *Succ : Block->succs()) {
      if (!Succ)
        continue;
      std::optional<PendingSet> &Target = In[Succ->getBlockID()];
      if (!Target)
        Target = *Out;
      else if (!unite(*Target, *Out))
        continue;
      if (!Queued[Succ->getBlockID()]) {
        Queued[Succ->getBlockID()] = true;
        Worklist.push_back(Succ);
      }
    }
  }

  // Record from the fixpoint only, so that each launch is judged against
  // every path that reaches a synchronisation or the exit.
  for (const CFGBlock *Block : *Graph) {
    if (!In[Block->getBlockID()] || Block == &Exit)
      continue;
    std::optional<PendingSet> Out = Apply(*Block, /*Record=*/true);
    if (!Out)
      continue;
    if (llvm::any_of(Block->succs(),
                     [&](const CFGBlock *Succ) { return Succ == &Exit; }))
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
    llvm::function_ref<PendingLaunchEffect(const CallExpr &)> Classify) {
  return LaunchDataflow(Function, Context, Classify).run();
}

} // namespace gpuguard
