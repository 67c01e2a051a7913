//===--- CallSites.cpp - Who calls each function in a translation unit ----===//

#include "Analysis/Core/CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace gpuguard {

namespace {

class CallCollector : public DynamicRecursiveASTVisitor {
public:
  CallCollector(
      llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> &Callers,
      std::vector<CallSite> &All)
      : Callers(Callers), All(All) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool TraverseFunctionDecl(FunctionDecl *Function) override {
    return within(Function, [&] {
      return DynamicRecursiveASTVisitor::TraverseFunctionDecl(Function);
    });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *Method) override {
    return within(Method, [&] {
      return DynamicRecursiveASTVisitor::TraverseCXXMethodDecl(Method);
    });
  }

  bool VisitCallExpr(CallExpr *Call) override {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Current)
      return true;
    std::vector<CallSite> &Sites = Callers[CallSites::key(*Callee)];
    if (Sites.empty() || Sites.back().Call != Call) {
      Sites.push_back({Current, Call});
      All.push_back({Current, Call});
    }
    return true;
  }

private:
  /// Runs \p Traverse with \p Function as the caller of the calls it finds.
  bool within(const FunctionDecl *Function,
              llvm::function_ref<bool()> Traverse) {
    const FunctionDecl *Saved = Current;
    Current = Function;
    bool Result = Traverse();
    Current = Saved;
    return Result;
  }

  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> &Callers;
  std::vector<CallSite> &All;
  const FunctionDecl *Current = nullptr;
};

} // namespace

const FunctionDecl *CallSites::key(const FunctionDecl &Function) {
  const FunctionDecl *Key = &Function;
  if (const FunctionDecl *Pattern = Function.getTemplateInstantiationPattern())
    Key = Pattern;
  return Key->getCanonicalDecl();
}

CallSites::CallSites(ASTContext &Context) {
  CallCollector Collector(Callers, All);
  Collector.TraverseAST(Context);
}

llvm::ArrayRef<CallSite>
CallSites::callersOf(const FunctionDecl &Callee) const {
  auto It = Callers.find(key(Callee));
  if (It == Callers.end())
    return {};
  return It->second;
}

/// The function above \p S, at the first lambda or, \p ThroughLambdas,
/// past every lambda, whose outermost expression is then \p Holder.
static const FunctionDecl *functionAbove(const Stmt &S, ASTContext &Context,
                                         bool ThroughLambdas,
                                         const Stmt *&Holder) {
  Holder = &S;
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Context.getParents(Node);
    if (Parents.empty())
      return nullptr;
    // A lambda's body has two parents, the expression and its call
    // operator; the expression leads on to the function that writes it.
    Node = Parents[0];
    for (const DynTypedNode &Parent : Parents)
      if (Parent.get<LambdaExpr>())
        Node = Parent;
    if (const auto *Lambda = Node.get<LambdaExpr>()) {
      if (!ThroughLambdas)
        return Lambda->getCallOperator();
      Holder = Lambda;
      continue;
    }
    if (const auto *Function = Node.get<FunctionDecl>()) {
      // Where the parent map reaches a lambda's body through its call
      // operator alone, the expression is above the operator's class.
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
          ThroughLambdas && Method && Method->getParent()->isLambda()) {
        Node = DynTypedNode::create(*Method->getParent());
        continue;
      }
      return Function;
    }
    if (Node.get<BlockDecl>())
      return nullptr;
  }
}

const FunctionDecl *enclosingFunction(const Stmt &S, ASTContext &Context) {
  const Stmt *Holder = nullptr;
  return functionAbove(S, Context, /*ThroughLambdas=*/false, Holder);
}

const FunctionDecl *definingFunction(const Stmt &S, ASTContext &Context,
                                     const Stmt *&Holder) {
  return functionAbove(S, Context, /*ThroughLambdas=*/true, Holder);
}

} // namespace gpuguard
