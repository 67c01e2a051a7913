//===--- ExtensionLaunches.cpp - Kernels launched on tensor data ----------===//

#include "Analysis/Torch/ExtensionLaunches.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Torch/TorchApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace gpuguard::torch {

namespace {

bool isTensorMemoryAccessor(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"data_ptr", "data", "mutable_data_ptr", "const_data_ptr",
              "packed_accessor32", "packed_accessor64",
              "generic_packed_accessor", "packed_accessor"},
             true)
      .Default(false);
}

/// The expression an argument passes, through casts, temporaries and
/// copies (an accessor copied into the kernel's parameter).
const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = ignoreTensorWrappers(E);
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast)
      return E;
    E = Cast->getSubExpr();
  }
}

/// Finds guards and device switches in a body.
class GuardFinder : public RecursiveASTVisitor<GuardFinder> {
public:
  GuardFinder(const SourceManager &Sources, SourceLocation Before)
      : Sources(Sources), Before(Before) {}

  bool VisitVarDecl(VarDecl *Var) {
    if (isDeviceGuardType(Var->getType()) && isBefore(Var->getBeginLoc()))
      Found = true;
    return !Found;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || !isBefore(Call->getBeginLoc()))
      return true;
    StringRef Name = Callee->getName();
    // c10::cuda's device switches: set_device, and PyTorch 2's
    // MaybeSetDevice and ExchangeDevice (c10/cuda/CUDAFunctions.h).
    bool LibTorchSwitch =
        llvm::is_contained({"set_device", "SetDevice", "MaybeSetDevice",
                            "ExchangeDevice", "MaybeExchangeDevice"},
                           Name) &&
        isLibTorchDecl(Callee);
    if (Name == "cudaSetDevice" || LibTorchSwitch)
      Found = true;
    return !Found;
  }

  bool Found = false;

private:
  bool isBefore(SourceLocation Loc) const {
    return Sources.isBeforeInTranslationUnit(Sources.getExpansionLoc(Loc),
                                             Sources.getExpansionLoc(Before));
  }

  const SourceManager &Sources;
  SourceLocation Before;
};

} // namespace

bool isDeviceGuardType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier())
    return false;
  bool Guard = StringSwitch<bool>(Record->getName())
                   .Cases({"CUDAGuard", "OptionalCUDAGuard", "DeviceGuard",
                           "OptionalDeviceGuard", "CUDAStreamGuard",
                           "OptionalCUDAStreamGuard", "CUDAMultiStreamGuard",
                           "StreamGuard", "OptionalStreamGuard"},
                          true)
                   .Default(false);
  return Guard && isLibTorchDecl(Record);
}

SmallVector<const CXXMemberCallExpr *, 4>
tensorMemoryArguments(const CUDAKernelCallExpr &Launch) {
  SmallVector<const CXXMemberCallExpr *, 4> Accessors;
  for (const Expr *Arg : Launch.arguments()) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(stripCasts(Arg));
    if (!Call)
      continue;
    const CXXMethodDecl *Method = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    if (Method && Method->getIdentifier() &&
        isTensorMemoryAccessor(Method->getName()) && Object &&
        isTensorType(Object->getType()))
      Accessors.push_back(Call);
  }
  return Accessors;
}

bool isRawPointerAccessor(const CXXMemberCallExpr &Accessor) {
  const CXXMethodDecl *Method = Accessor.getMethodDecl();
  return Method && Method->getIdentifier() &&
         !Method->getName().contains("accessor");
}

bool hasDeviceGuardBefore(const FunctionDecl &Function, const Stmt &Before,
                          const ASTContext &Context) {
  if (!Function.getBody())
    return false;
  GuardFinder Finder(Context.getSourceManager(), Before.getBeginLoc());
  Finder.TraverseStmt(Function.getBody());
  return Finder.Found;
}

bool launchesOnDefaultStream(const CUDAKernelCallExpr &Launch) {
  const CallExpr *Config = Launch.getConfig();
  if (!Config || Config->getNumArgs() < 4)
    return false;
  const Expr *Stream = Config->getArg(3);
  if (isa<CXXDefaultArgExpr>(Stream))
    return true;
  Stream = Stream->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Stream))
    Stream = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr>(Stream) || isa<GNUNullExpr>(Stream))
    return true;
  if (const auto *Literal = dyn_cast<IntegerLiteral>(Stream))
    return Literal->getValue() == 0;
  return false;
}

std::string launchedKernelName(const CUDAKernelCallExpr &Launch,
                               const ASTContext &Context) {
  if (const FunctionDecl *Kernel = Launch.getDirectCallee();
      Kernel && Kernel->getIdentifier())
    return Kernel->getName().str();
  if (const auto *Lookup =
          dyn_cast<OverloadExpr>(Launch.getCallee()->IgnoreParenImpCasts()))
    if (const IdentifierInfo *Name = Lookup->getName().getAsIdentifierInfo())
      return Name->getName().str();
  return quoteSource(Launch.getCallee(), Context);
}

} // namespace gpuguard::torch
