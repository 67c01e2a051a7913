//===--- KnownCalls.cpp - Library calls the analyses understand -----------===//

#include "Analysis/Core/KnownCalls.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

bool isNoReturnCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  const IdentifierInfo *Name = Callee->getIdentifier();
  return Name && llvm::StringSwitch<bool>(Name->getName())
                     .Cases({"__assert_fail", "__assertfail", "__assert_rtn",
                             "_wassert", "__trap", "abort"},
                            true)
                     .Default(false);
}

MinMaxFunction classifyMinMax(llvm::StringRef Name) {
  return llvm::StringSwitch<MinMaxFunction>(Name)
      .Cases({"min", "umin", "llmin", "ullmin"}, {MinMaxKind::Min, false})
      .Cases({"max", "umax", "llmax", "ullmax"}, {MinMaxKind::Max, false})
      .Cases({"fmin", "fminf", "fminl"}, {MinMaxKind::Min, true})
      .Cases({"fmax", "fmaxf", "fmaxl"}, {MinMaxKind::Max, true})
      .Default({});
}

bool isTextToNumber(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"atoi", "atol", "atoll", "strtol", "strtoll", "strtoul",
              "strtoull", "stoi", "stol", "stoll", "stoul", "stoull"},
             true)
      .Default(false);
}

} // namespace gpuguard
