//===--- EnclosingNodes.cpp - What encloses a statement -------------------===//

#include "Analysis/Core/EnclosingNodes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace gpuguard {

ValueUser userOf(const Expr &E, ASTContext &Context) {
  const Expr *Operand = &E;
  // Deep enough for any wrapping that source code writes.
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    DynTypedNodeList Parents = Context.getParents(*Operand);
    if (Parents.size() != 1)
      return {};
    if (const auto *Declaration = Parents[0].get<Decl>())
      return {nullptr, Declaration, Operand};
    const auto *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return {};
    if (!isa<ParenExpr, ImplicitCastExpr>(Parent))
      return {Parent, nullptr, Operand};
    Operand = cast<Expr>(Parent);
  }
  return {};
}

bool anyEnclosingBlock(
    const Stmt &S, ASTContext &Context,
    llvm::function_ref<bool(const CompoundStmt &, const Stmt &)> Visit) {
  DynTypedNode Child = DynTypedNode::create(S);
  // Deep enough for any nesting that source code writes.
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Context.getParents(Child);
    if (Parents.empty())
      return false;
    // The function or lambda whose body holds S; a lambda's body has two
    // parents, the expression and its call operator.
    for (const DynTypedNode &Parent : Parents)
      if (Parent.get<LambdaExpr>() ||
          (Parent.get<Decl>() && !Parent.get<VarDecl>()))
        return false;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>())
      if (const auto *Holder = Child.get<Stmt>();
          Holder && Visit(*Block, *Holder))
        return true;
    Child = Parent;
  }
  return false;
}

} // namespace gpuguard
