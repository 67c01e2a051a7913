//===--- MismatchedFreeCheck.cpp - cuda-mismatched-free -------------------===//

#include "cuda/MismatchedFreeCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Cuda/DeviceMemoryLifetime.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

void MismatchedFreeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

static StringRef memoryName(MemoryFamily Family) {
  switch (Family) {
  case MemoryFamily::Device:
    return "device memory";
  case MemoryFamily::PinnedHost:
    return "pinned host memory";
  case MemoryFamily::Array:
  case MemoryFamily::MipmappedArray:
    return "a CUDA array";
  case MemoryFamily::HostHeap:
  case MemoryFamily::NewArray:
  case MemoryFamily::NewObject:
    return "host heap memory";
  }
  return "";
}

/// The releases that take the pointer as their only argument, so that
/// renaming the callee is the whole fix.
static bool takesOnlyThePointer(MemoryFamily Family) {
  return Family != MemoryFamily::NewArray && Family != MemoryFamily::NewObject;
}

void MismatchedFreeCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  for (const MemoryLifetimeFinding &Finding :
       analyzeDeviceMemoryLifetime(*Function, *Result.Context)) {
    if (Finding.Kind != MemoryLifetimeFinding::MismatchedRelease)
      continue;
    StringRef Expected = releaseFunctionOf(Finding.Family);
    {
      auto Diagnostic =
          diag(Finding.At, "%0 holds %1 from '%2', which '%3' does not "
                           "release; use '%4'")
          << Finding.Holder << memoryName(Finding.Family) << Finding.AllocatedBy
          << Finding.ReleasedBy << Expected;
      const auto *Call = dyn_cast<CallExpr>(Finding.Site);
      if (Call && Call->getNumArgs() == 1 &&
          takesOnlyThePointer(Finding.Family) &&
          takesOnlyThePointer(Finding.ReleasedFamily)) {
        SourceLocation Callee = Call->getCallee()->getBeginLoc();
        if (Callee.isFileID())
          Diagnostic << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(
                  Call->getCallee()->getSourceRange()),
              Expected);
      }
    } // The warning is emitted here, before its note.
    diag(Finding.Allocation->getBeginLoc(), "allocated here",
         DiagnosticIDs::Note);
  }
}

} // namespace gpuguard::cuda
