//===--- LossShapeCheck.cpp - torch-loss-shape ---===//

#include "torch/LossShapeCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void LossShapeCheck::registerMatchers(MatchFinder *Finder) {
  // TODO: match the pattern; shared reasoning belongs in lib/Analysis.
}

void LossShapeCheck::check(const MatchFinder::MatchResult &Result) {
  // TODO: diag(Loc, "lower-case message with '%0' arguments") << ...;
}

} // namespace gpuguard::torch
