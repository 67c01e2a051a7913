//===--- UnvalidatedDeviceOrdinalCheck.cpp --------------------------------===//
//---===//

#include "cuda/UnvalidatedDeviceOrdinalCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/CudaApi.h"
#include "Analysis/Cuda/DeviceOrdinals.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

namespace {

/// The argument of \p Name that is a device ordinal, or -1.
int ordinalArgument(StringRef Name) {
  return llvm::StringSwitch<int>(Name)
      .Cases({"cudaSetDevice", "cudaInitDevice", "set_device"}, 0)
      .Cases({"cudaGetDeviceProperties", "cuDeviceGet"}, 1)
      .Case("cudaDeviceGetAttribute", 2)
      .Default(-1);
}

std::string describeSource(const OrdinalSource &Source) {
  switch (Source.Kind) {
  case OrdinalSource::Environment:
    return Source.Name.empty()
               ? std::string("the environment")
               : "the environment variable '" + Source.Name + "'";
  case OrdinalSource::CommandLine:
    return "the command line";
  case OrdinalSource::MpiWorldRank:
    return "MPI's world rank";
  }
  return "";
}

} // namespace

void UnvalidatedDeviceOrdinalCheck::registerMatchers(MatchFinder *Finder) {
  auto InUserCode = allOf(unless(isInTemplateInstantiation()),
                          unless(isExpansionInSystemHeader()),
                          hasAncestor(functionDecl().bind("function")));
  Finder->addMatcher(callExpr(InUserCode).bind("call"), this);
  // torch::Device(torch::kCUDA, k) and c10::Device(c10::DeviceType::CUDA, k).
  Finder->addMatcher(
      cxxConstructExpr(InUserCode, argumentCountIs(2),
                       hasDeclaration(cxxConstructorDecl(
                           ofClass(cxxRecordDecl(hasName("::c10::Device"))))))
          .bind("device"),
      this);
}

void UnvalidatedDeviceOrdinalCheck::check(
    const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  const Expr *Ordinal = nullptr;
  std::string Taker;
  // The status of a call that fails on a bad ordinal, read by the caller:
  // a local ordinal past the last GPU is then reported where it is used.
  bool StatusRead = false;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    StringRef Name = canonicalApiName(calleeName(*Call));
    int Index = ordinalArgument(Name);
    if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
      return;
    Ordinal = Call->getArg(Index);
    Taker = calleeName(*Call).str();
    std::vector<StringRef> StatusTypes =
        tidy::utils::options::parseStringList(DefaultStatusTypes);
    StatusRead = isStatusRead(*Call, StatusTypes, Context);
  } else if (const auto *Device =
                 Result.Nodes.getNodeAs<CXXConstructExpr>("device")) {
    Ordinal = Device->getArg(1);
    Taker = "torch::Device";
  }
  if (!Ordinal || isa<CXXDefaultArgExpr>(Ordinal))
    return;
  OrdinalTrace Trace = traceDeviceOrdinal(*Ordinal, *Function);
  if (Trace.Sources.empty() || Trace.CheckedAgainstDeviceCount)
    return;
  std::string Text = quoteSource(Ordinal, Context);
  const OrdinalSource *Global = nullptr;
  for (const OrdinalSource &Source : Trace.Sources)
    if (Source.isGlobalRank())
      Global = &Source;
  const OrdinalSource &Shown = Global ? *Global : Trace.Sources.front();
  bool GlobalRank = Global && !Trace.Remapped;
  // A global rank names a GPU of the first node wherever it runs: a checked
  // failure on the second node is still the bug.
  if (!GlobalRank && StatusRead)
    return;
  if (GlobalRank) {
    diag(Ordinal->getBeginLoc(),
         "device ordinal '%0' is the global rank from %1: on every node "
         "after the first it names a GPU that does not exist; use the local "
         "rank ('LOCAL_RANK', or the rank modulo the GPUs per node)")
        << Text << describeSource(*Global);
  } else {
    diag(Ordinal->getBeginLoc(),
         "device ordinal '%0' comes from %1 and is never compared with the "
         "device count: past the last GPU, '%2' fails with "
         "cudaErrorInvalidDevice")
        << Text << describeSource(Shown) << Taker;
  }
  if (Shown.Where->getBeginLoc() != Ordinal->getBeginLoc())
    diag(Shown.Where->getBeginLoc(), "read here", DiagnosticIDs::Note);
}

} // namespace gpuguard::cuda
