//===--- CallSites.h - Who calls each function ------------------*- C++ -*-===//
///
/// \file
/// The calls of each function from the function bodies of one translation
/// unit, templates and their instantiations alike. A check that hands a
/// question to a function's callers (was the error this helper left behind
/// read?) asks here who they are; a function with none in sight is called
/// from elsewhere, and the question is theirs.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_CALLSITES_H
#define GPUGUARD_ANALYSIS_CORE_CALLSITES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace gpuguard {

struct CallSite {
  const clang::FunctionDecl *Caller = nullptr;
  const clang::CallExpr *Call = nullptr;
};

class CallSites {
public:
  /// Collects every call with a known callee in \p Context's translation
  /// unit.
  explicit CallSites(clang::ASTContext &Context);

  /// The calls of \p Callee, of its template for an instantiation, in the
  /// order the translation unit has them.
  llvm::ArrayRef<CallSite> callersOf(const clang::FunctionDecl &Callee) const;

  /// Every call collected, in the order the translation unit has them.
  llvm::ArrayRef<CallSite> all() const { return All; }

  /// The key calls are filed under: the written template for an
  /// instantiation, the first declaration otherwise.
  static const clang::FunctionDecl *key(const clang::FunctionDecl &Function);

private:
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CallSite>> Callers;
  std::vector<CallSite> All;
};

/// The function whose body holds \p S: a lambda's call operator for code in a
/// lambda, null outside any function.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt &S,
                                             clang::ASTContext &Context);

/// The function that defines the code of \p S, looking through lambdas:
/// code in `AT_DISPATCH_*`'s lambda runs where the lambda is called, within
/// the function that writes it. \p Holder is set to the statement of that
/// function that holds \p S: the outermost lambda, or \p S itself. Null
/// outside any function.
const clang::FunctionDecl *definingFunction(const clang::Stmt &S,
                                            clang::ASTContext &Context,
                                            const clang::Stmt *&Holder);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_CALLSITES_H
