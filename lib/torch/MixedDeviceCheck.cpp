//===--- MixedDeviceCheck.cpp - torch-mixed-device ---===//

#include "torch/MixedDeviceCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void MixedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  // TODO: match the pattern; shared reasoning belongs in lib/Analysis.
}

void MixedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  // TODO: diag(Loc, "lower-case message with '%0' arguments") << ...;
}

} // namespace gpuguard::torch
