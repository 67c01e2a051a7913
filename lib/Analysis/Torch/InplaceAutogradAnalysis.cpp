//===--- InplaceAutogradAnalysis.cpp - In-place writes autograd rejects ---===//

#include "Analysis/Torch/InplaceAutogradAnalysis.h"
#include "Analysis/Core/EnclosingNodes.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Torch/TorchApi.h"
#include "Analysis/Torch/TorchOps.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/CFG.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace gpuguard::torch {
namespace {

/// A tensor that provably requires grad.
struct GradFact {
  bool Leaf = false;
  SourceLocation Origin;
  bool operator==(const GradFact &Other) const {
    return Leaf == Other.Leaf && Origin == Other.Origin;
  }
};

/// The op that saved a tensor for backward.
struct SaveFact {
  const Expr *Op = nullptr;
  std::string Name;
  /// The tensor as the op saves it: an operand, or the op itself when it
  /// saves its result.
  const Expr *Saved = nullptr;
  bool operator==(const SaveFact &Other) const { return Op == Other.Op; }
};

struct AutogradFacts {
  /// Must: tensors that require grad on every path.
  std::map<const ValueDecl *, GradFact> Grad;
  /// May: tensors some path saved for backward since the last backward().
  std::map<const ValueDecl *, SaveFact> Saved;
  /// Must: variables that are views of another tensor.
  std::map<const ValueDecl *, const ValueDecl *> ViewOf;
};

/// What an expression's tensor is, as far as autograd is concerned.
struct TensorInfo {
  bool RequiresGrad = false;
  bool Leaf = false;
  SourceLocation Origin;
  /// The variable whose storage the tensor is, after views and references.
  const ValueDecl *Decl = nullptr;
  bool View = false;
  /// A detach() of Decl: the same storage, none of its autograd facts.
  bool Detached = false;
};

bool isFalseConstant(const Expr *E, const ASTContext &Context) {
  std::optional<int64_t> Value = integerConstant(E, Context);
  return Value && *Value == 0;
}

/// A `requires_grad(...)` option inside \p E that is not `false`.
const CallExpr *requiresGradOption(const Stmt *S, const ASTContext &Context) {
  if (!S)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() &&
        Callee->getName() == "requires_grad" && isLibTorchDecl(Callee) &&
        !isTensorType(Callee->getReturnType()) &&
        !Callee->getReturnType()->isBooleanType()) {
      const Expr *Arg =
          Call->getNumArgs() ? Call->getArg(Call->getNumArgs() - 1) : nullptr;
      if (Arg && !isa<CXXDefaultArgExpr>(Arg->IgnoreImplicit()) &&
          isFalseConstant(Arg, Context))
        return nullptr;
      return Call;
    }
  }
  for (const Stmt *Child : S->children()) {
    // An operand that is itself a tensor made with the option
    // (`torch::sigmoid(x * torch::randn(n, torch::requires_grad()))`) does
    // not make the op's result a leaf.
    if (const auto *Operand = dyn_cast_or_null<Expr>(Child);
        Operand && isTensorType(Operand->getType()))
      continue;
    if (const CallExpr *Found = requiresGradOption(Child, Context))
      return Found;
  }
  return nullptr;
}

bool isModuleMethodCall(const Expr *E, StringRef Name,
                        const CXXMemberCallExpr **Out = nullptr) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call || !Call->getMethodDecl() ||
      !Call->getMethodDecl()->getIdentifier() ||
      Call->getMethodDecl()->getName() != Name)
    return false;
  const CXXRecordDecl *Class = Call->getMethodDecl()->getParent();
  if (!Class || !Class->getIdentifier() || Class->getName() != "Module" ||
      !isInNamespace(Class, "torch::nn"))
    return false;
  if (Out)
    *Out = Call;
  return true;
}

/// Tensor members of LibTorch's own modules that are parameters.
bool isBuiltinParameter(const ValueDecl *D) {
  const auto *Field = dyn_cast<FieldDecl>(D);
  if (!Field || !Field->getIdentifier() || !isTensorType(Field->getType()))
    return false;
  if (builtinModuleName(dyn_cast<CXXRecordDecl>(Field->getParent())).empty())
    return false;
  StringRef Name = Field->getName();
  return Name.ends_with("weight") || Name.ends_with("bias") ||
         Name.starts_with("weight_") || Name.starts_with("bias_");
}

/// True when \p Module, one of its bases or one of its submodule members
/// holds a parameter: a built-in module's weight or bias, or a member
/// registered with register_parameter.
bool holdsParameters(const CXXRecordDecl *Module,
                     const ParameterFields &Parameters, unsigned Depth = 0) {
  if (!Module || Depth > 8 || !Module->hasDefinition())
    return false;
  Module = Module->getDefinition();
  for (const FieldDecl *Field : Module->fields()) {
    if (Parameters.count(Field) || isBuiltinParameter(Field))
      return true;
    if (const CXXRecordDecl *Sub = moduleClass(Field->getType());
        Sub && Sub != Module && holdsParameters(Sub, Parameters, Depth + 1))
      return true;
  }
  for (const CXXBaseSpecifier &Base : Module->bases())
    if (holdsParameters(Base.getType()->getAsCXXRecordDecl(), Parameters,
                        Depth + 1))
      return true;
  return false;
}

/// The module a call runs: `inner(x)` on a module holder or
/// `inner->forward(x)`; null for any other expression.
const CXXRecordDecl *calledModule(const Expr *E) {
  std::optional<ForwardCall> Call = getForwardCall(E);
  return Call ? moduleClass(Call->Object->getType()) : nullptr;
}

/// The function of the file that \p E calls: a helper, a method, or the
/// forward() of a user's module called as `m(x)` or `m->forward(x)`.
const FunctionDecl *calledFunctionOfFile(const Expr *E) {
  if (calledModule(E))
    return calledForward(E);
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && !isLibTorchDecl(Callee) ? Callee : nullptr;
}

/// A method named forward of a class derived from torch::nn::Module: the
/// graph it builds goes back to the caller, who runs backward() through it.
bool isModuleForward(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  return Method && !Method->isStatic() && Method->getIdentifier() &&
         Method->getName() == "forward" &&
         moduleClass(Method->getThisType()) != nullptr;
}

bool isBackwardCall(const TensorCall &Call) {
  if (Call.Form == TensorCallForm::Method)
    return Call.Name == "backward";
  return Call.Form == TensorCallForm::Function &&
         (Call.Name == "backward" || Call.Name == "grad") &&
         StringRef(Call.Namespace).contains("autograd");
}

/// The calls a CFG element evaluates itself (not its wrappers).
std::optional<TensorCall> elementCall(const Stmt *S) {
  if (!isa<CallExpr>(S))
    return std::nullopt;
  std::optional<TensorCall> Call = getTensorCall(cast<Expr>(S));
  if (!Call || Call->Call != S)
    return std::nullopt;
  return Call;
}

bool writesSelf(const TensorCall &Call) {
  if (Call.Form == TensorCallForm::CompoundAssign)
    return true;
  std::optional<InplaceOpVariants> Variants = inplaceOp(Call.Name);
  if (!Variants || !Call.Self)
    return false;
  return Call.Form == TensorCallForm::Method ? Variants->Method
                                             : Variants->Function;
}

/// Whether a module is built with in-place options: `torch::nn::ReLU(
/// ReLUOptions().inplace(true))`, through `register_module` and the holder's
/// conversions.
bool constructedInplace(const Expr *E, const ASTContext &Context) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = ignoreTensorWrappers(E);
    // `torch::nn::ReLU(options)`: a holder converted from its options.
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() ||
          Callee->getName() != "register_module" || Call->getNumArgs() == 0)
        return false;
      E = Call->getArg(Call->getNumArgs() - 1);
      continue;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      return false;
    if (llvm::any_of(Construct->arguments(), [&](const Expr *Arg) {
          return requestsInplace(Arg, Context);
        }))
      return true;
    if (Construct->getNumArgs() != 1)
      return false;
    E = Construct->getArg(0);
  }
  return false;
}

/// An in-place write a CFG element makes, by its name or by its options.
struct InplaceWrite {
  const Expr *Call = nullptr;
  const Expr *Self = nullptr;
  std::string OpName;
  /// The write inside the called function, when Call is a call of a function
  /// of the file that writes its argument in place.
  const Expr *HelperOp = nullptr;
};

/// What a function of the translation unit returns, as far as autograd is
/// concerned, the same on every path that returns.
struct HelperGrad {
  bool RequiresGrad = false;
  bool Leaf = false;
  /// Where the helper made it require grad.
  SourceLocation Origin;
  /// The op in the helper that saved for backward the tensor it returns, on
  /// every path that returns (`return torch::sigmoid(h);`).
  const Expr *SavingOp = nullptr;
  std::string SavingName;
  /// A tensor parameter the helper writes in place on every path
  /// (`void scale(torch::Tensor t) { t.mul_(2); }`), and that write.
  unsigned WrittenParameter = 0;
  const Expr *ParameterWrite = nullptr;
  std::string ParameterWriteName;
};

class Model {
public:
  using Facts = AutogradFacts;

  Model(ASTContext &Context, const ParameterFields &Parameters,
        const InplaceModuleFields &InplaceModules)
      : Context(Context), Parameters(Parameters),
        InplaceModules(InplaceModules) {}

  std::optional<InplaceWrite> write(const Stmt *S) const;

  bool transfer(const CFGElement &Element, Facts &State) const;
  void edge(const CFGBlock &, unsigned, Facts &) const {}
  bool join(Facts &Into, const Facts &Incoming) const;
  void widen(Facts &State) const {
    State.Grad.clear();
    State.ViewOf.clear();
  }

  TensorInfo info(const Expr *E, const Facts &State, unsigned Depth = 0) const;
  bool noGrad(const Stmt *S) const {
    auto [It, Inserted] = NoGradCache.try_emplace(S, false);
    if (Inserted)
      It->second = isUnderNoGrad(*S, Context);
    return It->second;
  }
  std::optional<SavedOperands> saves(const TensorCall &Call,
                                     const Facts &State) const;

private:
  ASTContext &Context;
  const ParameterFields &Parameters;
  const InplaceModuleFields &InplaceModules;
  mutable DenseMap<const Stmt *, bool> NoGradCache;
  mutable DenseMap<const FunctionDecl *, HelperGrad> HelperGrads;

  HelperGrad helperGrad(const FunctionDecl &Callee) const;
  HelperGrad summariseHelper(const FunctionDecl &Callee) const;

  const ValueDecl *resolve(const ValueDecl *D, const Facts &State) const;
  void bind(const ValueDecl *D, const Expr *Init, Facts &State) const;
  void call(const TensorCall &Call, Facts &State) const;
  const CXXForRangeStmt *rangeLoopOf(const DeclStmt *S) const;
};

std::optional<InplaceWrite> Model::write(const Stmt *S) const {
  if (std::optional<TensorCall> Call = elementCall(S);
      Call && writesSelf(*Call))
    return InplaceWrite{Call->Call, Call->Self, Call->Name};
  if (!isa<CallExpr>(S))
    return std::nullopt;
  auto IsInplaceModule = [&](const ValueDecl *D) {
    if (const auto *Field = dyn_cast<FieldDecl>(D))
      return InplaceModules.contains(Field);
    const auto *Var = dyn_cast<VarDecl>(D);
    return Var && Var->hasLocalStorage() && Var->getInit() &&
           constructedInplace(Var->getInit(), Context);
  };
  if (std::optional<OptionInplaceWrite> Write =
          getOptionInplaceWrite(cast<Expr>(S), Context, IsInplaceModule))
    return InplaceWrite{Write->Call, Write->Written, Write->OpName};
  // A function of the file that writes an argument in place on every path;
  // a member call's arguments follow its object.
  const auto *Call = cast<CallExpr>(S);
  if (isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  const FunctionDecl *Callee = calledFunctionOfFile(Call);
  // Only a function with a tensor parameter it may write is worth a summary:
  // most calls in most files have none.
  if (Callee && any_of(Callee->parameters(), [](const ParmVarDecl *Parameter) {
        QualType Type = Parameter->getType();
        return isTensorType(Type) &&
               !Type.getNonReferenceType().isConstQualified();
      })) {
    HelperGrad Summary = helperGrad(*Callee);
    if (Summary.ParameterWrite && Summary.WrittenParameter < Call->getNumArgs())
      return InplaceWrite{Call, Call->getArg(Summary.WrittenParameter),
                          Summary.ParameterWriteName, Summary.ParameterWrite};
  }
  return std::nullopt;
}

/// Whether \p Body assigns \p Parameter a new tensor anywhere.
static bool isReassigned(const ParmVarDecl &Parameter, const Stmt *Body) {
  SmallVector<const Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    const Expr *Target = nullptr;
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
        Operator && Operator->getOperator() == OO_Equal)
      Target = Operator->getArg(0);
    else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
             Assign && Assign->isAssignmentOp())
      Target = Assign->getLHS();
    if (Target && referencedDecl(Target) == &Parameter)
      return true;
    append_range(Work, S->children());
  }
  return false;
}

/// The tensor a reference or view variable stands for.
const ValueDecl *Model::resolve(const ValueDecl *D, const Facts &State) const {
  for (int Depth = 0; D && Depth < 8; ++Depth) {
    if (const auto *Var = dyn_cast<VarDecl>(D);
        Var && Var->getType()->isReferenceType() && Var->getInit())
      if (const ValueDecl *Target = referencedDecl(Var->getInit());
          Target && Target != D) {
        D = Target;
        continue;
      }
    auto It = State.ViewOf.find(D);
    if (It == State.ViewOf.end() || It->second == D)
      return D;
    D = It->second;
  }
  return D;
}

TensorInfo Model::info(const Expr *E, const Facts &State,
                       unsigned Depth) const {
  TensorInfo Result;
  E = ignoreTensorWrappers(E);
  if (!E || Depth > 16)
    return Result;

  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E);
      Operator && Operator->getOperator() == OO_Subscript &&
      isTensorType(Operator->getArg(0)->getType())) {
    Result = info(Operator->getArg(0), State, Depth + 1);
    Result.View = true;
    return Result;
  }

  if (const ValueDecl *Named = referencedDecl(E)) {
    const ValueDecl *D = resolve(Named, State);
    Result.Decl = D;
    Result.View = D != Named;
    if (auto It = State.Grad.find(D); It != State.Grad.end()) {
      Result.RequiresGrad = true;
      Result.Leaf = It->second.Leaf;
      Result.Origin = It->second.Origin;
    } else if (const auto *Field = dyn_cast<FieldDecl>(D)) {
      if (auto Registered = Parameters.find(Field);
          Registered != Parameters.end()) {
        Result.RequiresGrad = Result.Leaf = true;
        Result.Origin = Registered->second;
      } else if (isBuiltinParameter(D)) {
        Result.RequiresGrad = Result.Leaf = true;
      }
    }
    return Result;
  }

  // A module with parameters returns a tensor that requires grad (its
  // parameters do, outside no-grad).
  if (const CXXRecordDecl *Module = calledModule(E)) {
    Result.RequiresGrad = !noGrad(E) && holdsParameters(Module, Parameters);
    // An activation or dropout module passes its input's on.
    if (!Result.RequiresGrad && !noGrad(E) &&
        !inplaceOpOfModule(Module).empty())
      if (std::optional<ForwardCall> Call = getModuleCall(E);
          Call && !Call->Args.empty())
        Result.RequiresGrad =
            info(Call->Args.front(), State, Depth + 1).RequiresGrad;
    // A user's module returns what its forward() returns.
    if (!Result.RequiresGrad && !noGrad(E))
      if (const FunctionDecl *Forward = calledForward(E))
        Result.RequiresGrad = helperGrad(*Forward).RequiresGrad;
    return Result;
  }

  const CXXMemberCallExpr *Register = nullptr;
  if (isModuleMethodCall(E, "register_parameter", &Register)) {
    if (Register->getNumArgs() < 3 ||
        isa<CXXDefaultArgExpr>(Register->getArg(2)->IgnoreImplicit()) ||
        !isFalseConstant(Register->getArg(2), Context)) {
      Result.RequiresGrad = Result.Leaf = true;
      Result.Origin = E->getBeginLoc();
    }
    return Result;
  }

  // A function of the file that returns a tensor requiring grad on every
  // path (`auto w = make_weights(); w.add_(1)`).
  if (isa<CallExpr>(E))
    if (const FunctionDecl *Callee = calledFunctionOfFile(E)) {
      HelperGrad Summary = helperGrad(*Callee);
      // Ops in the helper record no graph when its caller is under no-grad;
      // a leaf made there requires grad all the same.
      if (Summary.Leaf || (Summary.RequiresGrad && !noGrad(E))) {
        Result.RequiresGrad = true;
        Result.Leaf = Summary.Leaf;
        Result.Origin = Summary.Origin;
        return Result;
      }
    }

  std::optional<TensorCall> Call = getTensorCall(E);
  if (!Call)
    return Result;
  StringRef Name = Call->Name;
  if (Name == "requires_grad_" || Name == "set_requires_grad") {
    if (Call->Self)
      Result = info(Call->Self, State, Depth + 1);
    if (Call->Args.empty() || !isFalseConstant(Call->Args.front(), Context)) {
      Result.RequiresGrad = Result.Leaf = true;
      Result.Origin = E->getBeginLoc();
    }
    return Result;
  }
  if (writesSelf(*Call))
    return info(Call->Self, State, Depth + 1);
  if (Name == "detach" || Name == "data") {
    // Shares the storage and its version counter, not the autograd history:
    // `y.detach().zero_()` changes what y's backward reads, while a leaf's
    // detached copy may be written.
    if (Call->Self)
      Result.Decl = info(Call->Self, State, Depth + 1).Decl;
    Result.View = true;
    Result.Detached = true;
    return Result;
  }
  if (Call->Self && isViewOp(Name)) {
    Result = info(Call->Self, State, Depth + 1);
    Result.View = true;
    return Result;
  }
  if (!Call->Self || Call->Form == TensorCallForm::Function)
    if (const CallExpr *Option = requiresGradOption(E, Context)) {
      Result.RequiresGrad = Result.Leaf = true;
      Result.Origin = Option->getBeginLoc();
      return Result;
    }
  if (noGrad(E) || !isDifferentiableOp(Name))
    return Result;
  auto Input = [&](const Expr *Arg) {
    return isTensorType(Arg->getType()) &&
           info(Arg, State, Depth + 1).RequiresGrad;
  };
  if ((Call->Self && Input(Call->Self)) || any_of(Call->Args, Input))
    Result.RequiresGrad = true;
  return Result;
}

HelperGrad Model::helperGrad(const FunctionDecl &Callee) const {
  auto [It, Inserted] =
      HelperGrads.try_emplace(Callee.getCanonicalDecl(), HelperGrad());
  if (Inserted)
    It->second = summariseHelper(Callee);
  return It->second;
}

/// Follows a helper's body with the caller's parameter and in-place module
/// fields; its own parameters are unknown, so a result that requires grad
/// only through an argument stays unknown. Helpers are followed a few calls
/// deep.
HelperGrad Model::summariseHelper(const FunctionDecl &Callee) const {
  static thread_local unsigned Nesting = 0;
  constexpr unsigned MaxNesting = 3;
  const FunctionDecl *Definition = summarisableDefinition(Callee);
  if (!Definition || Nesting >= MaxNesting)
    return {};
  std::unique_ptr<CFG> Graph = buildDataflowCFG(*Definition, Context);
  if (!Graph)
    return {};
  ++Nesting;
  Model Inner(Context, Parameters, InplaceModules);
  ForwardDataflow<Model> Dataflow(*Graph, Inner);
  Dataflow.run(AutogradFacts());
  std::optional<HelperGrad> Returned;
  bool EverySaved = true;
  ParentMap Parents(Definition->getBody());
  // The first write of a tensor parameter that runs on every path.
  unsigned WrittenParameter = 0;
  const Expr *ParameterWrite = nullptr;
  std::string ParameterWriteName;
  auto NoteParameterWrite = [&](const Stmt *S, const AutogradFacts &State) {
    std::optional<InplaceWrite> Write = Inner.write(S);
    if (ParameterWrite || !Write)
      return;
    const auto *Parameter =
        dyn_cast_or_null<ParmVarDecl>(Inner.info(Write->Self, State).Decl);
    if (!Parameter || !isTensorType(Parameter->getType()) ||
        Parameter->getType().getNonReferenceType().isConstQualified() ||
        isReassigned(*Parameter, Definition->getBody()) ||
        !runsOnEveryPath(*Write->Call, *Definition, Parents, Context))
      return;
    WrittenParameter = Parameter->getFunctionScopeIndex();
    ParameterWrite = Write->HelperOp ? Write->HelperOp : Write->Call;
    ParameterWriteName = Write->OpName;
  };
  for (const CFGBlock *Block : *Graph) {
    const std::optional<AutogradFacts> &Entry = Dataflow.entryFacts(*Block);
    if (!Entry)
      continue;
    AutogradFacts State = *Entry;
    for (const CFGElement &Element : *Block) {
      std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
      if (S)
        NoteParameterWrite(S->getStmt(), State);
      if (const auto *Return =
              S ? dyn_cast<ReturnStmt>(S->getStmt()) : nullptr) {
        const Expr *Value = ignoreTensorWrappers(Return->getRetValue());
        TensorInfo Info = Value ? Inner.info(Value, State) : TensorInfo();
        // The op that saved the returned tensor: the returned op itself,
        // or the one that saved the returned variable.
        const Expr *SavingOp = nullptr;
        std::string SavingName;
        if (std::optional<TensorCall> Call =
                Value ? getTensorCall(Value) : std::nullopt) {
          if (std::optional<SavedOperands> Saved = Inner.saves(*Call, State);
              Saved && Saved->Result) {
            SavingOp = Call->Call;
            SavingName = Call->Name;
          }
        } else if (auto It = Info.Decl ? State.Saved.find(Info.Decl)
                                       : State.Saved.end();
                   It != State.Saved.end()) {
          SavingOp = It->second.Op;
          SavingName = It->second.Name;
        }
        EverySaved &= SavingOp != nullptr;
        if (!Returned) {
          Returned.emplace();
          Returned->RequiresGrad = Info.RequiresGrad;
          Returned->Leaf = Info.Leaf;
          Returned->Origin = Info.Origin;
          Returned->SavingOp = SavingOp;
          Returned->SavingName = SavingName;
        } else {
          Returned->RequiresGrad &= Info.RequiresGrad;
          Returned->Leaf &= Info.Leaf;
        }
      }
      Inner.transfer(Element, State);
    }
  }
  --Nesting;
  if (Returned && !EverySaved)
    Returned->SavingOp = nullptr;
  HelperGrad Summary = Returned.value_or(HelperGrad());
  Summary.WrittenParameter = WrittenParameter;
  Summary.ParameterWrite = ParameterWrite;
  Summary.ParameterWriteName = ParameterWriteName;
  return Summary;
}

std::optional<SavedOperands> Model::saves(const TensorCall &Call,
                                          const Facts &State) const {
  if (noGrad(Call.Call))
    return std::nullopt;
  SmallVector<OpArgument, 4> Args;
  SmallVector<const Expr *, 4> Operands;
  if (Call.Self)
    Operands.push_back(Call.Self);
  Operands.append(Call.Args.begin(), Call.Args.end());
  bool AnyRequiresGrad = false;
  for (const Expr *Operand : Operands) {
    OpArgument Arg;
    Arg.IsTensor = isTensorType(Operand->getType());
    Arg.RequiresGrad = Arg.IsTensor && info(Operand, State).RequiresGrad;
    AnyRequiresGrad |= Arg.RequiresGrad;
    Args.push_back(Arg);
  }
  if (!AnyRequiresGrad)
    return std::nullopt;
  return savedForBackward(Call.Name, Args);
}

const CXXForRangeStmt *Model::rangeLoopOf(const DeclStmt *S) const {
  for (const DynTypedNode &Parent : Context.getParents(*S))
    if (const auto *Loop = Parent.get<CXXForRangeStmt>())
      if (Loop->getLoopVarStmt() == S)
        return Loop;
  return nullptr;
}

void Model::bind(const ValueDecl *D, const Expr *Init, Facts &State) const {
  // The new value may read the old one (`h = act(h)`).
  TensorInfo Value = Init ? info(Init, State) : TensorInfo();
  State.Grad.erase(D);
  State.Saved.erase(D);
  State.ViewOf.erase(D);
  if (!Init)
    return;
  if (Value.RequiresGrad)
    State.Grad[D] = GradFact{Value.Leaf, Value.Origin};
  if (Value.View && !Value.Detached && Value.Decl && Value.Decl != D)
    State.ViewOf[D] = Value.Decl;
  if (std::optional<TensorCall> Call = getTensorCall(Init)) {
    if (std::optional<SavedOperands> Saved = saves(*Call, State);
        Saved && Saved->Result)
      State.Saved[D] = SaveFact{Call->Call, Call->Name, Call->Call};
  } else if (const Expr *Called = ignoreTensorWrappers(Init);
             Called && isa<CallExpr>(Called) && !noGrad(Called)) {
    // What a helper or a sub-module returns, saved by an op of its own.
    if (const FunctionDecl *Callee = calledFunctionOfFile(Called)) {
      HelperGrad Summary = helperGrad(*Callee);
      if (Summary.SavingOp)
        State.Saved[D] =
            SaveFact{Summary.SavingOp, Summary.SavingName, Summary.SavingOp};
    }
  }
}

void Model::call(const TensorCall &Call, Facts &State) const {
  if (isBackwardCall(Call)) {
    // Only a retain_graph that is certainly true keeps the saves.
    std::optional<int64_t> RetainGraph =
        Call.Form == TensorCallForm::Method && Call.Args.size() > 1
            ? integerConstant(Call.Args[1], Context)
            : std::nullopt;
    bool Retain = RetainGraph && *RetainGraph != 0;
    if (!Retain)
      State.Saved.clear();
    return;
  }
  if (Call.Name == "requires_grad_" || Call.Name == "set_requires_grad") {
    TensorInfo Self = info(Call.Self, State);
    if (!Self.Decl)
      return;
    if (!Call.Args.empty() && isFalseConstant(Call.Args.front(), Context))
      State.Grad.erase(Self.Decl);
    else
      State.Grad[Self.Decl] = GradFact{true, Call.Call->getBeginLoc()};
    return;
  }
  std::optional<SavedOperands> Saved = saves(Call, State);
  if (!Saved)
    return;
  for (unsigned Index : Saved->Arguments) {
    const Expr *Operand = !Call.Self
                              ? Call.Args[Index]
                              : (Index == 0 ? Call.Self : Call.Args[Index - 1]);
    if (const ValueDecl *D = info(Operand, State).Decl)
      State.Saved[D] = SaveFact{Call.Call, Call.Name, Operand};
  }
}

bool Model::transfer(const CFGElement &Element, Facts &State) const {
  std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>();
  if (!Statement)
    return true;
  const Stmt *S = Statement->getStmt();

  if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Declared : Declaration->decls()) {
      const auto *Var = dyn_cast<VarDecl>(Declared);
      if (!Var || !isTensorType(Var->getType()))
        continue;
      if (const CXXForRangeStmt *Loop = rangeLoopOf(Declaration)) {
        State.Grad.erase(Var);
        State.Saved.erase(Var);
        const Expr *Range = ignoreTensorWrappers(Loop->getRangeInit());
        if (isModuleMethodCall(Range, "parameters"))
          State.Grad[Var] = GradFact{true, Range->getBeginLoc()};
        continue;
      }
      // A reference is the tensor it binds to; resolve() follows it.
      if (Var->getType()->isReferenceType() && Var->getInit() &&
          referencedDecl(Var->getInit()))
        continue;
      bind(Var, Var->getInit(), State);
    }
    return true;
  }

  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
      Operator && Operator->getOperator() == OO_Equal &&
      Operator->getNumArgs() == 2 &&
      isTensorType(Operator->getArg(0)->getType()) &&
      !getTensorCall(Operator)) {
    if (const ValueDecl *D = referencedDecl(Operator->getArg(0)))
      bind(resolve(D, State), Operator->getArg(1), State);
    return true;
  }

  if (std::optional<TensorCall> Call = elementCall(S))
    this->call(*Call, State);
  return true;
}

bool Model::join(Facts &Into, const Facts &Incoming) const {
  bool Changed = false;
  for (auto It = Into.Grad.begin(); It != Into.Grad.end();) {
    auto Other = Incoming.Grad.find(It->first);
    if (Other == Incoming.Grad.end()) {
      It = Into.Grad.erase(It);
      Changed = true;
      continue;
    }
    if (It->second.Leaf && !Other->second.Leaf) {
      It->second.Leaf = false;
      Changed = true;
    }
    ++It;
  }
  for (auto It = Into.ViewOf.begin(); It != Into.ViewOf.end();) {
    auto Other = Incoming.ViewOf.find(It->first);
    if (Other == Incoming.ViewOf.end() || Other->second != It->second) {
      It = Into.ViewOf.erase(It);
      Changed = true;
      continue;
    }
    ++It;
  }
  for (const auto &[D, Save] : Incoming.Saved)
    Changed |= Into.Saved.emplace(D, Save).second;
  return Changed;
}

/// Blocks from which some path reaches a backward() call, or the function's
/// exit when \p ExitRunsBackward.
std::vector<bool> blocksReachingBackward(const CFG &Graph,
                                         bool ExitRunsBackward) {
  std::vector<bool> Reaches(Graph.getNumBlockIDs(), false);
  if (ExitRunsBackward)
    Reaches[Graph.getExit().getBlockID()] = true;
  for (const CFGBlock *Block : Graph)
    for (const CFGElement &Element : *Block)
      if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
        if (std::optional<TensorCall> Call = elementCall(S->getStmt());
            Call && isBackwardCall(*Call))
          Reaches[Block->getBlockID()] = true;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *Block : Graph) {
      if (Reaches[Block->getBlockID()])
        continue;
      for (const CFGBlock *Succ : Block->succs())
        if (Succ && Reaches[Succ->getBlockID()]) {
          Reaches[Block->getBlockID()] = true;
          Changed = true;
          break;
        }
    }
  }
  return Reaches;
}

/// The grad mode a declaration of a LibTorch guard sets for the rest of
/// its block: off for NoGradGuard and InferenceMode, as constructed for
/// AutoGradMode.
std::optional<bool> gradModeSetBy(const Decl *Declared, ASTContext &Context) {
  const auto *Var = dyn_cast<VarDecl>(Declared);
  const CXXRecordDecl *Class =
      Var ? Var->getType()->getAsCXXRecordDecl() : nullptr;
  if (!Class || !Class->getIdentifier() || !isLibTorchDecl(Class))
    return std::nullopt;
  StringRef Name = Class->getName();
  if (Name == "NoGradGuard" || Name == "InferenceMode")
    return false;
  if (Name == "AutoGradMode") {
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Var->getInit());
    if (Construct && Construct->getNumArgs() == 1)
      if (std::optional<int64_t> Value =
              integerConstant(Construct->getArg(0), Context))
        return *Value != 0;
  }
  return std::nullopt;
}

} // namespace

bool isUnderNoGrad(const Stmt &S, ASTContext &Context) {
  // The innermost block that sets the mode before S decides.
  std::optional<bool> Enabled;
  anyEnclosingBlock(
      S, Context, [&](const CompoundStmt &Block, const Stmt &Holder) {
        for (const Stmt *Item : Block.body()) {
          if (Item == &Holder)
            break;
          if (const auto *Declaration = dyn_cast<DeclStmt>(Item))
            for (const Decl *Declared : Declaration->decls())
              if (std::optional<bool> Mode = gradModeSetBy(Declared, Context))
                Enabled = Mode;
        }
        return Enabled.has_value();
      });
  return Enabled && !*Enabled;
}

std::vector<InplaceAutogradFinding>
findInplaceAutogradErrors(const FunctionDecl &Function, ASTContext &Context,
                          const ParameterFields &Parameters,
                          bool WithCandidates,
                          const InplaceModuleFields &InplaceModules) {
  std::vector<InplaceAutogradFinding> Findings;
  if (!Function.hasBody())
    return Findings;
  std::unique_ptr<CFG> Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return Findings;
  Model M(Context, Parameters, InplaceModules);
  ForwardDataflow<Model> Dataflow(*Graph, M);
  Dataflow.run(AutogradFacts());
  std::vector<bool> Reaches = blocksReachingBackward(*Graph, false);
  // A module's forward() hands its graph to the caller's backward().
  std::vector<bool> ReachesAtExit;
  if (isModuleForward(Function))
    ReachesAtExit = blocksReachingBackward(*Graph, true);
  llvm::DenseSet<const Expr *> Seen;

  for (const CFGBlock *Block : *Graph) {
    const std::optional<AutogradFacts> &Entry = Dataflow.entryFacts(*Block);
    if (!Entry)
      continue;
    AutogradFacts State = *Entry;
    auto SuccIn = [&](const std::vector<bool> &Set) {
      return any_of(Block->succs(), [&](const CFGBlock *Succ) {
        return Succ && !Set.empty() && Set[Succ->getBlockID()];
      });
    };
    bool SuccReaches = SuccIn(Reaches);
    bool SuccReachesExit = SuccIn(ReachesAtExit);
    for (auto It = Block->begin(), End = Block->end(); It != End; ++It) {
      std::optional<CFGStmt> S = It->getAs<CFGStmt>();
      std::optional<InplaceWrite> Write =
          S ? M.write(S->getStmt()) : std::nullopt;
      if (Write && Seen.insert(Write->Call).second) {
        TensorInfo Self = M.info(Write->Self, State);
        InplaceAutogradFinding Finding;
        Finding.Op = Write->Call;
        Finding.HelperOp = Write->HelperOp;
        Finding.Written = Write->Self;
        Finding.OpName = Write->OpName;
        Finding.Tensor = Self.Decl;
        Finding.ThroughView = Self.View;
        auto Saved =
            Self.Decl ? State.Saved.find(Self.Decl) : State.Saved.end();
        if (Self.Leaf && !M.noGrad(Write->Call)) {
          Finding.Kind = InplaceAutogradFinding::LeafRequiresGrad;
          Finding.Origin = Self.Origin;
          Findings.push_back(std::move(Finding));
        } else if (Saved != State.Saved.end()) {
          bool Later = SuccReaches;
          for (auto Next = std::next(It); !Later && Next != End; ++Next)
            if (std::optional<CFGStmt> NextS = Next->getAs<CFGStmt>())
              if (std::optional<TensorCall> NextCall =
                      elementCall(NextS->getStmt()))
                Later = isBackwardCall(*NextCall);
          Finding.BackwardByCaller = !Later && SuccReachesExit;
          bool BackwardFollows = Later || Finding.BackwardByCaller;
          if (BackwardFollows || WithCandidates) {
            Finding.Kind = BackwardFollows
                               ? InplaceAutogradFinding::SavedForBackward
                               : InplaceAutogradFinding::MaybeSavedForBackward;
            Finding.Origin = Saved->second.Op->getBeginLoc();
            Finding.OriginOp = Saved->second.Name;
            Finding.Saved = Saved->second.Saved;
            Finding.SavingCall = Saved->second.Op;
            Findings.push_back(std::move(Finding));
          }
        }
      }
      M.transfer(*It, State);
    }
  }
  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Findings, [&](const InplaceAutogradFinding &A,
                           const InplaceAutogradFinding &B) {
    return SM.isBeforeInTranslationUnit(A.Op->getBeginLoc(),
                                        B.Op->getBeginLoc());
  });
  return Findings;
}

InplaceModuleFields collectInplaceModuleFields(ASTContext &Context) {
  using namespace clang::ast_matchers;
  InplaceModuleFields Fields;
  // As for parameters: only files that spell `inplace` can have one.
  if (Context.Idents.find("inplace") == Context.Idents.end())
    return Fields;
  auto Assigned = cxxOperatorCallExpr(
      hasOverloadedOperatorName("="),
      hasArgument(0, memberExpr(member(fieldDecl().bind("field")))),
      hasArgument(1, expr().bind("value")));
  auto Initialized = cxxConstructorDecl(forEachConstructorInitializer(
      cxxCtorInitializer(forField(fieldDecl().bind("field")),
                         withInitializer(expr().bind("value")))));
  auto Collect = [&](const BoundNodes &Match) {
    const auto *Field = Match.getNodeAs<FieldDecl>("field");
    const auto *Value = Match.getNodeAs<Expr>("value");
    if (Field && Value && moduleClass(Field->getType()) &&
        constructedInplace(Value, Context))
      Fields.insert(Field);
  };
  for (const auto &Match :
       match(traverse(TK_AsIs, findAll(expr(Assigned))), Context))
    Collect(Match);
  for (const auto &Match :
       match(traverse(TK_AsIs, findAll(decl(Initialized))), Context))
    Collect(Match);
  return Fields;
}

ParameterFields collectParameterFields(ASTContext &Context) {
  using namespace clang::ast_matchers;
  ParameterFields Fields;
  // The search walks every expression of the file, which costs seconds on a
  // deeply nested one: skip it in files where no register_parameter was
  // ever spelled, which is every file that does not include LibTorch.
  if (Context.Idents.find("register_parameter") == Context.Idents.end())
    return Fields;
  auto Register = ignoringImplicit(ignoringParenImpCasts(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("register_parameter"))))
          .bind("register")));
  auto RegisterCall =
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("register_parameter"))))
          .bind("register");
  auto HasRegister = expr(anyOf(Register, hasDescendant(RegisterCall)));
  auto Assigned = cxxOperatorCallExpr(
      hasOverloadedOperatorName("="),
      hasArgument(0, memberExpr(member(fieldDecl().bind("field")))),
      hasArgument(1, HasRegister));
  auto Initialized =
      cxxConstructorDecl(forEachConstructorInitializer(cxxCtorInitializer(
          forField(fieldDecl().bind("field")), withInitializer(HasRegister))));
  for (const auto &Match :
       match(traverse(TK_AsIs, findAll(expr(Assigned))), Context))
    if (const auto *Field = Match.getNodeAs<FieldDecl>("field"))
      if (const auto *Call = Match.getNodeAs<Expr>("register"))
        Fields.try_emplace(Field, Call->getBeginLoc());
  for (const auto &Match :
       match(traverse(TK_AsIs, findAll(decl(Initialized))), Context))
    if (const auto *Field = Match.getNodeAs<FieldDecl>("field"))
      if (const auto *Call = Match.getNodeAs<Expr>("register"))
        Fields.try_emplace(Field, Call->getBeginLoc());
  return Fields;
}

} // namespace gpuguard::torch
