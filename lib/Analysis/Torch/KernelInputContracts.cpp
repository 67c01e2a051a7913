//===--- KernelInputContracts.cpp - Tensors a kernel takes unchecked ------===//

#include "Analysis/Torch/KernelInputContracts.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Torch/ExtensionLaunches.h"
#include "Analysis/Torch/TorchApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace gpuguard::torch {

namespace {

/// pybind11's module (`module_`, formerly `module`) and class, and
/// torch::Library and the older torch::RegisterOperators.
bool isRegistrar(const CXXRecordDecl *Record) {
  if (!Record || !Record->getIdentifier())
    return false;
  return StringSwitch<bool>(Record->getName())
      .Cases({"module_", "module", "class_", "Library", "RegisterOperators"},
             true)
      .Default(false);
}

/// The dispatch key a `TORCH_LIBRARY_IMPL(ns, Key, m)` block registers
/// for, read from the name of the function the macro defines:
/// `TORCH_LIBRARY_IMPL_init_<ns>_<Key>_<counter>`.
StringRef dispatchKeyOf(const FunctionDecl *Block) {
  if (!Block || !Block->getIdentifier())
    return "";
  StringRef Name = Block->getName();
  if (!Name.consume_front("TORCH_LIBRARY_IMPL_init_"))
    return "";
  Name = Name.rtrim("0123456789");
  if (!Name.consume_back("_"))
    return "";
  return Name.rsplit('_').second;
}

/// Collects the functions an argument of a registering call hands over.
void collectRegistered(const Stmt *S,
                       SmallVectorImpl<const FunctionDecl *> &Functions) {
  if (!S)
    return;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    Functions.push_back(Lambda->getCallOperator());
    return; // The lambda's body calls functions; it does not register them.
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl()))
      Functions.push_back(Function);
  // TORCH_FN(f): the function is a template argument of the pointer type.
  if (const auto *E = dyn_cast<Expr>(S))
    if (const auto *Specialization =
            dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                E->getType()->getAsCXXRecordDecl()))
      for (const TemplateArgument &Argument :
           Specialization->getTemplateArgs().asArray())
        if (Argument.getKind() == TemplateArgument::Declaration)
          if (const auto *Function =
                  dyn_cast<FunctionDecl>(Argument.getAsDecl()))
            Functions.push_back(Function);
  for (const Stmt *Child : S->children())
    collectRegistered(Child, Functions);
}

class RegistrationFinder : public DynamicRecursiveASTVisitor {
public:
  explicit RegistrationFinder(
      DenseMap<const FunctionDecl *, ExtensionBinding> &Bindings)
      : Bindings(Bindings) {}

  bool TraverseFunctionDecl(FunctionDecl *Function) override {
    const FunctionDecl *Saved = Current;
    Current = Function;
    bool Result = DynamicRecursiveASTVisitor::TraverseFunctionDecl(Function);
    Current = Saved;
    return Result;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) override {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier() ||
        !isRegistrar(Method->getParent()))
      return true;
    StringRef Name = Method->getName();
    if (Name != "def" && Name != "impl" && Name != "op" && Name != "def_static")
      return true;
    SmallVector<const FunctionDecl *, 2> Functions;
    for (const Expr *Argument : Call->arguments())
      collectRegistered(Argument, Functions);
    bool Cuda = dispatchKeyOf(Current) == "CUDA";
    for (const FunctionDecl *Function : Functions)
      Bindings.try_emplace(Function->getCanonicalDecl(),
                           ExtensionBinding{Call, Cuda});
    return true;
  }

private:
  DenseMap<const FunctionDecl *, ExtensionBinding> &Bindings;
  const FunctionDecl *Current = nullptr;
};

bool isDeviceQuery(StringRef Method) {
  return StringSwitch<bool>(Method)
      .Cases({"is_cuda", "is_cpu", "is_meta", "device", "get_device",
              "device_type", "type", "options", "is_same_device"},
             true)
      .Default(false);
}

bool isLayoutQuery(StringRef Method) {
  return StringSwitch<bool>(Method)
      .Cases({"is_contiguous", "contiguous", "stride", "strides",
              "suggest_memory_format", "is_non_overlapping_and_dense",
              "expect_contiguous"},
             true)
      .Default(false);
}

/// Reads what a body does with one tensor parameter before a point.
class TensorUseFinder : public DynamicRecursiveASTVisitor {
public:
  TensorUseFinder(const ParmVarDecl &Tensor, const SourceManager &Sources,
                  SourceLocation Before)
      : Tensor(Tensor), Sources(Sources), Before(Sources.getFileLoc(Before)) {}

  bool VisitCallExpr(CallExpr *Call) override {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      if (namesTensor(Member->getImplicitObjectArgument()) &&
          isEarlier(Member->getImplicitObjectArgument()))
        recordMethod(Member->getMethodDecl());
    } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (Operator->isAssignmentOp() && Operator->getNumArgs() > 0 &&
          namesTensor(Operator->getArg(0)) && isEarlier(Operator->getArg(0)))
        Checks.Opaque = true;
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (const Expr *Argument : Call->arguments()) {
      if (!namesTensor(Argument) || !isEarlier(Argument))
        continue;
      if (!Callee || !isLibTorchDecl(Callee)) {
        Checks.Opaque = true; // The project's own code may validate it.
      } else if (Callee->getIdentifier() && Callee->getName() == "device_of") {
        Checks.Device = true; // The argument of a device guard.
      } else if (Callee->getIdentifier() &&
                 Callee->getName().starts_with("check")) {
        Checks.Device = Checks.Layout = true; // at::checkContiguous & co.
      }
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) override {
    if (isTensorType(Construct->getType()))
      return true; // A copy names the same tensor.
    for (const Expr *Argument : Construct->arguments())
      if (namesTensor(Argument) && isEarlier(Argument)) {
        // A device guard on it, or a TensorArg for ATen's check* helpers.
        if (isDeviceGuardType(Construct->getType()))
          Checks.Device = true;
        else
          Checks.Opaque = true;
      }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *Assignment) override {
    if (Assignment->isAssignmentOp() && namesTensor(Assignment->getLHS()) &&
        isEarlier(Assignment->getLHS()))
      Checks.Opaque = true;
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *AddressOf) override {
    if (AddressOf->getOpcode() == UO_AddrOf &&
        namesTensor(AddressOf->getSubExpr()) &&
        isEarlier(AddressOf->getSubExpr()))
      Checks.Opaque = true;
    return true;
  }

  TensorChecks Checks;

private:
  bool namesTensor(const Expr *E) const {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(ignoreTensorWrappers(E));
    return Ref && Ref->getDecl() == &Tensor;
  }

  bool isEarlier(const Expr *Use) const {
    return Sources.isBeforeInTranslationUnit(
        Sources.getFileLoc(Use->getBeginLoc()), Before);
  }

  void recordMethod(const CXXMethodDecl *Method) {
    if (!Method || !Method->getIdentifier())
      return;
    StringRef Name = Method->getName();
    if (isDeviceQuery(Name))
      Checks.Device = true;
    else if (isLayoutQuery(Name))
      Checks.Layout = true;
    else if (!isLibTorchDecl(Method))
      Checks.Opaque = true;
  }

  const ParmVarDecl &Tensor;
  const SourceManager &Sources;
  SourceLocation Before;
};

/// The tensor parameter \p E names, and whether it is made contiguous on
/// the way (`x.contiguous()`).
const ParmVarDecl *tensorParameter(const Expr *E, bool &MadeContiguous) {
  E = ignoreTensorWrappers(E);
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier() ||
        Method->getName() != "contiguous" || !isLibTorchDecl(Method))
      return nullptr;
    MadeContiguous = true;
    E = ignoreTensorWrappers(Call->getImplicitObjectArgument());
  }
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *Parameter = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Parameter || !isTensorType(Parameter->getType()))
    return nullptr;
  return Parameter;
}

const FunctionDecl *ownerOf(const ParmVarDecl &Parameter) {
  return dyn_cast<FunctionDecl>(Parameter.getDeclContext());
}

} // namespace

ExtensionBindings::ExtensionBindings(ASTContext &Context) {
  RegistrationFinder Finder(Bindings);
  Finder.TraverseAST(Context);
}

const ExtensionBinding *
ExtensionBindings::find(const FunctionDecl &Function) const {
  auto It = Bindings.find(Function.getCanonicalDecl());
  return It == Bindings.end() ? nullptr : &It->second;
}

TensorChecks checksBefore(const FunctionDecl &Function,
                          const ParmVarDecl &Tensor, const Stmt &Before,
                          const ASTContext &Context) {
  if (!Function.getBody())
    return {};
  TensorUseFinder Finder(Tensor, Context.getSourceManager(),
                         Before.getBeginLoc());
  Finder.TraverseStmt(Function.getBody());
  return Finder.Checks;
}

bool kernelIndexesFlat(const CXXMemberCallExpr &Accessor,
                       const CUDAKernelCallExpr &Launch,
                       const ASTContext &Context) {
  if (!isRawPointerAccessor(Accessor))
    return false;
  const Expr *Object =
      ignoreTensorWrappers(Accessor.getImplicitObjectArgument());
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Object)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && isLayoutQuery(Method->getName()))
      return false;
  }
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Object);
  const auto *Variable = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Variable)
    return true;
  // A kernel that also receives the tensor's strides indexes with them.
  TensorUseFinder Finder(*Variable, Context.getSourceManager(),
                         Launch.getEndLoc());
  Finder.TraverseStmt(const_cast<CUDAKernelCallExpr *>(&Launch));
  return !Finder.Checks.Layout;
}

std::optional<UncheckedKernelInput> findUncheckedKernelInput(
    const CXXMemberCallExpr &Accessor, const CUDAKernelCallExpr &Launch,
    const CallSites &Calls, const ExtensionBindings &Bindings,
    const ASTContext &Context) {
  bool MadeContiguous = false;
  const ParmVarDecl *Tensor =
      tensorParameter(Accessor.getImplicitObjectArgument(), MadeContiguous);
  if (!Tensor)
    return std::nullopt;
  bool FlatIndexing = kernelIndexesFlat(Accessor, Launch, Context);

  struct Step {
    const ParmVarDecl *Parameter;
    const Stmt *Before;
    bool NeedsDevice;
    bool NeedsLayout;
  };
  SmallVector<Step, 8> Work;
  Work.push_back({Tensor, &Launch, true, FlatIndexing});
  SmallPtrSet<const ParmVarDecl *, 8> Seen;
  // Callers are followed a few levels: the check, if any, is near the entry.
  constexpr unsigned MaxSteps = 32;
  for (unsigned Steps = 0; !Work.empty() && Steps < MaxSteps; ++Steps) {
    Step Current = Work.pop_back_val();
    const FunctionDecl *Owner = ownerOf(*Current.Parameter);
    if (!Owner || !Seen.insert(Current.Parameter).second)
      continue;
    TensorChecks Checks =
        checksBefore(*Owner, *Current.Parameter, *Current.Before, Context);
    if (Checks.Opaque)
      continue;
    bool NeedsDevice = Current.NeedsDevice && !Checks.Device;
    bool NeedsLayout = Current.NeedsLayout && !Checks.Layout;
    if (!NeedsDevice && !NeedsLayout)
      continue;
    if (const ExtensionBinding *Binding = Bindings.find(*Owner)) {
      // The CUDA dispatch key is chosen from every tensor argument: only a
      // function of one tensor surely receives a CUDA one.
      unsigned TensorParameters =
          llvm::count_if(Owner->parameters(), [](const ParmVarDecl *Parameter) {
            return isTensorType(Parameter->getType());
          });
      if (Binding->DispatchedToCuda && TensorParameters == 1)
        NeedsDevice = false;
      if (!NeedsDevice && !NeedsLayout)
        continue;
      return UncheckedKernelInput{
          Tensor, NeedsDevice,       NeedsLayout,
          Owner,  Current.Parameter, Binding->Registration};
    }
    unsigned Index = Current.Parameter->getFunctionScopeIndex();
    for (const CallSite &Site : Calls.callersOf(*Owner)) {
      if (Index >= Site.Call->getNumArgs())
        continue;
      bool ArgumentContiguous = false;
      const ParmVarDecl *Passed =
          tensorParameter(Site.Call->getArg(Index), ArgumentContiguous);
      if (Passed)
        Work.push_back({Passed, Site.Call, NeedsDevice,
                        NeedsLayout && !ArgumentContiguous});
    }
  }
  return std::nullopt;
}

} // namespace gpuguard::torch
