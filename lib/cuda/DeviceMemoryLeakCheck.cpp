//===--- DeviceMemoryLeakCheck.cpp - cuda-device-memory-leak --------------===//

#include "cuda/DeviceMemoryLeakCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Cuda/DeviceMemoryLifetime.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

void DeviceMemoryLeakCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

static StringRef memoryName(MemoryFamily Family) {
  return Family == MemoryFamily::PinnedHost ? "pinned host memory"
                                            : "device memory";
}

void DeviceMemoryLeakCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  for (const MemoryLifetimeFinding &Finding :
       analyzeDeviceMemoryLifetime(*Function, *Result.Context)) {
    if (!isCudaFamily(Finding.Family))
      continue;
    StringRef Memory = memoryName(Finding.Family);
    switch (Finding.Kind) {
    case MemoryLifetimeFinding::LeakedAtReturn:
      diag(Finding.At, "%0 allocated into %1 by '%2' is leaked when the "
                       "function %select{returns|ends}3 here")
          << Memory << Finding.Holder << Finding.AllocatedBy
          << (Finding.Site == nullptr);
      diag(Finding.Allocation->getBeginLoc(),
           "allocated here; release it with '%0' on this path",
           DiagnosticIDs::Note)
          << releaseFunctionOf(Finding.Family);
      break;
    case MemoryLifetimeFinding::OverwrittenBeforeRelease: {
      bool SameCall = Finding.Site == Finding.Allocation;
      diag(Finding.At, "%0 receives a new allocation %select{|on the next "
                       "iteration }1while it still holds %2 from '%3', "
                       "which is leaked")
          << Finding.Holder << SameCall << Memory << Finding.AllocatedBy;
      if (!SameCall)
        diag(Finding.Allocation->getBeginLoc(),
             "the previous allocation, never released with '%0'",
             DiagnosticIDs::Note)
            << releaseFunctionOf(Finding.Family);
      break;
    }
    case MemoryLifetimeFinding::MismatchedRelease:
      break; // cuda-mismatched-free reports these.
    }
  }
}

} // namespace gpuguard::cuda
