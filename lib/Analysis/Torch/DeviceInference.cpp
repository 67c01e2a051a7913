//===--- DeviceInference.cpp - Which device a tensor lives on -------------===//

#include "Analysis/Torch/DeviceInference.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Torch/TorchApi.h"
#include "Analysis/Torch/TorchOps.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard::torch {

std::string Device::str() const {
  std::string Name;
  switch (Kind) {
  case DeviceKind::CPU:
    Name = "cpu";
    break;
  case DeviceKind::CUDA:
    Name = "cuda";
    break;
  case DeviceKind::Meta:
    Name = "meta";
    break;
  case DeviceKind::Other:
    Name = "device";
    break;
  }
  if (Index >= 0)
    Name += ":" + std::to_string(Index);
  return Name;
}

bool provablyDifferent(const Device &A, const Device &B) {
  if (A.Kind == DeviceKind::Other || B.Kind == DeviceKind::Other)
    return false;
  if (A.Kind != B.Kind)
    return true;
  return A.Index >= 0 && B.Index >= 0 && A.Index != B.Index;
}

std::optional<Device> parseDeviceString(StringRef Text) {
  auto [Type, IndexText] = Text.split(':');
  std::optional<DeviceKind> Kind =
      llvm::StringSwitch<std::optional<DeviceKind>>(Type)
          .Case("cpu", DeviceKind::CPU)
          .Case("cuda", DeviceKind::CUDA)
          .Case("meta", DeviceKind::Meta)
          .Default(std::nullopt);
  if (!Kind)
    return std::nullopt;
  Device Result;
  Result.Kind = *Kind;
  if (Text.contains(':')) {
    unsigned Index;
    if (IndexText.getAsInteger(10, Index) || Index > 127)
      return std::nullopt;
    Result.Index = static_cast<int>(Index);
  }
  return Result;
}

// ---- Types -----------------------------------------------------------------

static const NamedDecl *typeDecl(QualType Type) {
  if (Type.isNull())
    return nullptr;
  Type = Type.getNonReferenceType().getCanonicalType();
  if (const auto *Record = Type->getAsCXXRecordDecl())
    return Record;
  return Type->getAsEnumDecl();
}

static bool isC10Type(QualType Type, StringRef Name) {
  const NamedDecl *Decl = typeDecl(Type);
  return Decl && Decl->getIdentifier() && Decl->getName() == Name &&
         isInNamespace(Decl, "c10");
}

static bool isDeviceClass(QualType Type) { return isC10Type(Type, "Device"); }
static bool isDeviceTypeEnum(QualType Type) {
  return isC10Type(Type, "DeviceType");
}
static bool isOptionsType(QualType Type) {
  return isC10Type(Type, "TensorOptions");
}
static bool isDeviceLike(QualType Type) {
  return isDeviceClass(Type) || isDeviceTypeEnum(Type) || isOptionsType(Type);
}
static bool isModuleType(QualType Type) { return moduleClass(Type) != nullptr; }
/// torch::nn::Module itself, where `to` and the `register_*` methods live.
static bool isModuleBaseClass(const CXXRecordDecl *Record) {
  return Record && Record->getIdentifier() && Record->getName() == "Module" &&
         isInNamespace(Record, "torch::nn");
}

/// The string literal a std::string argument is made from.
static const StringLiteral *stringLiteralOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = ignoreTensorWrappers(E)->IgnoreImplicit();
    if (const auto *Literal = dyn_cast<StringLiteral>(E))
      return Literal;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0)
      return nullptr;
    E = Construct->getArg(0);
  }
  return nullptr;
}

/// The variables whose device the analysis follows.
static bool isTracked(const ValueDecl *Decl) {
  const auto *Var = dyn_cast_or_null<VarDecl>(Decl);
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
    return false;
  QualType Type = Var->getType();
  return isTensorType(Type) || isDeviceLike(Type) || isModuleType(Type);
}

static const Expr *stripValue(const Expr *E) {
  while (E) {
    const Expr *Inner = ignoreTensorWrappers(E);
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Inner))
      Inner = Cast->getSubExpr();
    else if (const auto *Cast = dyn_cast<CStyleCastExpr>(Inner))
      Inner = Cast->getSubExpr();
    if (Inner == E)
      return E;
    E = Inner;
  }
  return E;
}

static DeviceInfo knownDevice(DeviceKind Kind, int Index, SourceLocation Loc) {
  DeviceInfo Info;
  if (Kind == DeviceKind::Other)
    return Info;
  Info.Dev = Device{Kind, Index};
  Info.Origin = Loc;
  return Info;
}

/// Two values that meet (a conditional operator, a join of paths): the
/// device survives only when both agree.
static DeviceInfo meet(const DeviceInfo &A, const DeviceInfo &B) {
  DeviceInfo Result;
  Result.MaybeZeroDim = A.MaybeZeroDim || B.MaybeZeroDim;
  Result.NoParameters = A.NoParameters && B.NoParameters;
  if (A.NoDevice && B.NoDevice) {
    Result.NoDevice = true;
    return Result;
  }
  if (A.Dev && B.Dev && *A.Dev == *B.Dev) {
    Result.Dev = A.Dev;
    Result.Origin = A.Origin;
  }
  return Result;
}

/// Ops whose result has the shape of their operands broadcast together:
/// 0-dim only when every operand is.
static bool keepsDims(StringRef Name) {
  return isPointwiseOp(Name) || hasOpTraits(Name, SameShape);
}

/// True for a reduction told to keep its dimensions: `t.sum(1, true)`.
static bool keepsDimArgument(const TensorCall &Call, ASTContext &Context) {
  const Expr *KeepDim = argumentFor(Call, "keepdim");
  return KeepDim && integerConstant(KeepDim, Context).value_or(0) != 0;
}

/// LibTorch built-in modules that hold parameters when constructed with
/// their default options.
static bool hasParameters(StringRef BuiltinName) {
  return llvm::is_contained({"Linear",
                             "Bilinear",
                             "Embedding",
                             "EmbeddingBag",
                             "Conv1d",
                             "Conv2d",
                             "Conv3d",
                             "ConvTranspose1d",
                             "ConvTranspose2d",
                             "ConvTranspose3d",
                             "BatchNorm1d",
                             "BatchNorm2d",
                             "BatchNorm3d",
                             "LayerNorm",
                             "GroupNorm",
                             "LSTM",
                             "GRU",
                             "RNN",
                             "LSTMCell",
                             "GRUCell",
                             "RNNCell",
                             "MultiheadAttention",
                             "PReLU",
                             "Transformer",
                             "TransformerEncoderLayer",
                             "TransformerDecoderLayer",
                             "TransformerEncoder",
                             "TransformerDecoder"},
                            BuiltinName);
}

/// Built-in containers: their parameters are those of what they hold.
static bool isContainer(StringRef BuiltinName) {
  return llvm::is_contained({"Sequential", "ModuleList", "ModuleDict",
                             "ParameterList", "ParameterDict", "Functional",
                             "AnyModule"},
                            BuiltinName);
}

const Expr *moduleOperand(const Expr *Object) {
  const Expr *E = stripValue(Object);
  while (E) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() == 1) {
      E = stripValue(Op->getArg(0));
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E);
        Unary && Unary->getOpcode() == UO_Deref) {
      E = stripValue(Unary->getSubExpr());
      continue;
    }
    break;
  }
  if (!E)
    return nullptr;
  QualType Type = E->getType();
  return isModuleType(Type) ? E : nullptr;
}

// ---- The analysis
// ------------------------------------------------------------

/// What a helper returns, the same on every path (summariseHelper).
struct HelperSummary {
  /// A device the helper's own code fixes; unknown otherwise.
  DeviceInfo Fixed;
  /// The device of this parameter's argument, and whether the result may
  /// have no dimensions.
  std::optional<unsigned> SameAsParameter;
  bool MaybeZeroDim = true;
  /// Ops that put a parameter beside a tensor on a fixed device.
  std::vector<ParameterMeeting> Meetings;
};

class DeviceInference::Impl {
public:
  using Facts = DeviceFacts;

  Impl(const FunctionDecl &Function, ASTContext &Context, Facts Entry)
      : Function(Function), Context(Context), Entry(std::move(Entry)) {}

  void run();
  DeviceInfo evaluate(const Expr *E, const Facts &State,
                      unsigned Depth = 0) const;

  // The dataflow domain.
  bool transfer(const CFGElement &Element, Facts &State) const;
  void edge(const CFGBlock &, unsigned, Facts &) const {}
  bool join(Facts &Into, const Facts &Incoming) const;
  void widen(Facts &State) const { State.clear(); }

  const FunctionDecl &Function;
  ASTContext &Context;
  /// What is known at the function's entry.
  Facts Entry;
  std::unique_ptr<CFG> Graph;
  std::unique_ptr<ForwardDataflow<Impl>> Dataflow;
  /// What each helper called here returns (helperCall).
  mutable llvm::DenseMap<const FunctionDecl *, HelperSummary> HelperSummaries;

private:
  DeviceInfo deviceArguments(llvm::ArrayRef<const Expr *> Args,
                             SourceLocation Loc, const Facts &State,
                             unsigned Depth) const;
  DeviceInfo deviceTypeConstant(const Expr *E) const;
  DeviceInfo tensorCall(const TensorCall &Call, const Facts &State,
                        unsigned Depth) const;
  DeviceInfo moduleCall(const Expr *Module, llvm::ArrayRef<const Expr *> Args,
                        const Facts &State, unsigned Depth) const;
  DeviceInfo moduleInit(const Expr *Init, const Facts &State) const;
  DeviceInfo helperCall(const CallExpr &Call, const Facts &State,
                        unsigned Depth) const;
  void assign(const ValueDecl *Var, const Expr *Value, Facts &State) const;
  void escape(const Expr *E, Facts &State) const;
};

void DeviceInference::Impl::run() {
  if (!Function.hasBody())
    return;
  DataflowCFGOptions GraphOptions;
  GraphOptions.ExceptionEdges = true;
  // A module's constructor registers submodules in member initializers too.
  GraphOptions.Initializers = true;
  Graph = buildDataflowCFG(Function, Context, GraphOptions);
  if (!Graph)
    return;
  Dataflow = std::make_unique<ForwardDataflow<Impl>>(*Graph, *this);
  Dataflow->run(Entry);
}

bool DeviceInference::Impl::join(Facts &Into, const Facts &Incoming) const {
  bool Changed = false;
  SmallVector<const ValueDecl *, 8> Lost;
  for (auto &[Var, Info] : Into) {
    auto It = Incoming.find(Var);
    if (It == Incoming.end()) {
      Lost.push_back(Var);
      continue;
    }
    DeviceInfo Met = meet(Info, It->second);
    if (!Met.Dev && !Met.NoDevice && !Met.NoParameters) {
      Lost.push_back(Var);
      continue;
    }
    if (Met.Dev != Info.Dev || Met.NoDevice != Info.NoDevice ||
        Met.MaybeZeroDim != Info.MaybeZeroDim ||
        Met.NoParameters != Info.NoParameters) {
      Info = Met;
      Changed = true;
    }
  }
  for (const ValueDecl *Var : Lost)
    Into.erase(Var);
  return Changed || !Lost.empty();
}

void DeviceInference::Impl::assign(const ValueDecl *Var, const Expr *Value,
                                   Facts &State) const {
  DeviceInfo Info = isModuleType(Var->getType()) ? moduleInit(Value, State)
                                                 : evaluate(Value, State);
  if (Info.Dev || Info.NoDevice || Info.NoParameters)
    State[Var] = Info;
  else
    State.erase(Var);
}

/// Forgets variables that \p E may change behind the analysis' back: passed
/// by non-const reference to a function we cannot see into, address taken.
void DeviceInference::Impl::escape(const Expr *E, Facts &State) const {
  auto Forget = [&](const Expr *Arg) {
    if (const ValueDecl *Var = referencedDecl(Arg))
      State.erase(Var);
  };
  if (const auto *Unary = dyn_cast<UnaryOperator>(E);
      Unary && Unary->getOpcode() == UO_AddrOf) {
    Forget(Unary->getSubExpr());
    return;
  }
  const FunctionDecl *Callee = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    Callee = Call->getDirectCallee();
    Args = {Call->getArgs(), Call->getNumArgs()};
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    Callee = Construct->getConstructor();
    Args = {Construct->getArgs(), Construct->getNumArgs()};
  } else {
    return;
  }
  if (isLibTorchDecl(Callee))
    return;
  if (!Callee) {
    llvm::for_each(Args, Forget);
    return;
  }
  // A user's method called on a module (`net->to_gpu()`) may move it.
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
    if (Callee->getIdentifier() && Callee->getName() != "forward")
      if (const Expr *Module =
              moduleOperand(Member->getImplicitObjectArgument()))
        Forget(Module);
  unsigned Offset =
      isa<CXXOperatorCallExpr>(E) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = 0; I < Args.size(); ++I) {
    unsigned ParamIndex = I >= Offset ? I - Offset : 0;
    if (I < Offset || ParamIndex >= Callee->getNumParams()) {
      if (Callee->isVariadic() || I >= Offset)
        Forget(Args[I]);
      continue;
    }
    QualType Param = Callee->getParamDecl(ParamIndex)->getType();
    if (Param->isReferenceType() &&
        !Param.getNonReferenceType().isConstQualified())
      Forget(Args[I]);
    if (Param->isPointerType() && !Param->getPointeeType().isConstQualified())
      Forget(Args[I]);
  }
}

bool DeviceInference::Impl::transfer(const CFGElement &Element,
                                     Facts &State) const {
  std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
  if (!S)
    return true;
  const Stmt *Statement = S->getStmt();

  if (const auto *Decls = dyn_cast<DeclStmt>(Statement)) {
    for (const Decl *D : Decls->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      // A non-const reference may move the variable it names.
      if (Var && Var->getType()->isReferenceType() &&
          !Var->getType().getNonReferenceType().isConstQualified() &&
          Var->getInit())
        if (const ValueDecl *Aliased = referencedDecl(Var->getInit()))
          State.erase(Aliased);
      if (!Var || !isTracked(Var))
        continue;
      if (!Var->getInit()) {
        State.erase(Var);
        continue;
      }
      // Module holders share their module: a copy may be moved for both.
      if (isModuleType(Var->getType()))
        if (const ValueDecl *Source = referencedDecl(Var->getInit()))
          State.erase(Source);
      assign(Var, Var->getInit(), State);
    }
    return true;
  }

  const auto *E = dyn_cast<Expr>(Statement);
  if (!E)
    return true;

  // `t = expr`, `device = expr`: a variable takes a new value.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    const ValueDecl *Var = referencedDecl(Op->getArg(0));
    if (Var && isTracked(Var) &&
        (!Method || Method->getRefQualifier() != RQ_RValue)) {
      if (isModuleType(Var->getType()))
        State.erase(Var);
      else
        assign(Var, Op->getArg(1), State);
      return true;
    }
  }
  if (const auto *Assign = dyn_cast<BinaryOperator>(E);
      Assign && Assign->getOpcode() == BO_Assign) {
    const ValueDecl *Var = referencedDecl(Assign->getLHS());
    if (Var && isTracked(Var))
      assign(Var, Assign->getRHS(), State);
    return true;
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    // `net->to(device)` moves the module's parameters.
    if (Method && Method->getIdentifier() && Method->getName() == "to" &&
        isModuleBaseClass(Method->getParent())) {
      const ValueDecl *Var =
          referencedDecl(moduleOperand(Member->getImplicitObjectArgument()));
      if (Var && isTracked(Var) && Member->getNumArgs() >= 1) {
        const Expr *Arg = Member->getArg(0);
        if (isDeviceLike(Arg->getType())) {
          DeviceInfo Moved = evaluate(Arg, State);
          auto Old = State.find(Var);
          Moved.NoParameters = Old != State.end() && Old->second.NoParameters;
          Moved.Origin = Member->getExprLoc();
          if (Moved.Dev || Moved.NoParameters)
            State[Var] = Moved;
          else
            State.erase(Var);
        }
      }
      return true;
    }
    // Tensor methods that replace the storage, device included.
    if (Method && Method->getIdentifier() &&
        (Method->getName() == "set_" || Method->getName() == "set_data"))
      if (const ValueDecl *Var =
              referencedDecl(Member->getImplicitObjectArgument()))
        State.erase(Var);
  }
  escape(E, State);
  return true;
}

// ---- Evaluation
// --------------------------------------------------------------

DeviceInfo DeviceInference::Impl::deviceTypeConstant(const Expr *E) const {
  const EnumDecl *Enum = E->getType()->getAsEnumDecl();
  Expr::EvalResult Result;
  if (!Enum || E->isValueDependent() || !E->EvaluateAsRValue(Result, Context) ||
      !Result.Val.isInt())
    return {};
  for (const EnumConstantDecl *Constant : Enum->enumerators()) {
    if (llvm::APSInt::compareValues(Constant->getInitVal(),
                                    Result.Val.getInt()) != 0)
      continue;
    DeviceKind Kind = llvm::StringSwitch<DeviceKind>(Constant->getName())
                          .Case("CPU", DeviceKind::CPU)
                          .Case("CUDA", DeviceKind::CUDA)
                          .Case("Meta", DeviceKind::Meta)
                          .Default(DeviceKind::Other);
    return knownDevice(Kind, -1, E->getExprLoc());
  }
  return {};
}

/// The device that arguments such as those of `torch::Device(...)` or
/// `options.device(...)` name: a device, a device type and an optional
/// index, or a string.
DeviceInfo
DeviceInference::Impl::deviceArguments(llvm::ArrayRef<const Expr *> Args,
                                       SourceLocation Loc, const Facts &State,
                                       unsigned Depth) const {
  if (Args.empty())
    return {};
  if (const StringLiteral *Literal = stringLiteralOf(Args[0])) {
    if (std::optional<Device> Parsed = parseDeviceString(Literal->getString()))
      return knownDevice(Parsed->Kind, Parsed->Index, Loc);
    return {};
  }
  DeviceInfo Info = evaluate(Args[0], State, Depth + 1);
  if (!Info.Dev)
    return {};
  Info.Origin = Loc;
  if (Args.size() >= 2 && !isa<CXXDefaultArgExpr>(Args[1])) {
    std::optional<int64_t> Index = integerConstant(Args[1], Context);
    if (!Index)
      return {};
    Info.Dev->Index = *Index < 0 ? -1 : static_cast<int>(*Index);
  }
  return Info;
}

DeviceInfo DeviceInference::Impl::evaluate(const Expr *E, const Facts &State,
                                           unsigned Depth) const {
  if (!E || Depth > 16)
    return {};
  E = stripValue(E);
  if (E->isTypeDependent() || E->isValueDependent())
    return {};

  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return meet(evaluate(Conditional->getTrueExpr(), State, Depth + 1),
                evaluate(Conditional->getFalseExpr(), State, Depth + 1));

  if (const auto *Literal = dyn_cast<StringLiteral>(E)) {
    if (std::optional<Device> Parsed = parseDeviceString(Literal->getString()))
      return knownDevice(Parsed->Kind, Parsed->Index, E->getExprLoc());
    return {};
  }

  if (const ValueDecl *Decl = referencedDecl(E)) {
    auto It = State.find(Decl);
    if (It != State.end())
      return It->second;
    if (isDeviceTypeEnum(E->getType()))
      return deviceTypeConstant(E);
    return {};
  }

  QualType Type = E->getType();
  if (isDeviceTypeEnum(Type))
    return deviceTypeConstant(E);

  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    llvm::SmallVector<const Expr *, 4> Args;
    for (const Expr *Arg : Construct->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        Args.push_back(Arg);
    if (isDeviceClass(Type))
      return deviceArguments(Args, E->getBeginLoc(), State, Depth);
    // c10::optional<Device>, as `options.device(d)` takes it.
    if (isC10Type(Type, "optional") && Args.size() == 1)
      return evaluate(Args[0], State, Depth + 1);
    if (isOptionsType(Type)) {
      if (Args.empty()) {
        DeviceInfo Info;
        Info.NoDevice = true;
        return Info;
      }
      if (isDeviceLike(Args[0]->getType()))
        return evaluate(Args[0], State, Depth + 1);
      DeviceInfo Info;
      Info.NoDevice = true; // a dtype or a layout
      return Info;
    }
    return {};
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    const Expr *Object = Member->getImplicitObjectArgument();
    if (Method && Method->getIdentifier() && Object &&
        isOptionsType(Object->getType())) {
      if (Method->getName() == "device" && Member->getNumArgs() > 0) {
        llvm::SmallVector<const Expr *, 2> Args(Member->arguments());
        return deviceArguments(Args, Member->getExprLoc(), State, Depth);
      }
      // dtype(), requires_grad(), layout() keep the device; device() reads
      // it.
      return evaluate(Object, State, Depth + 1);
    }
    if (Method && Method->getIdentifier() && Object &&
        isTensorType(Object->getType()) &&
        (Method->getName() == "device" || Method->getName() == "options")) {
      DeviceInfo Info = evaluate(Object, State, Depth + 1);
      Info.MaybeZeroDim = true;
      return Info;
    }
  }

  // torch::device(d), torch::dtype(t), torch::requires_grad(): options.
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && isOptionsType(Type) && !isa<CXXMemberCallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && isLibTorchDecl(Callee)) {
      if (Callee->getName() == "device" && Call->getNumArgs() >= 1)
        return deviceArguments({Call->getArgs(), Call->getNumArgs()},
                               Call->getBeginLoc(), State, Depth);
      DeviceInfo Info;
      Info.NoDevice = true;
      return Info;
    }
    return {};
  }

  // Module calls: `net(x)`, `net->forward(x)`.
  if (isTensorType(Type)) {
    if (std::optional<ForwardCall> Call = getForwardCall(E))
      if (const Expr *Module = moduleOperand(Call->Object))
        return moduleCall(Module, Call->Args, State, Depth);
  }

  if (std::optional<TensorCall> Call = getTensorCall(E))
    if (isTensorType(Type))
      return tensorCall(*Call, State, Depth);

  // A helper of this translation unit: what it returns on every path.
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && isTensorType(Type))
    return helperCall(*Call, State, Depth);
  return {};
}

/// A tensor parameter of a helper as the summary's analysis sees it: a
/// device of its own that no code names, so that a result on it is "the
/// device of parameter K".
static Device parameterDevice(unsigned K) {
  return Device{DeviceKind::Other, -100 - static_cast<int>(K)};
}
static std::optional<unsigned> parameterOf(const Device &D) {
  if (D.Kind != DeviceKind::Other || D.Index > -100)
    return std::nullopt;
  return static_cast<unsigned>(-100 - D.Index);
}

bool acceptsOtherDevices(StringRef Name) {
  return Name.ends_with("_like") || Name.starts_with("new_") ||
         llvm::is_contained({"to", "copy_", "type_as", "expand_as", "view_as",
                             "reshape_as", "index_put_", "index", "set_",
                             "set_data", "backward", "is_same_size",
                             "is_set_to"},
                            Name);
}

llvm::SmallVector<const Expr *, 4> sameDeviceOperands(const TensorCall &Call) {
  llvm::SmallVector<const Expr *, 4> Operands;
  if (Call.Self)
    Operands.push_back(Call.Self);
  for (const Expr *Arg : Call.Args) {
    if (isTensorType(Arg->getType())) {
      Operands.push_back(Arg);
      continue;
    }
    llvm::SmallVector<const Expr *, 4> Elements = listElements(Arg);
    if (Elements.size() == 1 && Elements[0] == Arg)
      continue;
    for (const Expr *Element : Elements)
      if (isTensorType(Element->getType()))
        Operands.push_back(Element);
  }
  return Operands;
}

/// The meeting \p E makes, when it is an op that puts a tensor following a
/// parameter beside one on a device \p Function fixes, on every path.
static std::optional<ParameterMeeting>
parameterMeeting(const Expr &E, const DeviceInference &Inference,
                 const DeviceFacts &Facts, const FunctionDecl &Function,
                 ParentMap &Parents, ASTContext &Context) {
  std::optional<TensorCall> Call = getTensorCall(&E);
  if (!Call || Call->Call != &E || acceptsOtherDevices(Call->Name))
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Operands = sameDeviceOperands(*Call);
  llvm::SmallVector<DeviceInfo, 4> Infos;
  for (const Expr *Operand : Operands)
    Infos.push_back(Inference.deviceOf(Operand, Facts));
  for (size_t I = 0; I < Operands.size(); ++I) {
    std::optional<unsigned> Parameter =
        Infos[I].Dev ? parameterOf(*Infos[I].Dev) : std::nullopt;
    if (!Parameter)
      continue;
    for (size_t J = 0; J < Operands.size(); ++J) {
      const DeviceInfo &Fixed = Infos[J];
      if (J == I || !Fixed.Dev || Fixed.Dev->Kind == DeviceKind::Other ||
          Fixed.isCpuScalar())
        continue;
      if (!runsOnEveryPath(E, Function, Parents, Context))
        return std::nullopt;
      ParameterMeeting Meeting;
      Meeting.Function = &Function;
      Meeting.Parameter = *Parameter;
      Meeting.Op = &E;
      Meeting.OpName = Call->Name;
      Meeting.ParameterOperand = Operands[I];
      Meeting.FixedOperand = Operands[J];
      Meeting.ParameterFirst = I < J;
      Meeting.Fixed = Fixed;
      return Meeting;
    }
  }
  return std::nullopt;
}

/// The meetings of the function \p Call calls whose argument follows one of
/// \p Function's parameters, when the call runs on every path: they are
/// \p Function's meetings too, through the call.
static void passedOnMeetings(const CallExpr &Call,
                             const DeviceInference &Inference,
                             const DeviceFacts &Facts,
                             const FunctionDecl &Function, ParentMap &Parents,
                             ASTContext &Context,
                             std::vector<ParameterMeeting> &Meetings) {
  std::vector<ParameterMeeting> Inner = Inference.meetingsOf(Call);
  if (Inner.empty() || !runsOnEveryPath(Call, Function, Parents, Context))
    return;
  for (ParameterMeeting &Meeting : Inner) {
    DeviceInfo Passed = Inference.deviceOf(Meeting.Argument, Facts);
    std::optional<unsigned> Parameter =
        Passed.Dev ? parameterOf(*Passed.Dev) : std::nullopt;
    if (!Parameter)
      continue;
    Meeting.Through.insert(Meeting.Through.begin(), {&Call, Meeting.Function});
    Meeting.Function = &Function;
    Meeting.Parameter = *Parameter;
    Meeting.Argument = nullptr;
    Meetings.push_back(std::move(Meeting));
  }
}

/// What a function of the translation unit returns, the same on every path
/// that returns: a device its own code fixes (a factory, `.to(kCPU)`:
/// `torch::arange(n)` in a helper is a CPU tensor at every call), or the
/// device of one of its tensor parameters (`torch::arange(n, x.options())`,
/// `x.to(torch::kDouble)`). Anything else stays unknown, and helpers are
/// followed a few calls deep.
static HelperSummary summariseHelper(const FunctionDecl &Callee,
                                     ASTContext &Context) {
  static thread_local unsigned Nesting = 0;
  const FunctionDecl *Definition = summarisableDefinition(Callee);
  constexpr unsigned MaxNesting = 3;
  if (!Definition || Nesting >= MaxNesting)
    return {};
  // Tensor parameters that the body cannot rebind behind the analysis's
  // back: by value (followed as locals) or by const reference.
  DeviceFacts Entry;
  for (const ParmVarDecl *Parameter : Definition->parameters()) {
    QualType Type = Parameter->getType();
    if (!isTensorType(Type) || (Type->isReferenceType() &&
                                !Type.getNonReferenceType().isConstQualified()))
      continue;
    DeviceInfo Info;
    Info.Dev = parameterDevice(Parameter->getFunctionScopeIndex());
    Entry[Parameter] = Info;
  }
  ++Nesting;
  std::optional<DeviceInfo> Returned;
  bool Unknown = false;
  HelperSummary Summary;
  {
    DeviceInference Inference(*Definition, Context, std::move(Entry));
    ParentMap Parents(Definition->getBody());
    llvm::SmallPtrSet<const Stmt *, 16> Seen;
    Inference.forEachReachable([&](const Stmt *S, const DeviceFacts &Facts) {
      const auto *E = dyn_cast<Expr>(S);
      if (E && Seen.insert(E).second) {
        if (std::optional<ParameterMeeting> Meeting = parameterMeeting(
                *E, Inference, Facts, *Definition, Parents, Context))
          Summary.Meetings.push_back(std::move(*Meeting));
        if (const auto *Call = dyn_cast<CallExpr>(E))
          passedOnMeetings(*Call, Inference, Facts, *Definition, Parents,
                           Context, Summary.Meetings);
      }
      const auto *Return = dyn_cast<ReturnStmt>(S);
      if (!Return || Unknown)
        return;
      DeviceInfo Info = Return->getRetValue()
                            ? Inference.deviceOf(Return->getRetValue(), Facts)
                            : DeviceInfo();
      if (!Info.isKnown()) {
        Unknown = true;
        return;
      }
      Returned = Returned ? meet(*Returned, Info) : Info;
      if (!Returned->isKnown())
        Unknown = true;
    });
  }
  --Nesting;
  if (Unknown || !Returned)
    return Summary;
  if (std::optional<unsigned> K = parameterOf(*Returned->Dev)) {
    Summary.SameAsParameter = K;
    Summary.MaybeZeroDim = Returned->MaybeZeroDim;
  } else if (Returned->Dev->Kind != DeviceKind::Other)
    Summary.Fixed = *Returned;
  return Summary;
}

DeviceInfo DeviceInference::Impl::helperCall(const CallExpr &Call,
                                             const Facts &State,
                                             unsigned Depth) const {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || isa<CXXMethodDecl>(Callee) || isLibTorchDecl(Callee))
    return {};
  auto [It, Inserted] =
      HelperSummaries.try_emplace(Callee->getCanonicalDecl(), HelperSummary());
  if (Inserted)
    It->second = summariseHelper(*Callee, Context);
  const HelperSummary &Summary = It->second;
  if (Summary.SameAsParameter) {
    if (*Summary.SameAsParameter >= Call.getNumArgs())
      return {};
    DeviceInfo Info =
        evaluate(Call.getArg(*Summary.SameAsParameter), State, Depth + 1);
    // The result has dimensions when the helper's own code gives it some
    // (a factory with a size); otherwise it may have none.
    Info.MaybeZeroDim = Summary.MaybeZeroDim;
    Info.NoDevice = false;
    Info.NoParameters = false;
    return Info;
  }
  // A fixed device's origin stays in the helper: where it was decided.
  return Summary.Fixed;
}

std::vector<ParameterMeeting>
DeviceInference::meetingsOf(const CallExpr &Call) const {
  const FunctionDecl *Callee = Call.getDirectCallee();
  llvm::ArrayRef<const Expr *> Args(Call.getArgs(), Call.getNumArgs());
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    // `model(x)` through a module holder runs the held module's forward().
    if (std::optional<ForwardCall> Module = getModuleCall(Operator)) {
      Callee = moduleForward(moduleClass(Module->Object->getType()));
      Args = Module->Args;
    } else if (isa_and_nonnull<CXXMethodDecl>(Callee) &&
               !cast<CXXMethodDecl>(Callee)->isStatic()) {
      // A member operator's first argument is its object.
      Args = Args.drop_front();
    }
  }
  if (!Callee || isLibTorchDecl(Callee))
    return {};
  auto [It, Inserted] = State->HelperSummaries.try_emplace(
      Callee->getCanonicalDecl(), HelperSummary());
  if (Inserted)
    It->second = summariseHelper(*Callee, State->Context);
  std::vector<ParameterMeeting> Meetings;
  for (const ParameterMeeting &Meeting : It->second.Meetings)
    if (Meeting.Parameter < Args.size()) {
      Meetings.push_back(Meeting);
      Meetings.back().Argument = Args[Meeting.Parameter];
    }
  return Meetings;
}

DeviceInfo DeviceInference::Impl::moduleCall(const Expr *Module,
                                             llvm::ArrayRef<const Expr *> Args,
                                             const Facts &State,
                                             unsigned Depth) const {
  DeviceInfo ModuleInfo = evaluate(Module, State, Depth + 1);
  DeviceInfo Result;
  if (ModuleInfo.NoParameters) {
    for (const Expr *Arg : Args)
      if (isTensorType(Arg->getType())) {
        Result = evaluate(Arg, State, Depth + 1);
        break;
      }
  } else {
    Result = ModuleInfo;
  }
  // Losses return 0-dim tensors; other modules may too.
  Result.MaybeZeroDim = true;
  Result.NoParameters = false;
  Result.NoDevice = false;
  return Result;
}

/// The elements of \p Arg when it is a list of tensors (torch::cat's).
static llvm::SmallVector<const Expr *, 4> tensorListElements(const Expr *Arg) {
  llvm::SmallVector<const Expr *, 4> Elements = listElements(Arg);
  if (Elements.size() == 1 && Elements[0] == Arg)
    return {};
  llvm::SmallVector<const Expr *, 4> Tensors;
  for (const Expr *Element : Elements)
    if (isTensorType(Element->getType()))
      Tensors.push_back(Element);
  return Tensors;
}

/// True when \p E is a size argument with at least one dimension: `{2, 3}`,
/// `3`.
static bool hasDimensions(const Expr *E) {
  QualType Type = E->getType();
  if (Type->isIntegerType())
    return true;
  llvm::SmallVector<const Expr *, 4> Elements = listElements(E);
  if (Elements.size() == 1 && Elements[0] == E) {
    // One integer converted to an IntArrayRef, or a vector: unknown rank
    // unless it is a plain integer.
    const Expr *Inner = stripValue(E);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
        Construct && Construct->getNumArgs() == 1)
      return Construct->getArg(0)->getType()->isIntegerType();
    return false;
  }
  return !Elements.empty();
}

DeviceInfo DeviceInference::Impl::tensorCall(const TensorCall &Call,
                                             const Facts &State,
                                             unsigned Depth) const {
  StringRef Name = Call.Name;
  SourceLocation Loc = Call.Call->getExprLoc();
  auto FromSelf = [&]() {
    return Call.Self ? evaluate(Call.Self, State, Depth + 1) : DeviceInfo();
  };

  if (Call.Form == TensorCallForm::Method) {
    if (Name == "cuda" || Name == "cpu") {
      DeviceInfo Info = knownDevice(
          Name == "cuda" ? DeviceKind::CUDA : DeviceKind::CPU, -1, Loc);
      Info.MaybeZeroDim = FromSelf().MaybeZeroDim;
      return Info;
    }
    if (Name == "to" || Name == "type_as") {
      DeviceInfo Self = FromSelf();
      if (Call.Args.empty())
        return Self;
      const Expr *Target = Call.Args[0];
      QualType TargetType = Target->getType();
      DeviceInfo Info;
      if (isTensorType(TargetType) || isDeviceLike(TargetType))
        Info = evaluate(Target, State, Depth + 1);
      else
        Info = Self; // A dtype: the device stays.
      if (Info.NoDevice)
        Info = Self;
      else if (Info.Dev)
        Info.Origin = Loc;
      Info.NoDevice = false;
      Info.MaybeZeroDim = Self.MaybeZeroDim;
      return Info;
    }
  }

  // The operands: the tensors of the op, lists included.
  llvm::SmallVector<const Expr *, 4> Operands;
  if (Call.Self)
    Operands.push_back(Call.Self);
  for (const Expr *Arg : Call.Args) {
    if (isTensorType(Arg->getType()))
      Operands.push_back(Arg);
    else
      llvm::append_range(Operands, tensorListElements(Arg));
  }

  const Expr *Options = nullptr;
  for (const Expr *Arg : Call.Args)
    if (isOptionsType(Arg->getType()))
      Options = Arg;

  // `*_like`: the argument's device unless the options name one.
  if (factoryKind(Name) == FactoryKind::Like && Call.Self) {
    DeviceInfo Self = FromSelf();
    if (Options) {
      DeviceInfo FromOptions = evaluate(Options, State, Depth + 1);
      if (!FromOptions.NoDevice) {
        FromOptions.MaybeZeroDim = Self.MaybeZeroDim;
        return FromOptions;
      }
    }
    return Self;
  }

  // A factory: the options' device, the CPU without one.
  if (Operands.empty() && Call.Form == TensorCallForm::Function) {
    DeviceInfo Info;
    if (Options) {
      Info = evaluate(Options, State, Depth + 1);
      if (Info.NoDevice)
        Info = knownDevice(DeviceKind::CPU, -1, Loc);
      else if (Info.Dev)
        Info.Origin = Loc;
    } else {
      Info = knownDevice(DeviceKind::CPU, -1, Loc);
    }
    Info.NoDevice = false;
    Info.MaybeZeroDim = true;
    if (Name == "tensor")
      Info.MaybeZeroDim = !Call.Args.empty() &&
                          listElements(Call.Args[0]).size() == 1 &&
                          listElements(Call.Args[0])[0] == Call.Args[0];
    else if (hasOpTraits(Name, NeverZeroDim))
      Info.MaybeZeroDim = false;
    else
      for (const Expr *Arg : Call.Args)
        if (isC10Type(Arg->getType(), "ArrayRef"))
          Info.MaybeZeroDim = !hasDimensions(Arg);
    return Info;
  }
  if (Operands.empty())
    return {};

  // In-place ops keep their tensor's device.
  if (Call.mutatesSelf() && Call.Self)
    return FromSelf();

  // Any other op: its operands' common device; 0-dim CPU operands go with
  // any device.
  DeviceInfo Result;
  bool AllZeroDim = true;
  bool Conflict = false;
  std::optional<DeviceInfo> CpuScalar;
  bool AnyUnknown = false;
  for (const Expr *Operand : Operands) {
    DeviceInfo Info = evaluate(Operand, State, Depth + 1);
    AllZeroDim = AllZeroDim && Info.MaybeZeroDim;
    if (!Info.Dev) {
      AnyUnknown = true;
      continue;
    }
    if (Info.isCpuScalar()) {
      if (!CpuScalar)
        CpuScalar = Info;
      continue;
    }
    if (!Result.Dev)
      Result = Info;
    else if (provablyDifferent(*Result.Dev, *Info.Dev) ||
             *Result.Dev != *Info.Dev)
      Conflict = true;
  }
  if (Conflict)
    return {};
  if (!Result.Dev && CpuScalar && !AnyUnknown)
    Result = *CpuScalar;
  if (Result.Dev)
    Result.Origin = Result.Origin.isValid() ? Result.Origin : Loc;
  Result.NoDevice = false;
  Result.NoParameters = false;
  if (hasOpTraits(Name, NeverZeroDim))
    Result.MaybeZeroDim = false;
  else if (keepsDims(Name) || keepsDimArgument(Call, Context))
    Result.MaybeZeroDim = AllZeroDim;
  else
    Result.MaybeZeroDim = true;
  return Result;
}

// ---- Modules
// -----------------------------------------------------------------

DeviceInfo DeviceInference::Impl::moduleInit(const Expr *Init,
                                             const Facts &State) const {
  const Expr *E = stripValue(Init);
  const CXXRecordDecl *Module = nullptr;
  SourceLocation Loc = E->getBeginLoc();
  // The constructor's arguments: a holder and make_shared pass theirs on.
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return {};
    if (Construct->getNumArgs() == 1 &&
        Construct->getArg(0)->getType()->isNullPtrType())
      return {};
    Module = moduleClass(Construct->getType());
    Args = {Construct->getArgs(), Construct->getNumArgs()};
  } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() &&
        Callee->getName() == "make_shared" && Callee->isInStdNamespace()) {
      Module = moduleClass(Call->getType());
      Args = {Call->getArgs(), Call->getNumArgs()};
    }
  }
  std::optional<unsigned> MovedTo;
  DeviceInfo Info = constructedModuleDevice(Module, Context, &MovedTo);
  // A module whose constructor moves it to the device it is given.
  if (MovedTo && *MovedTo < Args.size()) {
    DeviceInfo Given = evaluate(Args[*MovedTo], State);
    if (!Given.Dev)
      return {};
    Info = DeviceInfo();
    Info.Dev = Given.Dev;
    Info.MaybeZeroDim = false;
  }
  if (Info.Dev)
    Info.Origin = Loc;
  return Info;
}

/// Walks a user module's constructors and forward methods to decide whether
/// its parameters are all created on the CPU and whether forward keeps its
/// input where it is.
class ModuleScan {
public:
  ModuleScan(ASTContext &Context) : Context(Context) {}

  /// False when the constructor may put a parameter anywhere else than the
  /// CPU, or on the device it is given as its last statement.
  bool scanConstructor(const FunctionDecl &Constructor) {
    DeviceInference Inference(Constructor, Context);
    const ParmVarDecl *MovedTo = nullptr;
    const CXXMemberCallExpr *FinalMove =
        finalMoveToParameter(Constructor, MovedTo);
    bool Ok = true;
    Inference.forEachReachable([&](const Stmt *S, const DeviceFacts &Facts) {
      if (Ok && S != FinalMove)
        Ok = cpuOnly(S, Inference, Facts);
    });
    if (MovedTo)
      MovedToParameter = MovedTo->getFunctionScopeIndex();
    return Ok;
  }

  bool HasParameters = false;
  /// The index of the constructor parameter whose device the module is
  /// moved to, last.
  std::optional<unsigned> MovedToParameter;

private:
  /// `to(device)` or `this->to(device)` as the constructor's last statement,
  /// with `device` a parameter taken by value or const reference that the
  /// body never assigns: after it, every parameter is on that device.
  static const CXXMemberCallExpr *
  finalMoveToParameter(const FunctionDecl &Constructor,
                       const ParmVarDecl *&Parameter) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Constructor.getBody());
    if (!Body || Body->body_empty())
      return nullptr;
    const auto *Call = dyn_cast<CXXMemberCallExpr>(Body->body_back());
    const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
    if (!Method || !Method->getIdentifier() || Method->getName() != "to" ||
        !isModuleBaseClass(Method->getParent()) || Call->getNumArgs() < 1 ||
        !isa<CXXThisExpr>(Call->getImplicitObjectArgument()->IgnoreImpCasts()))
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(Call->getArg(0)));
    const auto *Given = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Given || Given->getDeclContext() != &Constructor)
      return nullptr;
    QualType Type = Given->getType();
    if (Type->isReferenceType() &&
        !Type.getNonReferenceType().isConstQualified())
      return nullptr;
    llvm::SmallPtrSet<const VarDecl *, 8> Assigned;
    collectAssignedVariables(Body, Assigned);
    if (Assigned.contains(Given))
      return nullptr;
    Parameter = Given;
    return Call;
  }

  bool isCpu(const Expr *E, const DeviceInference &Inference,
             const DeviceFacts &Facts) {
    DeviceInfo Info = Inference.deviceOf(E, Facts);
    return Info.Dev && Info.Dev->Kind == DeviceKind::CPU;
  }

  bool cpuOnly(const Stmt *S, const DeviceInference &Inference,
               const DeviceFacts &Facts) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    if (Callee->isInStdNamespace())
      return true;
    if (!isLibTorchDecl(Callee))
      return false; // A helper of the user's: it may do anything.
    StringRef Name = Callee->getIdentifier() ? Callee->getName() : "";
    const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
    bool OnModule = Method && isModuleBaseClass(Method->getParent());
    if (OnModule && Name == "to")
      return false;
    if (OnModule &&
        (Name == "register_parameter" || Name == "register_buffer")) {
      HasParameters = true;
      return Call->getNumArgs() >= 2 &&
             isCpu(Call->getArg(1), Inference, Facts);
    }
    if (OnModule && Name == "register_module") {
      if (Call->getNumArgs() < 2)
        return false;
      const Expr *Registered = stripValue(Call->getArg(1));
      if (const ValueDecl *Var = referencedDecl(Registered)) {
        DeviceInfo Info = Inference.deviceOf(Registered, Facts);
        if (!Info.NoParameters &&
            !(Info.Dev && Info.Dev->Kind == DeviceKind::CPU))
          return false;
        HasParameters |= !Info.NoParameters;
        (void)Var;
        return true;
      }
      DeviceInfo Info =
          constructedModuleDevice(moduleClass(Registered->getType()), Context);
      // Only a construction, not a module handed over from elsewhere.
      bool Constructed =
          isa<CXXConstructExpr>(Registered) || isa<CallExpr>(Registered);
      if (!Constructed || (!Info.NoParameters &&
                           !(Info.Dev && Info.Dev->Kind == DeviceKind::CPU)))
        return false;
      HasParameters |= !Info.NoParameters;
      return true;
    }
    // Tensors made elsewhere than on the CPU, kept in members unregistered.
    if (isTensorType(Call->getType())) {
      std::optional<TensorCall> Op = getTensorCall(Call);
      if (Op && (Op->Name == "to" || Op->Name == "cuda" ||
                 (!Op->Self && Op->Form == TensorCallForm::Function)))
        return isCpu(Call, Inference, Facts);
    }
    return true;
  }

  ASTContext &Context;
};

/// True when \p Forward may move its input to another device itself.
static bool movesInput(const FunctionDecl &Forward) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      std::optional<TensorCall> Op = getTensorCall(Call);
      if (Op && (Op->Name == "to" || Op->Name == "cuda" || Op->Name == "cpu" ||
                 Op->Name == "type_as"))
        Found = true;
      return !Found;
    }
  } Search;
  Search.TraverseStmt(Forward.getBody());
  return Search.Found;
}

DeviceInfo constructedModuleDevice(const CXXRecordDecl *Module,
                                   ASTContext &Context,
                                   std::optional<unsigned> *MovedToParameter) {
  if (!Module)
    return {};
  StringRef Builtin = builtinModuleName(Module);
  if (!Builtin.empty()) {
    if (isContainer(Builtin))
      return {};
    if (!hasParameters(Builtin)) {
      DeviceInfo Info;
      Info.NoParameters = true;
      return Info;
    }
    return knownDevice(DeviceKind::CPU, -1, Module->getLocation());
  }
  if (isLibTorchDecl(Module) || !Module->hasDefinition())
    return {};
  Module = Module->getDefinition();

  // A module inside its own constructor: give up rather than recurse.
  static thread_local llvm::SmallPtrSet<const CXXRecordDecl *, 4> Scanning;
  if (!Scanning.insert(Module).second)
    return {};
  llvm::scope_exit Done([&] { Scanning.erase(Module); });

  for (const CXXBaseSpecifier &Base : Module->bases()) {
    const CXXRecordDecl *BaseClass = Base.getType()->getAsCXXRecordDecl();
    if (!BaseClass || !isLibTorchDecl(BaseClass))
      return {};
  }
  for (const FieldDecl *Field : Module->fields())
    if (const Expr *Init = Field->getInClassInitializer())
      if (isTensorType(Field->getType()) &&
          !llvm::isa<CXXConstructExpr>(stripValue(Init)))
        return {};

  ModuleScan Scan(Context);
  unsigned Constructors = 0;
  for (const CXXConstructorDecl *Constructor : Module->ctors()) {
    if (Constructor->isImplicit() || Constructor->isDeleted())
      continue;
    ++Constructors;
    const FunctionDecl *Definition = nullptr;
    if (!Constructor->hasBody(Definition))
      return {};
    for (const CXXCtorInitializer *Init :
         cast<CXXConstructorDecl>(Definition)->inits())
      if (Init->isWritten() && Init->getMember() &&
          isTensorType(Init->getMember()->getType()))
        return {};
    if (!Scan.scanConstructor(*Definition))
      return {};
  }
  for (const CXXMethodDecl *Method : Module->methods())
    if (Method->getIdentifier() && Method->getName() == "forward" &&
        Method->hasBody() && movesInput(*Method))
      return {};

  if (!Scan.HasParameters) {
    DeviceInfo Info;
    Info.NoParameters = true;
    return Info;
  }
  // Moved to the device its one constructor is given: the construction's
  // argument decides.
  if (Scan.MovedToParameter) {
    if (Constructors == 1 && MovedToParameter)
      *MovedToParameter = Scan.MovedToParameter;
    return {};
  }
  return knownDevice(DeviceKind::CPU, -1, Module->getLocation());
}

// ---- Public interface
// ----------------------------------------------------------

DeviceInference::DeviceInference(const FunctionDecl &Function,
                                 ASTContext &Context, DeviceFacts Entry)
    : State(std::make_unique<Impl>(Function, Context, std::move(Entry))) {
  State->run();
}

DeviceInference::~DeviceInference() = default;

void DeviceInference::forEachReachable(
    llvm::function_ref<void(const Stmt *, const DeviceFacts &)> Visit) const {
  if (!State->Dataflow)
    return;
  State->Dataflow->forEachElement(
      [&](const CFGElement &Element, const DeviceFacts &Facts) {
        if (auto S = Element.getAs<CFGStmt>())
          Visit(S->getStmt(), Facts);
      });
}

DeviceInfo DeviceInference::deviceOf(const Expr *E,
                                     const DeviceFacts &Facts) const {
  return State->evaluate(E, Facts);
}

std::optional<DeviceFacts> DeviceInference::exitFacts() const {
  if (!State->Dataflow)
    return std::nullopt;
  return State->Dataflow->entryFacts(State->Graph->getExit());
}

} // namespace gpuguard::torch
