//===--- UncheckedKernelInputCheck.cpp - torch-unchecked-kernel-input -----===//

#include "torch/UncheckedKernelInputCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/ExtensionLaunches.h"
#include "Analysis/Torch/KernelInputContracts.h"
#include "Instrument/Recorder.h"
#include "Instrument/SiteSupport.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

namespace {

std::string entryName(const FunctionDecl &Entry) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Entry);
      Method && Method->getParent()->isLambda())
    return "the lambda";
  return "'" + Entry.getNameAsString() + "'";
}

/// In `gpuguard instrument`: checks at run time, right as the kernel is
/// launched, that the tensor \p Accessor reads is a CUDA tensor on the
/// current device and, when the kernel indexes it flat, contiguous. For a
/// finding (\p Flagged valid) or, with --instrument=all, for every tensor a
/// kernel receives.
void instrumentKernelInput(const CXXMemberCallExpr &Accessor,
                           const CUDAKernelCallExpr &Launch,
                           SourceLocation Flagged, StringRef Check,
                           ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || (Flagged.isInvalid() && !R->instrumentsUnflagged()))
    return;
  const Expr *Object = instrument::wrappableAccessorObject(Accessor);
  if (!Object || !instrument::isRuntimeCallableCudaHostCode(Launch, Context))
    return;
  if (instrument::involvesMacro(Accessor)) {
    R->skipSite(Context, Accessor.getExprLoc());
    return;
  }
  instrument::SiteKind Kind = kernelIndexesFlat(Accessor, Launch, Context)
                                  ? instrument::SiteKind::TorchKernelInputFlat
                                  : instrument::SiteKind::TorchKernelInput;
  std::string Tensor = quoteSource(Object, Context);
  int Id = R->addSite(Context, Accessor.getExprLoc(), Kind, Check, Tensor,
                      enclosingFunction(Launch, Context), Flagged);
  if (Id >= 0)
    R->wrapTorchOperand(Context, Id, Object, 0, 1);
}

} // namespace

UncheckedKernelInputCheck::UncheckedKernelInputCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {}

UncheckedKernelInputCheck::~UncheckedKernelInputCheck() = default;

void UncheckedKernelInputCheck::onStartOfTranslationUnit() {
  Calls.reset();
  Bindings.reset();
}

void UncheckedKernelInputCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cudaKernelCallExpr(unless(isInTemplateInstantiation()),
                                        unless(isExpansionInSystemHeader()))
                         .bind("launch"),
                     this);
}

void UncheckedKernelInputCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  ASTContext &Context = *Result.Context;
  auto Accessors = tensorMemoryArguments(*Launch);
  if (Accessors.empty())
    return;
  // Both are read from the whole translation unit, once, and only for one
  // that launches kernels on tensors.
  if (!Calls)
    Calls = std::make_unique<CallSites>(Context);
  if (!Bindings)
    Bindings = std::make_unique<ExtensionBindings>(Context);

  llvm::SmallPtrSet<const ParmVarDecl *, 4> Reported;
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  for (const CXXMemberCallExpr *Accessor : Accessors) {
    std::optional<UncheckedKernelInput> Gap = findUncheckedKernelInput(
        *Accessor, *Launch, *Calls, *Bindings, Context);
    if (!Gap || !Reported.insert(Gap->Tensor).second) {
      instrumentKernelInput(*Accessor, *Launch, SourceLocation(), getID(),
                            Context);
      continue;
    }
    StringRef Missing = Gap->NeedsDeviceCheck && Gap->NeedsLayoutCheck
                            ? "a contiguous CUDA tensor"
                        : Gap->NeedsDeviceCheck ? "a CUDA tensor"
                                                : "contiguous";
    StringRef Consequence =
        Gap->NeedsDeviceCheck && Gap->NeedsLayoutCheck
            ? "a CPU tensor's memory faults on the GPU and a transposed or "
              "sliced one is read out of order"
        : Gap->NeedsDeviceCheck
            ? "a CPU tensor's memory faults on the GPU"
            : "a transposed or sliced tensor is read out of order";
    diag(Accessor->getExprLoc(),
         "'%0' reaches kernel '%1' with no check that it is %2: %3")
        << Gap->Tensor->getName() << (Kernel ? Kernel->getName() : "")
        << Missing << Consequence;
    std::string Condition =
        Gap->NeedsDeviceCheck && Gap->NeedsLayoutCheck
            ? (Gap->EntryParameter->getName() + ".is_cuda() && " +
               Gap->EntryParameter->getName() + ".is_contiguous()")
                  .str()
        : Gap->NeedsDeviceCheck
            ? (Gap->EntryParameter->getName() + ".is_cuda()").str()
            : (Gap->EntryParameter->getName() + ".is_contiguous()").str();
    diag(Gap->Registration->getBeginLoc(),
         "%0 is registered here, and its callers may pass any tensor as "
         "'%1': check it first, e.g. 'TORCH_CHECK(%2, \"%1 must be %3\")'",
         DiagnosticIDs::Note)
        << entryName(*Gap->Entry) << Gap->EntryParameter->getName() << Condition
        << Missing;
    instrumentKernelInput(*Accessor, *Launch, Accessor->getExprLoc(), getID(),
                          Context);
  }
}

} // namespace gpuguard::torch
