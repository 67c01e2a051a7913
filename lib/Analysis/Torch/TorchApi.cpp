//===--- TorchApi.cpp - Recognising LibTorch in the AST -------------------===//

#include "Analysis/Torch/TorchApi.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard::torch {

/// The namespaces enclosing \p Decl, outermost first, inline and anonymous
/// ones left out: "torch::nn::functional".
static std::string namespacePath(const Decl *Decl) {
  SmallVector<StringRef, 4> Names;
  for (const DeclContext *Context = Decl->getDeclContext(); Context;
       Context = Context->getParent()) {
    const auto *Namespace = dyn_cast<NamespaceDecl>(Context);
    if (!Namespace || Namespace->isInline() ||
        Namespace->isAnonymousNamespace())
      continue;
    Names.push_back(Namespace->getName());
  }
  std::string Path;
  for (StringRef Name : llvm::reverse(Names)) {
    if (!Path.empty())
      Path += "::";
    Path += Name.str();
  }
  return Path;
}

bool isInNamespace(const Decl *Decl, StringRef Qualified) {
  if (!Decl)
    return false;
  std::string Path = namespacePath(Decl);
  return Path == Qualified ||
         (StringRef(Path).starts_with(Qualified) &&
          StringRef(Path).substr(Qualified.size()).starts_with("::"));
}

bool isLibTorchDecl(const Decl *Decl) {
  return isInNamespace(Decl, "at") || isInNamespace(Decl, "c10") ||
         isInNamespace(Decl, "torch");
}

bool isTensorType(QualType Type) {
  if (Type.isNull())
    return false;
  const auto *Record =
      Type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier())
    return false;
  StringRef Name = Record->getName();
  return (Name == "Tensor" || Name == "TensorBase") &&
         isInNamespace(Record, "at");
}

const Expr *ignoreTensorWrappers(const Expr *E) {
  while (E) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Inner))
      Inner = Cleanups->getSubExpr();
    else if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Inner))
      Inner = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Inner))
      Inner = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Inner);
             Cast && Cast->getCastKind() == CK_NoOp)
      Inner = Cast->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
             Construct && Construct->getNumArgs() >= 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      Inner = Construct->getArg(0);
    if (Inner == E)
      return E;
    E = Inner;
  }
  return E;
}

const ValueDecl *referencedDecl(const Expr *E) {
  E = ignoreTensorWrappers(E);
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl();
  return nullptr;
}

/// The ATen op an overloaded operator stands for; empty for operators that
/// are not tensor ops.
static StringRef operatorOpName(OverloadedOperatorKind Kind, unsigned NumArgs,
                                bool &Compound) {
  Compound = false;
  switch (Kind) {
  case OO_Plus:
    return NumArgs == 2 ? "add" : "positive";
  case OO_Minus:
    return NumArgs == 2 ? "sub" : "neg";
  case OO_Star:
    return "mul";
  case OO_Slash:
    return "div";
  case OO_Percent:
    return "remainder";
  case OO_Greater:
    return "gt";
  case OO_Less:
    return "lt";
  case OO_GreaterEqual:
    return "ge";
  case OO_LessEqual:
    return "le";
  case OO_EqualEqual:
    return "eq";
  case OO_ExclaimEqual:
    return "ne";
  case OO_Amp:
    return "bitwise_and";
  case OO_Pipe:
    return "bitwise_or";
  case OO_Tilde:
  case OO_Exclaim:
    return "bitwise_not";
  case OO_Subscript:
    return "select";
  default:
    break;
  }
  Compound = true;
  switch (Kind) {
  case OO_PlusEqual:
    return "add_";
  case OO_MinusEqual:
    return "sub_";
  case OO_StarEqual:
    return "mul_";
  case OO_SlashEqual:
    return "div_";
  case OO_PercentEqual:
    return "remainder_";
  case OO_AmpEqual:
    return "bitwise_and_";
  case OO_PipeEqual:
    return "bitwise_or_";
  default:
    Compound = false;
    return {};
  }
}

/// Arguments as written: default arguments are left out.
static void appendWrittenArgs(llvm::ArrayRef<const Expr *> All,
                              SmallVectorImpl<const Expr *> &Out) {
  for (const Expr *Arg : All)
    if (!isa<CXXDefaultArgExpr>(Arg->IgnoreImplicit()))
      Out.push_back(Arg);
}

std::optional<TensorCall> getTensorCall(const Expr *E) {
  E = ignoreTensorWrappers(E);
  if (!E)
    return std::nullopt;

  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
    const FunctionDecl *Callee = Operator->getDirectCallee();
    if (!Callee || !isLibTorchDecl(Callee))
      return std::nullopt;
    unsigned NumArgs = Operator->getNumArgs();
    if (NumArgs == 0 ||
        llvm::none_of(Operator->arguments(), [](const Expr *Arg) {
          return isTensorType(Arg->getType());
        }))
      return std::nullopt;
    TensorCall Call;
    Call.Call = Operator;
    Call.Callee = Callee;
    bool Compound = false;
    StringRef Name;
    if (Operator->getOperator() == OO_Equal) {
      // `t[i] = v` assigns through a view (operator= &&); `a = b` only
      // rebinds a handle and is no op.
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      if (!Method || Method->getRefQualifier() != RQ_RValue)
        return std::nullopt;
      Name = isTensorType(Operator->getArg(1)->getType()) ? "copy_" : "fill_";
      Compound = true;
    } else {
      Name = operatorOpName(Operator->getOperator(), NumArgs, Compound);
    }
    if (Name.empty())
      return std::nullopt;
    Call.Form =
        Compound ? TensorCallForm::CompoundAssign : TensorCallForm::Operator;
    Call.Name = Name.str();
    llvm::SmallVector<const Expr *, 4> Operands(Operator->arguments());
    if (isTensorType(Operands.front()->getType())) {
      Call.Self = Operands.front();
      Operands.erase(Operands.begin());
    }
    Call.Args.append(Operands.begin(), Operands.end());
    return Call;
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    const Expr *Object = Member->getImplicitObjectArgument();
    if (!Method || !Object || !Method->getIdentifier())
      return std::nullopt;
    QualType ObjectType = Object->getType();
    if (ObjectType->isPointerType())
      ObjectType = ObjectType->getPointeeType();
    if (!isTensorType(ObjectType))
      return std::nullopt;
    TensorCall Call;
    Call.Form = TensorCallForm::Method;
    Call.Name = Method->getName().str();
    Call.Self = Object;
    Call.Call = Member;
    Call.Callee = Method;
    appendWrittenArgs({Member->getArgs(), Member->getNumArgs()}, Call.Args);
    return Call;
  }

  if (const auto *Plain = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Plain->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || isa<CXXMethodDecl>(Callee) ||
        !isLibTorchDecl(Callee))
      return std::nullopt;
    bool TakesTensor = llvm::any_of(Plain->arguments(), [](const Expr *Arg) {
      return isTensorType(Arg->getType());
    });
    if (!TakesTensor && !isTensorType(Callee->getReturnType()))
      return std::nullopt;
    TensorCall Call;
    Call.Form = TensorCallForm::Function;
    Call.Name = Callee->getName().str();
    Call.Namespace = namespacePath(Callee);
    Call.Call = Plain;
    Call.Callee = Callee;
    llvm::SmallVector<const Expr *, 4> Written;
    appendWrittenArgs({Plain->getArgs(), Plain->getNumArgs()}, Written);
    if (!Written.empty() && isTensorType(Written.front()->getType())) {
      Call.Self = Written.front();
      Written.erase(Written.begin());
    }
    Call.Args = std::move(Written);
    return Call;
  }
  return std::nullopt;
}

const Expr *argumentFor(const TensorCall &Call, StringRef Param) {
  if (!Call.Callee)
    return nullptr;
  // A function's first parameter is Self, which Args leaves out.
  unsigned First = Call.Form == TensorCallForm::Function && Call.Self ? 1 : 0;
  for (unsigned I = 0; I < Call.Args.size(); ++I) {
    unsigned Index = First + I;
    if (Index >= Call.Callee->getNumParams())
      break;
    const ParmVarDecl *Decl = Call.Callee->getParamDecl(Index);
    if (Decl->getIdentifier() && Decl->getName() == Param)
      return Call.Args[I];
  }
  return nullptr;
}

SmallVector<const Expr *, 4> listElements(const Expr *E) {
  const Expr *Current = E;
  while (Current) {
    Current = Current->IgnoreParenImpCasts();
    if (const auto *List = dyn_cast<InitListExpr>(Current)) {
      if (const InitListExpr *Syntactic = List->getSyntacticForm())
        List = Syntactic;
      return SmallVector<const Expr *, 4>(List->inits());
    }
    const Expr *Inner = nullptr;
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Current))
      Inner = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Current))
      Inner = Bind->getSubExpr();
    else if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Current))
      Inner = Cleanups->getSubExpr();
    else if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(Current))
      Inner = StdList->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Current);
             Construct && Construct->getNumArgs() == 1 &&
             (Construct->isListInitialization() ||
              Construct->isStdInitListInitialization() ||
              isa<CXXStdInitializerListExpr>(
                  Construct->getArg(0)->IgnoreImplicit())))
      Inner = Construct->getArg(0);
    if (!Inner)
      break;
    Current = Inner;
  }
  return {E};
}

/// Strips the conversions LibTorch's parameter types add around a number:
/// Scalar(int), optional<int64_t>(...), TensorDataContainer(double).
static const Expr *ignoreNumberWrappers(const Expr *E) {
  while (E) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Inner))
      Inner = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Inner))
      Inner = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Inner))
      Inner = Cast->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
             Construct && Construct->getNumArgs() == 1 &&
             !isa<CXXStdInitializerListExpr>(
                 Construct->getArg(0)->IgnoreImplicit()))
      Inner = Construct->getArg(0);
    if (Inner == E)
      return E;
    E = Inner;
  }
  return E;
}

/// The initializer of a local variable that nothing changes after it, or
/// null.
static const Expr *unchangedLocalInit(const Expr *E,
                                      const ASTContext &Context) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || !Var->getInit() ||
      isa<ParmVarDecl>(Var))
    return nullptr;
  if (Var->getType().isConstQualified())
    return Var->getInit();
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return nullptr;
  ExprMutationAnalyzer Mutations(*Function->getBody(),
                                 const_cast<ASTContext &>(Context));
  return Mutations.isMutated(Var) ? nullptr : Var->getInit();
}

std::optional<int64_t> integerConstant(const Expr *E,
                                       const ASTContext &Context) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = ignoreNumberWrappers(E);
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    if (E->getType()->isIntegralOrEnumerationType())
      if (std::optional<llvm::APSInt> Value =
              E->getIntegerConstantExpr(Context))
        return Value->getExtValue();
    E = unchangedLocalInit(E, Context);
  }
  return std::nullopt;
}

std::optional<double> numberConstant(const Expr *E, const ASTContext &Context) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = ignoreNumberWrappers(E);
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult Result;
    if (E->getType()->isArithmeticType() &&
        E->EvaluateAsRValue(Result, Context) && !Result.HasSideEffects) {
      if (Result.Val.isInt())
        return static_cast<double>(Result.Val.getInt().getExtValue());
      if (Result.Val.isFloat())
        return Result.Val.getFloat().convertToDouble();
    }
    E = unchangedLocalInit(E, Context);
  }
  return std::nullopt;
}

/// True for torch::nn::Module and every class derived from it.
static bool isModuleClass(const CXXRecordDecl *Record) {
  if (!Record || !Record->hasDefinition())
    return false;
  Record = Record->getDefinition();
  auto IsModuleBase = [](const CXXRecordDecl *Base) {
    return Base->getIdentifier() && Base->getName() == "Module" &&
           isInNamespace(Base, "torch::nn");
  };
  if (IsModuleBase(Record))
    return true;
  return !Record->forallBases(
      [&](const CXXRecordDecl *Base) { return !IsModuleBase(Base); });
}

/// The first template argument of \p Record when it is a specialisation of
/// \p Template.
static const CXXRecordDecl *templateArgumentOf(const CXXRecordDecl *Record,
                                               StringRef Template) {
  const auto *Specialization =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
  if (!Specialization || !Specialization->getIdentifier() ||
      Specialization->getName() != Template)
    return nullptr;
  const TemplateArgumentList &Args = Specialization->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Args[0].getAsType()->getAsCXXRecordDecl();
}

const CXXRecordDecl *moduleClass(QualType Type) {
  if (Type.isNull())
    return nullptr;
  Type = Type.getNonReferenceType().getCanonicalType();
  if (Type->isPointerType())
    Type = Type->getPointeeType().getCanonicalType();
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return nullptr;
  if (const CXXRecordDecl *Pointee = templateArgumentOf(Record, "shared_ptr"))
    return isModuleClass(Pointee) ? Pointee : nullptr;
  if (isModuleClass(Record))
    return Record;
  if (const CXXRecordDecl *Held = templateArgumentOf(Record, "ModuleHolder"))
    return isModuleClass(Held) ? Held : nullptr;
  if (!Record->hasDefinition())
    return nullptr;
  for (const CXXBaseSpecifier &Base : Record->getDefinition()->bases())
    if (const CXXRecordDecl *Held = templateArgumentOf(
            Base.getType()->getAsCXXRecordDecl(), "ModuleHolder"))
      return isModuleClass(Held) ? Held : nullptr;
  return nullptr;
}

StringRef builtinModuleName(const CXXRecordDecl *Module) {
  if (!Module || !Module->getIdentifier() ||
      !isInNamespace(Module, "torch::nn"))
    return {};
  StringRef Name = Module->getName();
  return Name.consume_back("Impl") ? Name : StringRef();
}

std::optional<ForwardCall> getForwardCall(const Expr *E) {
  if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(E);
      Call && Call->getOperator() == OO_Call && Call->getNumArgs() >= 1)
    return ForwardCall{Call->getArg(0),
                       {Call->getArgs() + 1, Call->getNumArgs() - 1}};
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E);
      Member && Member->getMethodDecl() &&
      Member->getMethodDecl()->getIdentifier() &&
      Member->getMethodDecl()->getName() == "forward" &&
      Member->getImplicitObjectArgument())
    return ForwardCall{Member->getImplicitObjectArgument(),
                       {Member->getArgs(), Member->getNumArgs()}};
  return std::nullopt;
}

const FunctionDecl *summarisableDefinition(const FunctionDecl &Callee) {
  const FunctionDecl *Definition = Callee.getDefinition();
  if (!Definition || !Definition->hasBody() ||
      Definition->isDependentContext() || isLibTorchDecl(Definition))
    return nullptr;
  return Definition;
}

const FunctionDecl *moduleForward(const CXXRecordDecl *Module) {
  if (!Module || isLibTorchDecl(Module) || !Module->hasDefinition())
    return nullptr;
  const CXXMethodDecl *Found = nullptr;
  for (const CXXMethodDecl *Method : Module->getDefinition()->methods())
    if (Method->getIdentifier() && Method->getName() == "forward") {
      if (Found)
        return nullptr;
      Found = Method;
    }
  return Found;
}

const FunctionDecl *calledForward(const Expr *E) {
  std::optional<ForwardCall> Call = getForwardCall(E);
  const CXXRecordDecl *Module =
      Call ? moduleClass(Call->Object->getType()) : nullptr;
  if (!Module || isLibTorchDecl(Module))
    return nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
    return Member->getMethodDecl();
  return moduleForward(Module);
}

std::optional<ForwardCall> getModuleCall(const Expr *E) {
  std::optional<ForwardCall> Call = getForwardCall(E);
  if (!Call || !moduleClass(Call->Object->getType()))
    return std::nullopt;
  return Call;
}

SmallVector<const CXXMemberCallExpr *, 4> optionChain(const Expr *E,
                                                      const Expr **Base) {
  SmallVector<const CXXMemberCallExpr *, 4> Chain;
  E = ignoreTensorWrappers(E);
  while (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const Expr *Object = Call->getImplicitObjectArgument();
    if (!Object || Object->getType()->isPointerType())
      break;
    Chain.push_back(Call);
    E = ignoreTensorWrappers(Object);
  }
  std::reverse(Chain.begin(), Chain.end());
  if (Base)
    *Base = E;
  return Chain;
}

bool requestsInplace(const Expr *Options, const ASTContext &Context) {
  for (int Depth = 0; Options && Depth < 4; ++Depth) {
    const Expr *Base = nullptr;
    // The last `inplace(...)` of the chain decides.
    for (const CXXMemberCallExpr *Call :
         llvm::reverse(optionChain(Options, &Base))) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (Method && Method->getIdentifier() && Method->getName() == "inplace" &&
          Call->getNumArgs() == 1) {
        std::optional<int64_t> Value =
            integerConstant(Call->getArg(0), Context);
        return Value && *Value != 0;
      }
    }
    if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Base)) {
      const CXXConstructorDecl *Constructor = Construct->getConstructor();
      for (unsigned I = 0;
           I < Construct->getNumArgs() && I < Constructor->getNumParams();
           ++I) {
        const ParmVarDecl *Param = Constructor->getParamDecl(I);
        if (Param->getIdentifier() && Param->getName() == "inplace" &&
            !isa<CXXDefaultArgExpr>(Construct->getArg(I))) {
          std::optional<int64_t> Value =
              integerConstant(Construct->getArg(I), Context);
          return Value && *Value != 0;
        }
      }
      return false;
    }
    Options = Base ? unchangedLocalInit(Base, Context) : nullptr;
  }
  return false;
}

std::string inplaceOpOfModule(const CXXRecordDecl *Impl) {
  StringRef Name = builtinModuleName(Impl);
  if (Name.empty())
    return "";
  // The modules whose options have `inplace`, by the op their forward()
  // runs (torch/csrc/api/src/nn/modules/{activation,dropout}.cpp).
  StringRef Op = llvm::StringSwitch<StringRef>(Name)
                     .Case("ReLU", "relu")
                     .Case("ReLU6", "relu6")
                     .Case("LeakyReLU", "leaky_relu")
                     .Case("RReLU", "rrelu")
                     .Case("ELU", "elu")
                     .Case("CELU", "celu")
                     .Case("SELU", "selu")
                     .Case("Hardtanh", "hardtanh")
                     .Case("Threshold", "threshold")
                     .Case("Dropout", "dropout")
                     .Case("Dropout2d", "feature_dropout")
                     .Case("Dropout3d", "feature_dropout")
                     .Case("AlphaDropout", "alpha_dropout")
                     .Case("FeatureAlphaDropout", "feature_alpha_dropout")
                     .Default("");
  return Op.empty() ? "" : Op.str() + "_";
}

/// The module variable or member a module call is made on: `relu` in
/// `relu(x)`, `relu->forward(x)` and `(*relu).forward(x)`.
static const ValueDecl *moduleHolderDecl(const Expr *Object) {
  Object = ignoreTensorWrappers(Object);
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Object);
      Operator && Operator->getNumArgs() == 1 &&
      (Operator->getOperator() == OO_Arrow ||
       Operator->getOperator() == OO_Star))
    Object = Operator->getArg(0);
  return referencedDecl(Object);
}

std::optional<OptionInplaceWrite> getOptionInplaceWrite(
    const Expr *E, const ASTContext &Context,
    llvm::function_ref<bool(const ValueDecl *)> IsInplaceModule) {
  if (std::optional<ForwardCall> Module = getModuleCall(E)) {
    const ValueDecl *Holder = moduleHolderDecl(Module->Object);
    std::string Op = inplaceOpOfModule(moduleClass(Module->Object->getType()));
    if (Op.empty() || Module->Args.empty() || !Holder ||
        !IsInplaceModule(Holder))
      return std::nullopt;
    return OptionInplaceWrite{E, Module->Args.front(), Op};
  }
  std::optional<TensorCall> Call = getTensorCall(E);
  if (!Call || Call->Form != TensorCallForm::Function || !Call->Self ||
      !Call->Callee || Call->mutatesSelf() ||
      !StringRef(Call->Namespace).starts_with("torch::nn::functional"))
    return std::nullopt;
  // The options follow the input: `relu(x, options)`, or the flag of the
  // bool overloads (`detail::relu(x, inplace)`).
  for (unsigned I = 0; I < Call->Args.size(); ++I) {
    if (I + 1 >= Call->Callee->getNumParams())
      break;
    const ParmVarDecl *Param = Call->Callee->getParamDecl(I + 1);
    bool Inplace = false;
    if (Param->getIdentifier() && Param->getName() == "inplace") {
      std::optional<int64_t> Value = integerConstant(Call->Args[I], Context);
      Inplace = Value && *Value != 0;
    } else if (Param->getType()->getAsCXXRecordDecl() ||
               Param->getType()->isReferenceType()) {
      Inplace = requestsInplace(Call->Args[I], Context);
    }
    if (Inplace)
      return OptionInplaceWrite{E, Call->Self, Call->Name + "_"};
  }
  return std::nullopt;
}

} // namespace gpuguard::torch
