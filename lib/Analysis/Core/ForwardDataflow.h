//===--- ForwardDataflow.h - Forward dataflow over a CFG --------*- C++ -*-===//
///
/// \file
/// The fixed-point loop that gpuguard's flow-sensitive analyses share: facts
/// flow forward from the function's entry, through every element of each
/// block, along every edge (refined by the branch taken), and meet at joins.
/// An analysis supplies its facts and three operations:
///
/// \code
///   struct MyDomain {
///     using Facts = ...;                      // copyable
///     // Applies one CFG element; false when the path ends inside it
///     // (a call that never returns).
///     bool transfer(const clang::CFGElement &, Facts &);
///     // Refines the facts leaving Block along its successor number Edge.
///     void edge(const clang::CFGBlock &Block, unsigned Edge, Facts &);
///     // Merges Incoming into Into; true when Into changed.
///     bool join(Facts &Into, const Facts &Incoming);
///     // Forgets everything: after too many visits of one block.
///     void widen(Facts &);
///   };
/// \endcode
///
/// Blocks are visited in reverse post-order, so that a join is reached after
/// the paths into it. A block visited more than MaxVisitsPerBlock times has
/// its facts widened, which bounds the work on any lattice.
///
/// buildDataflowCFG() builds the graph every analysis runs on: each
/// statement its own element, plus the edges and elements an analysis asks
/// for. An analysis builds it once and keeps it as long as it answers
/// queries from its fixed point.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_FORWARDDATAFLOW_H
#define GPUGUARD_ANALYSIS_CORE_FORWARDDATAFLOW_H

#include "Analysis/Core/AnalysisBudget.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <optional>
#include <vector>

namespace gpuguard {

/// What a dataflow CFG holds beyond every statement as an element.
struct DataflowCFGOptions {
  /// Edges into catch handlers, which are unreachable without them.
  bool ExceptionEdges = false;
  /// Where locals' lifetimes end, so that facts can end with their scope.
  bool LifetimeEnds = false;
  /// A constructor's member initialisers.
  bool Initializers = false;
};

/// The CFG of \p Function's body for ForwardDataflow; null when the
/// function has no body or Clang cannot build its CFG.
std::unique_ptr<clang::CFG>
buildDataflowCFG(const clang::FunctionDecl &Function,
                 clang::ASTContext &Context, DataflowCFGOptions Options = {});

template <typename Domain> class ForwardDataflow {
public:
  using Facts = typename Domain::Facts;
  static constexpr unsigned MaxVisitsPerBlock = 64;

  ForwardDataflow(const clang::CFG &Graph, Domain &D)
      : Graph(Graph), D(D), In(Graph.getNumBlockIDs()) {}

  /// Runs to a fixed point from \p Entry, the facts at the function's entry.
  void run(Facts Entry) {
    std::vector<unsigned> Visits(Graph.getNumBlockIDs(), 0);
    clang::PostOrderCFGView Order(&Graph);
    clang::ForwardDataflowWorklist Worklist(Graph, &Order);
    const clang::CFGBlock &Start = Graph.getEntry();
    In[Start.getBlockID()] = std::move(Entry);
    Worklist.enqueueBlock(&Start);

    while (const clang::CFGBlock *Block = Worklist.dequeue()) {
      // The file's findings are dropped when the budget runs out, so the
      // facts need not be complete.
      if (analysisBudgetExceeded())
        return;
      if (++Visits[Block->getBlockID()] > MaxVisitsPerBlock)
        D.widen(*In[Block->getBlockID()]);
      Facts Current = *In[Block->getBlockID()];
      bool Ends = false;
      for (const clang::CFGElement &Element : *Block)
        if (!D.transfer(Element, Current)) {
          Ends = true;
          break;
        }
      if (Ends)
        continue;
      unsigned Index = 0;
      for (const clang::CFGBlock *Succ : Block->succs()) {
        unsigned Edge = Index++;
        if (!Succ)
          continue;
        Facts Leaving = Current;
        D.edge(*Block, Edge, Leaving);
        std::optional<Facts> &Target = In[Succ->getBlockID()];
        if (!Target)
          Target = std::move(Leaving);
        else if (!D.join(*Target, Leaving))
          continue;
        Worklist.enqueueBlock(Succ);
      }
    }
  }

  /// The facts at the entry of \p Block; empty when no path reaches it.
  const std::optional<Facts> &entryFacts(const clang::CFGBlock &Block) const {
    return In[Block.getBlockID()];
  }

  /// The facts at the end of \p Block, after its last element; none when no
  /// path reaches it or every path ends inside it. The domain's transfer
  /// runs again on each element, as in forEachElement.
  std::optional<Facts> exitFacts(const clang::CFGBlock &Block) const {
    if (!In[Block.getBlockID()])
      return std::nullopt;
    Facts Current = *In[Block.getBlockID()];
    for (const clang::CFGElement &Element : Block)
      if (!D.transfer(Element, Current))
        return std::nullopt;
    // Clang knows more functions that never return than a domain may.
    if (Block.hasNoReturnElement())
      return std::nullopt;
    return Current;
  }

  /// Calls \p Visit with every element of every reachable block and the facts
  /// just before it.
  void forEachElement(
      llvm::function_ref<void(const clang::CFGElement &, const Facts &)> Visit)
      const {
    for (const clang::CFGBlock *Block : Graph) {
      if (!In[Block->getBlockID()])
        continue;
      Facts Current = *In[Block->getBlockID()];
      for (const clang::CFGElement &Element : *Block) {
        Visit(Element, Current);
        if (!D.transfer(Element, Current))
          break;
      }
    }
  }

private:
  const clang::CFG &Graph;
  Domain &D;
  std::vector<std::optional<Facts>> In;
};

/// Whether \p E runs on every path through \p Function that returns: it is
/// under no branch, loop, short circuit or handler, and nothing before it
/// can leave the function. Written order stands for execution order, which
/// holds for the straight-line code this allows.
bool runsOnEveryPath(const clang::Expr &E, const clang::FunctionDecl &Function,
                     clang::ParentMap &Parents, clang::ASTContext &Context);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_FORWARDDATAFLOW_H
