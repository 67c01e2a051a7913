//===--- ForwardDataflow.cpp - Forward dataflow over a CFG ----------------===//

#include "Analysis/Core/ForwardDataflow.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace gpuguard {

std::unique_ptr<CFG> buildDataflowCFG(const FunctionDecl &Function,
                                      ASTContext &Context,
                                      DataflowCFGOptions Options) {
  if (!Function.hasBody())
    return nullptr;
  CFG::BuildOptions BuildOptions;
  // Every statement an element, so that a transfer sees each one.
  BuildOptions.setAllAlwaysAdd();
  BuildOptions.AddEHEdges = Options.ExceptionEdges;
  BuildOptions.AddLifetime = Options.LifetimeEnds;
  BuildOptions.AddInitializers = Options.Initializers;
  return CFG::buildCFG(&Function, Function.getBody(), &Context, BuildOptions);
}

bool runsOnEveryPath(const clang::Expr &E, const clang::FunctionDecl &Function,
                     clang::ParentMap &Parents, clang::ASTContext &Context) {
  const clang::Stmt *Body = Function.getBody();
  const clang::Stmt *Child = &E;
  for (const clang::Stmt *Parent = Parents.getParent(Child);
       Parent && Child != Body;
       Child = Parent, Parent = Parents.getParent(Parent)) {
    if (llvm::isa<clang::IfStmt, clang::ForStmt, clang::WhileStmt,
                  clang::DoStmt, clang::CXXForRangeStmt, clang::SwitchStmt,
                  clang::SwitchCase, clang::AbstractConditionalOperator,
                  clang::LambdaExpr, clang::CXXTryStmt, clang::CXXCatchStmt,
                  clang::StmtExpr>(Parent))
      return false;
    if (const auto *Logical = llvm::dyn_cast<clang::BinaryOperator>(Parent);
        Logical && Logical->isLogicalOp() && Logical->getRHS() == Child)
      return false;
  }
  // A return, throw or jump written before it (not the return holding it)
  // may skip it.
  const clang::SourceManager &SM = Context.getSourceManager();
  llvm::SmallVector<const clang::Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const clang::Stmt *S = Work.pop_back_val();
    if (!S || llvm::isa<clang::LambdaExpr>(S))
      continue;
    if (llvm::isa<clang::ReturnStmt, clang::CXXThrowExpr, clang::GotoStmt,
                  clang::BreakStmt, clang::ContinueStmt>(S) &&
        SM.isBeforeInTranslationUnit(S->getEndLoc(), E.getBeginLoc()))
      return false;
    llvm::append_range(Work, S->children());
  }
  return true;
}

} // namespace gpuguard
