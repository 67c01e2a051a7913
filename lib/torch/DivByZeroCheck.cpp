//===--- DivByZeroCheck.cpp - torch-div-by-zero ---===//

#include "torch/DivByZeroCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void DivByZeroCheck::registerMatchers(MatchFinder *Finder) {
  // TODO: match the pattern; shared reasoning belongs in lib/Analysis.
}

void DivByZeroCheck::check(const MatchFinder::MatchResult &Result) {
  // TODO: diag(Loc, "lower-case message with '%0' arguments") << ...;
}

} // namespace gpuguard::torch
