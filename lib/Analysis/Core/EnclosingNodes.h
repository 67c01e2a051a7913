//===--- EnclosingNodes.h - What encloses a statement -----------*- C++ -*-===//
///
/// \file
/// Walks up the parent map from a statement: to what uses an expression's
/// value past the parentheses and implicit casts that wrap it, and through
/// the blocks that enclose a statement within its function.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_ENCLOSINGNODES_H
#define GPUGUARD_ANALYSIS_CORE_ENCLOSINGNODES_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class CompoundStmt;
class Decl;
class Expr;
class Stmt;
} // namespace clang

namespace gpuguard {

/// What uses the value of an expression.
struct ValueUser {
  /// The statement whose operand the expression is, past parentheses and
  /// implicit casts; null when a declaration uses it or nothing does.
  const clang::Stmt *User = nullptr;
  /// The declaration whose initialiser the expression is, if so.
  const clang::Decl *Declaration = nullptr;
  /// The outermost of the expression and the wrappers around it: the
  /// operand as User or Declaration holds it.
  const clang::Expr *Operand = nullptr;
};

/// What uses \p E's value: `f` of `f((x))`, the `=` of `p = &a[i]`, the
/// variable `p` of `T *p = (&a[i]);`. Empty when \p E has no parent or
/// several (a template's instantiations share none).
ValueUser userOf(const clang::Expr &E, clang::ASTContext &Context);

/// Calls \p Visit with each block that encloses \p S, innermost first, and
/// the statement of that block that holds \p S, up to the body of the
/// function or lambda that \p S is in. Stops at the first call that returns
/// true, and returns true then.
bool anyEnclosingBlock(const clang::Stmt &S, clang::ASTContext &Context,
                       llvm::function_ref<bool(const clang::CompoundStmt &Block,
                                               const clang::Stmt &Holder)>
                           Visit);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_ENCLOSINGNODES_H
