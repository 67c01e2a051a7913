//===--- MixedDeviceCheck.cpp - torch-mixed-device ------------------------===//

#include "torch/MixedDeviceCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/DeviceInference.h"
#include "Analysis/Torch/TorchApi.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::torch {

void MixedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

namespace {
struct Operand {
  const Expr *E;
  DeviceInfo Info;
};

/// In `gpuguard instrument`: checks at run time that the operands of the op
/// at \p At are on one device, for a finding (\p Flagged valid) or, with
/// --instrument=all, for any op whose devices are not all known to agree.
void instrumentOperands(llvm::ArrayRef<Operand> Operands, const Expr *Module,
                        SourceLocation At, SourceLocation Flagged,
                        StringRef OpName, StringRef Check,
                        const FunctionDecl *Function, ASTContext &Context) {
  instrument::Recorder *R = instrument::Recorder::active();
  unsigned Count = Operands.size() + (Module ? 1 : 0);
  if (!R || Count < 2)
    return;
  if (Flagged.isInvalid()) {
    if (!R->instrumentsUnflagged())
      return;
    // Operands on one known device are safe. When no device is known at
    // all, they most likely come from one place (`x / x.sum()`, a model and
    // its batch) and checking every op would only add overhead: the checked
    // ops are those mixing a known device with an unknown or different one.
    bool AnyKnown = llvm::any_of(
        Operands, [](const Operand &O) { return O.Info.Dev.has_value(); });
    bool AllKnownAlike =
        !Module && llvm::all_of(Operands, [&](const Operand &O) {
          return O.Info.Dev && Operands.front().Info.Dev &&
                 *O.Info.Dev == *Operands.front().Info.Dev;
        });
    if (AllKnownAlike || !AnyKnown)
      return;
  }
  int Id = R->addSite(Context, At, instrument::SiteKind::TorchSameDevice, Check,
                      OpName, Function, Flagged);
  unsigned Index = 0;
  if (Module)
    R->wrapTorchOperand(Context, Id, Module, Index++, Count);
  for (const Operand &O : Operands)
    R->wrapTorchOperand(Context, Id, O.E, Index++, Count);
}
} // namespace

void MixedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  DeviceInference Inference(*Function, Context);
  llvm::SmallPtrSet<const Stmt *, 16> Seen;

  Inference.forEachReachable([&](const Stmt *S, const DeviceFacts &Facts) {
    const auto *E = dyn_cast<Expr>(S);
    if (!E || !Seen.insert(E).second)
      return;
    auto NoteOrigin = [&](const Operand &O, const Expr *Call) {
      SourceLocation Origin = O.Info.Origin;
      if (Origin.isInvalid() ||
          Context.getSourceManager().isPointWithin(Origin, Call->getBeginLoc(),
                                                   Call->getEndLoc()))
        return;
      diag(Origin, "'%0' is placed on %1 here", DiagnosticIDs::Note)
          << quoteSource(O.E, Context) << O.Info.Dev->str();
    };

    // A function of this file that puts an argument beside a tensor on a
    // device of its own, called with that argument on another device.
    if (const auto *Call = dyn_cast<CallExpr>(E))
      reportMeetings(*Call, Inference, Facts, Context);

    // A module called with an input on another device than its parameters.
    const Expr *Module = nullptr;
    llvm::ArrayRef<const Expr *> Inputs;
    if (std::optional<ForwardCall> Call = getForwardCall(E)) {
      Module = moduleOperand(Call->Object);
      Inputs = Call->Args;
    }
    llvm::SmallVector<Operand, 4> Operands;
    std::string OpName;
    // The module's parameters, unless it has none: then only the inputs
    // need to agree.
    const Expr *ModuleOperand = Module;
    auto Instrument = [&](SourceLocation Flagged) {
      instrumentOperands(Operands, ModuleOperand,
                         Module ? E->getBeginLoc() : E->getExprLoc(), Flagged,
                         Module ? quoteSource(Module, Context) : OpName,
                         getID(), Function, Context);
    };
    if (Module) {
      Operand Self{Module, Inference.deviceOf(Module, Facts)};
      for (const Expr *Input : Inputs)
        if (isTensorType(Input->getType()))
          Operands.push_back({Input, Inference.deviceOf(Input, Facts)});
      if (Self.Info.Dev && !Self.Info.NoParameters)
        for (const Operand &Input : Operands)
          if (Input.Info.Dev && !Input.Info.isCpuScalar() &&
              provablyDifferent(*Input.Info.Dev, *Self.Info.Dev)) {
            diag(E->getBeginLoc(), "'%0' is on %1 and the parameters of '%2' "
                                   "are on %3 in one call of '%2'")
                << quoteSource(Input.E, Context) << Input.Info.Dev->str()
                << quoteSource(Module, Context) << Self.Info.Dev->str()
                << E->getSourceRange();
            NoteOrigin(Input, E);
            NoteOrigin(Self, E);
            Instrument(E->getBeginLoc());
            return;
          }
      // A built-in loss or another module without parameters still needs
      // its inputs on one device.
      if (!Self.Info.NoParameters ||
          !isLibTorchDecl(moduleClass(Module->getType()))) {
        if (!Self.Info.NoParameters)
          Instrument(SourceLocation());
        return;
      }
      OpName = quoteSource(Module, Context);
      ModuleOperand = nullptr;
    } else {
      std::optional<TensorCall> Call = getTensorCall(E);
      // The call itself, not a temporary or copy made of its result.
      if (!Call || Call->Call != E || acceptsOtherDevices(Call->Name))
        return;
      OpName = Call->Name;
      for (const Expr *Operand : sameDeviceOperands(*Call))
        Operands.push_back({Operand, Inference.deviceOf(Operand, Facts)});
    }

    // The first pair of operands on provably different devices; 0-dim CPU
    // tensors go with any device.
    for (size_t I = 0; I < Operands.size(); ++I) {
      const Operand &A = Operands[I];
      if (!A.Info.Dev || A.Info.isCpuScalar())
        continue;
      for (size_t J = I + 1; J < Operands.size(); ++J) {
        const Operand &B = Operands[J];
        if (!B.Info.Dev || B.Info.isCpuScalar() ||
            !provablyDifferent(*A.Info.Dev, *B.Info.Dev))
          continue;
        diag(Module ? E->getBeginLoc() : E->getExprLoc(),
             Module ? "'%0' is on %1 and '%2' is on %3 in one call of '%4'"
                    : "'%0' is on %1 and '%2' is on %3 in one '%4'")
            << quoteSource(A.E, Context) << A.Info.Dev->str()
            << quoteSource(B.E, Context) << B.Info.Dev->str() << OpName
            << A.E->getSourceRange() << B.E->getSourceRange();
        NoteOrigin(A, E);
        NoteOrigin(B, E);
        Instrument(Module ? E->getBeginLoc() : E->getExprLoc());
        return;
      }
    }
    Instrument(SourceLocation());
  });
}

void MixedDeviceCheck::reportMeetings(const CallExpr &Call,
                                      const DeviceInference &Inference,
                                      const DeviceFacts &Facts,
                                      ASTContext &Context) {
  for (const ParameterMeeting &Meeting : Inference.meetingsOf(Call)) {
    const Expr *Argument = Meeting.Argument;
    DeviceInfo Passed = Inference.deviceOf(Argument, Facts);
    if (!Passed.Dev || Passed.isCpuScalar() ||
        !provablyDifferent(*Passed.Dev, *Meeting.Fixed.Dev))
      continue;
    // Reported at the op, where PyTorch throws and the runtime check sits,
    // once per call that passes another device.
    std::string Helper = Meeting.Function->getNameAsString();
    std::string Parameter = quoteSource(Meeting.ParameterOperand, Context);
    std::string Fixed = quoteSource(Meeting.FixedOperand, Context);
    std::string PassedDevice = Passed.Dev->str();
    std::string FixedDevice = Meeting.Fixed.Dev->str();
    diag(Meeting.Op->getExprLoc(),
         "'%0' is on %1 and '%2' is on %3 in one '%4' when '%5' is called "
         "with '%6' on %7")
        << (Meeting.ParameterFirst ? Parameter : Fixed)
        << (Meeting.ParameterFirst ? PassedDevice : FixedDevice)
        << (Meeting.ParameterFirst ? Fixed : Parameter)
        << (Meeting.ParameterFirst ? FixedDevice : PassedDevice)
        << Meeting.OpName << Helper << quoteSource(Argument, Context)
        << PassedDevice << Meeting.Op->getSourceRange();
    // `model(x)` begins at the module, not at its parenthesis.
    SourceLocation CallAt = Call.getBeginLoc();
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(&Call);
        Operator && Operator->getOperator() == OO_Call)
      CallAt = Operator->getArg(0)->getBeginLoc();
    diag(CallAt, "'%0' is called here", DiagnosticIDs::Note)
        << Helper << Call.getSourceRange();
    // Down to the function that runs the op, each call that passes the
    // argument on.
    const FunctionDecl *Caller = Meeting.Function;
    for (const ParameterMeeting::PassedOn &Hop : Meeting.Through) {
      diag(Hop.Call->getBeginLoc(), "'%0' calls '%1' with it here",
           DiagnosticIDs::Note)
          << Caller->getNameAsString() << Hop.Callee->getNameAsString()
          << Hop.Call->getSourceRange();
      Caller = Hop.Callee;
    }
    if (Passed.Origin.isValid())
      diag(Passed.Origin, "'%0' is placed on %1 here", DiagnosticIDs::Note)
          << quoteSource(Argument, Context) << PassedDevice;
    if (Meeting.Fixed.Origin.isValid())
      diag(Meeting.Fixed.Origin, "'%0' is placed on %1 here",
           DiagnosticIDs::Note)
          << Fixed << FixedDevice;
    if (std::optional<TensorCall> Op = getTensorCall(Meeting.Op)) {
      llvm::SmallVector<Operand, 4> Operands;
      for (const Expr *E : sameDeviceOperands(*Op))
        Operands.push_back({E, DeviceInfo()});
      instrumentOperands(Operands, /*Module=*/nullptr, Meeting.Op->getExprLoc(),
                         Meeting.Op->getExprLoc(), Meeting.OpName, getID(),
                         Meeting.opFunction(), Context);
    }
  }
}

} // namespace gpuguard::torch
