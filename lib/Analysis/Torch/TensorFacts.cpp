//===--- TensorFacts.cpp - Shapes and values of LibTorch tensors ----------===//

#include "Analysis/Torch/TensorFacts.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Torch/TorchApi.h"
#include "Analysis/Torch/TorchOps.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cmath>

using namespace clang;

namespace gpuguard::torch {

using Sizes = llvm::SmallVector<int64_t, 4>;

/// Literals with more elements than this keep their bounds only.
constexpr size_t MaxTrackedValues = 64;

bool TensorFact::operator==(const TensorFact &Other) const {
  return Shape == Other.Shape && Low == Other.Low && High == Other.High &&
         ExactBounds == Other.ExactBounds && Values == Other.Values &&
         Kind == Other.Kind && Finite == Other.Finite &&
         Unbounded == Other.Unbounded && Strided == Other.Strided &&
         FloatLow == Other.FloatLow && FloatHigh == Other.FloatHigh &&
         UncheckedCast == Other.UncheckedCast && CastFrom == Other.CastFrom &&
         ValueOrigin == Other.ValueOrigin && ShapeOrigin == Other.ShapeOrigin;
}

std::string formatShape(llvm::ArrayRef<int64_t> Shape) {
  std::string Text = "[";
  for (size_t I = 0; I < Shape.size(); ++I) {
    if (I)
      Text += ", ";
    Text += Shape[I] == UnknownSize ? "?" : std::to_string(Shape[I]);
  }
  return Text + "]";
}

std::optional<Sizes> broadcastShapes(llvm::ArrayRef<int64_t> A,
                                     llvm::ArrayRef<int64_t> B) {
  Sizes Result(std::max(A.size(), B.size()), 1);
  for (size_t I = 0; I < Result.size(); ++I) {
    int64_t X = I < A.size() ? A[A.size() - 1 - I] : 1;
    int64_t Y = I < B.size() ? B[B.size() - 1 - I] : 1;
    int64_t &Out = Result[Result.size() - 1 - I];
    if (X == Y)
      Out = X;
    else if (X == 1)
      Out = Y;
    else if (Y == 1)
      Out = X;
    else
      return std::nullopt; // Different sizes, or a size that is unknown.
  }
  return Result;
}

/// The number of elements, when every size is known.
static std::optional<int64_t> numel(llvm::ArrayRef<int64_t> Shape) {
  int64_t Count = 1;
  for (int64_t Size : Shape) {
    if (Size == UnknownSize)
      return std::nullopt;
    Count *= Size;
  }
  return Count;
}

/// A dimension argument made non-negative for a tensor of \p Rank.
static std::optional<size_t> normaliseDim(std::optional<int64_t> Dim,
                                          size_t Rank) {
  if (!Dim)
    return std::nullopt;
  int64_t Value = *Dim < 0 ? *Dim + static_cast<int64_t>(Rank) : *Dim;
  if (Value < 0 || Value >= static_cast<int64_t>(Rank))
    return std::nullopt;
  return static_cast<size_t>(Value);
}

/// The element kind a ScalarType constant (`torch::kLong`) or a dtype in
/// options (`torch::dtype(torch::kInt)`, `TensorOptions().dtype(kFloat)`)
/// somewhere in \p E names.
static ElementKind scalarTypeIn(const Stmt *S) {
  if (!S)
    return ElementKind::Unknown;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *Decl = Ref->getDecl();
    if (!Decl->getIdentifier() || !isLibTorchDecl(Decl))
      return ElementKind::Unknown;
    return llvm::StringSwitch<ElementKind>(Decl->getName())
        .Cases({"kLong", "kInt", "kInt64", "kInt32", "kShort", "kInt16",
                "kByte", "kChar", "kInt8", "kUInt8"},
               ElementKind::Integer)
        .Cases({"kFloat", "kDouble", "kHalf", "kFloat32", "kFloat64",
                "kFloat16", "kBFloat16"},
               ElementKind::Floating)
        .Case("kBool", ElementKind::Bool)
        .Default(ElementKind::Unknown);
  }
  for (const Stmt *Child : S->children())
    if (ElementKind Kind = scalarTypeIn(Child); Kind != ElementKind::Unknown)
      return Kind;
  return ElementKind::Unknown;
}

/// The sizes of an IntArrayRef argument: `{N, C}`, or a single integer.
static std::optional<Sizes> sizesArgument(const Expr *E,
                                          const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 4> Elements = listElements(E);
  if (Elements.size() == 1 && Elements.front() == E) {
    if (std::optional<int64_t> Single = integerConstant(E, Context))
      return Sizes{*Single};
    return std::nullopt;
  }
  Sizes Result;
  for (const Expr *Element : Elements)
    Result.push_back(integerConstant(Element, Context).value_or(UnknownSize));
  return Result;
}

/// Reads a `torch::tensor` literal, nested lists included; false when it is
/// not one.
static bool readLiteral(const Expr *E, unsigned Depth, Sizes &Shape,
                        llvm::SmallVector<int64_t, 4> &Values, bool &Floating,
                        bool &AllKnown, const ASTContext &Context) {
  llvm::SmallVector<const Expr *, 4> Elements = listElements(E);
  if (Elements.size() == 1 && Elements.front() == E) {
    if (Depth < Shape.size())
      return false;
    if (E->IgnoreImplicit()->getType()->isRealFloatingType() ||
        !integerConstant(E, Context)) {
      std::optional<double> Number = numberConstant(E, Context);
      if (!Number)
        AllKnown = false;
      bool IsInteger = Number && std::floor(*Number) == *Number &&
                       !isa<FloatingLiteral>(E->IgnoreImplicit());
      // A scalar that is not an integer literal makes the tensor floating.
      if (!IsInteger)
        Floating = true;
      if (IsInteger)
        Values.push_back(static_cast<int64_t>(*Number));
      return true;
    }
    Values.push_back(*integerConstant(E, Context));
    return true;
  }
  if (Depth == Shape.size())
    Shape.push_back(static_cast<int64_t>(Elements.size()));
  else if (Shape[Depth] != static_cast<int64_t>(Elements.size()))
    return false;
  for (const Expr *Element : Elements)
    if (!readLiteral(Element, Depth + 1, Shape, Values, Floating, AllKnown,
                     Context))
      return false;
  return true;
}

/// Sets the values of \p Fact to the list \p Values (bounds included).
static void setValues(TensorFact &Fact, llvm::ArrayRef<int64_t> Values,
                      const Expr *Origin) {
  if (Values.empty())
    return;
  Fact.Low = *std::min_element(Values.begin(), Values.end());
  Fact.High = *std::max_element(Values.begin(), Values.end());
  Fact.ExactBounds = true;
  if (Values.size() <= MaxTrackedValues)
    Fact.Values.emplace(Values.begin(), Values.end());
  Fact.ValueOrigin = Origin;
}

static void dropValues(TensorFact &Fact) {
  Fact.Low.reset();
  Fact.High.reset();
  Fact.Values.reset();
  Fact.ExactBounds = false;
  Fact.Strided = false;
  Fact.ValueOrigin = nullptr;
}

/// Two facts merged where paths meet: what differs becomes unknown.
static TensorFact mergeFacts(const TensorFact &A, const TensorFact &B) {
  TensorFact Result;
  if (A.Shape == B.Shape) {
    Result.Shape = A.Shape;
    Result.ShapeOrigin =
        A.ShapeOrigin == B.ShapeOrigin ? A.ShapeOrigin : nullptr;
  }
  if (A.Low == B.Low && A.High == B.High && A.Values == B.Values) {
    Result.Low = A.Low;
    Result.High = A.High;
    Result.Values = A.Values;
    Result.ExactBounds = A.ExactBounds && B.ExactBounds;
    Result.Strided = A.Strided || B.Strided;
    Result.ValueOrigin =
        A.ValueOrigin == B.ValueOrigin ? A.ValueOrigin : nullptr;
  }
  if (A.FloatLow == B.FloatLow && A.FloatHigh == B.FloatHigh) {
    Result.FloatLow = A.FloatLow;
    Result.FloatHigh = A.FloatHigh;
  }
  Result.Kind = A.Kind == B.Kind ? A.Kind : ElementKind::Unknown;
  Result.Finite = A.Finite && B.Finite;
  Result.Unbounded = A.Unbounded || B.Unbounded;
  if (A.UncheckedCast == B.UncheckedCast) {
    Result.UncheckedCast = A.UncheckedCast;
    Result.CastFrom = A.CastFrom;
  }
  return Result;
}

static bool isEmpty(const TensorFact &Fact) { return Fact == TensorFact(); }

/// True when \p E sits in the condition of an `if`, a `?:` or a loop: a
/// check whose outcome decides what runs next (TORCH_CHECK and assert
/// expand to one).
static bool isInCondition(const Expr *E, ASTContext &Context) {
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    DynTypedNodeList Parents = Context.getParents(Node);
    if (Parents.empty())
      return false;
    const Stmt *Child = Node.get<Stmt>();
    DynTypedNode Parent = Parents[0];
    if (const auto *If = Parent.get<IfStmt>())
      return If->getCond() == Child;
    if (const auto *Conditional = Parent.get<ConditionalOperator>())
      return Conditional->getCond() == Child;
    if (const auto *While = Parent.get<WhileStmt>())
      return While->getCond() == Child;
    if (Parent.get<CompoundStmt>() || Parent.get<Decl>())
      return false;
    Node = Parent;
  }
  return false;
}

/// The module or options variable's initialiser behind \p E.
const Expr *TensorFacts::moduleInit(const Expr *E) {
  E = ignoreTensorWrappers(E);
  if (const auto *Arrow = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
    E = ignoreTensorWrappers(Arrow->getArg(0));
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->hasLocalStorage() && Var->getInit())
      return ignoreTensorWrappers(Var->getInit());
  return E;
}

/// The constructor call inside a module or options expression:
/// `Embedding(100, 16)` with its functional-cast and temporary wrappers.
static const CXXConstructExpr *constructorOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = ignoreTensorWrappers(E);
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      return Construct;
    return nullptr;
  }
  return nullptr;
}

std::optional<llvm::SmallVector<int64_t, 2>>
TensorFacts::moduleSizes(const Expr *Module, StringRef Builtin,
                         const ASTContext &Context) {
  const CXXRecordDecl *Class = moduleClass(Module->getType());
  if (!Class || builtinModuleName(Class) != Builtin)
    return std::nullopt;
  const CXXConstructExpr *Construct = constructorOf(moduleInit(Module));
  if (!Construct)
    return std::nullopt;
  if (Construct->getNumArgs() == 1) {
    // A module built from options: Embedding(EmbeddingOptions(100, 16)).
    const Expr *Base = nullptr;
    optionChain(Construct->getArg(0), &Base);
    const CXXConstructExpr *Options = constructorOf(Base);
    if (!Options || Options == Construct)
      return std::nullopt;
    Construct = Options;
  }
  llvm::SmallVector<int64_t, 2> Result;
  for (const Expr *Arg : Construct->arguments()) {
    std::optional<int64_t> Value = integerConstant(Arg, Context);
    if (!Value)
      return std::nullopt;
    Result.push_back(*Value);
  }
  return Result;
}

std::optional<int64_t> TensorFacts::optionValue(const Expr *Options,
                                                StringRef Option,
                                                const ASTContext &Context,
                                                bool *Set) {
  if (!Options)
    return std::nullopt;
  std::optional<int64_t> Value;
  const Expr *Base = nullptr;
  for (const CXXMemberCallExpr *Call : optionChain(Options, &Base)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == Option &&
        Call->getNumArgs() == 1) {
      Value = integerConstant(Call->getArg(0), Context);
      if (Set)
        *Set = true;
    }
  }
  // Options kept in a local variable: what its initialiser set.
  if (!Value && Base && moduleInit(Base) != ignoreTensorWrappers(Base))
    return optionValue(moduleInit(Base), Option, Context, Set);
  return Value;
}

std::optional<int64_t> TensorFacts::moduleOption(const Expr *Module,
                                                 StringRef Option,
                                                 const ASTContext &Context,
                                                 bool *Set) {
  const CXXConstructExpr *Construct = constructorOf(moduleInit(Module));
  if (!Construct || Construct->getNumArgs() != 1)
    return std::nullopt;
  return optionValue(Construct->getArg(0), Option, Context, Set);
}

/// True for an argument passed as an at::Scalar (arange's start and end).
static bool isScalarParameter(const Expr *E) {
  const CXXRecordDecl *Record =
      E->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getIdentifier() && Record->getName() == "Scalar";
}

/// The tensor whose global minimum (\p Which "min") or maximum ("max") \p E
/// is: `x.min()`, `torch::min(x)`, `x.amin()`; null for anything else.
static const Expr *globalExtremeOf(const Expr *E, StringRef Which) {
  std::optional<TensorCall> Call = getTensorCall(ignoreTensorWrappers(E));
  if (!Call || !Call->Self || !Call->Args.empty())
    return nullptr;
  StringRef Name = Call->Name;
  if (Name != Which && !(Name.consume_front("a") && Name == Which))
    return nullptr;
  return ignoreTensorWrappers(Call->Self);
}

/// `(x - x.min()) / (x.max() - x.min())`: values in [0, 1], both taken, and
/// NaN when the data is constant.
static bool isMinMaxNormalisation(const Expr *Numerator,
                                  const Expr *Denominator,
                                  const ASTContext &Context) {
  auto Difference = [](const Expr *E)
      -> std::optional<std::pair<const Expr *, const Expr *>> {
    std::optional<TensorCall> Call = getTensorCall(ignoreTensorWrappers(E));
    if (!Call || Call->Name != "sub" || !Call->Self || Call->Args.size() != 1)
      return std::nullopt;
    return std::make_pair(ignoreTensorWrappers(Call->Self), Call->Args[0]);
  };
  auto Top = Difference(Numerator), Span = Difference(Denominator);
  if (!Top || !Span)
    return false;
  const Expr *Data = Top->first;
  auto Same = [&](const Expr *Other) {
    return Other && isSameValue(Data, Other, Context);
  };
  return Same(globalExtremeOf(Top->second, "min")) &&
         Same(globalExtremeOf(Span->first, "max")) &&
         Same(globalExtremeOf(Span->second, "min"));
}

/// The binary arithmetic evaluateArithmetic knows, in-place forms included.
static bool isArithmeticOp(StringRef Name) {
  if (Name.ends_with("_"))
    Name = Name.drop_back();
  return llvm::is_contained({"add", "sub", "mul", "div", "true_divide",
                             "remainder", "fmod", "pow", "maximum", "minimum",
                             "rsub", "floor_divide"},
                            Name);
}

namespace {

/// Evaluates expressions against the facts of the variables.
class Evaluator {
public:
  Evaluator(const TensorFactMap &State, const ASTContext &Context)
      : State(State), Context(Context) {}

  TensorFact evaluate(const Expr *E, unsigned Depth = 0) const;

private:
  /// A call of an op on a tensor whose facts are known.
  struct OpCall {
    const TensorCall &Call;
    const TensorFact &Self;
    unsigned Depth;
    StringRef name() const { return Call.Name; }
    std::optional<size_t> rank() const {
      if (!Self.Shape)
        return std::nullopt;
      return Self.Shape->size();
    }
  };
  using Transfer = TensorFact (Evaluator::*)(const OpCall &) const;

  TensorFact evaluateCall(const TensorCall &Call, unsigned Depth) const;
  Transfer transferFor(StringRef Name) const;

  // Transfer functions of op families, by what the ops do.
  TensorFact copy(const OpCall &Op) const;
  TensorFact likeFactory(const OpCall &Op) const;
  TensorFact cast(const OpCall &Op) const;
  TensorFact reshape(const OpCall &Op) const;
  TensorFact unsqueeze(const OpCall &Op) const;
  TensorFact squeeze(const OpCall &Op) const;
  TensorFact flatten(const OpCall &Op) const;
  TensorFact transpose(const OpCall &Op) const;
  TensorFact clamp(const OpCall &Op) const;
  TensorFact nanToNum(const OpCall &Op) const;
  TensorFact fill(const OpCall &Op) const;
  TensorFact kindKeepingUnary(const OpCall &Op) const;
  TensorFact floatingUnary(const OpCall &Op) const;
  TensorFact matmul(const OpCall &Op) const;
  TensorFact reduce(const OpCall &Op) const;
  TensorFact argExtreme(const OpCall &Op) const;
  TensorFact oneHot(const OpCall &Op) const;
  TensorFact embedding(const OpCall &Op) const;
  TensorFact indexSelect(const OpCall &Op) const;
  TensorFact slice(const OpCall &Op) const;
  TensorFact select(const OpCall &Op) const;
  TensorFact predicate(const OpCall &Op) const;

  TensorFact evaluateFactory(const TensorCall &Call) const;
  std::optional<TensorFact> evaluateModuleCall(const Expr *E,
                                               unsigned Depth) const;
  TensorFact evaluateArithmetic(const TensorCall &Call, unsigned Depth) const;
  TensorFact evaluateClamp(TensorFact Self, const TensorCall &Call,
                           std::optional<double> Low,
                           std::optional<double> High) const;
  std::optional<double> scalarArg(const TensorCall &Call, size_t I) const {
    if (I >= Call.Args.size())
      return std::nullopt;
    return numberConstant(Call.Args[I], Context);
  }
  std::optional<int64_t> intArg(const TensorCall &Call, size_t I) const {
    if (I >= Call.Args.size())
      return std::nullopt;
    return integerConstant(Call.Args[I], Context);
  }
  /// An integer passed as c10::optional<int64_t> (slice's start and end).
  std::optional<int64_t> optionalIntArg(const TensorCall &Call,
                                        size_t I) const {
    if (I >= Call.Args.size())
      return std::nullopt;
    const Expr *Arg = Call.Args[I];
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      Arg = Arg->IgnoreImplicit();
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
          Construct && Construct->getNumArgs() == 1)
        Arg = Construct->getArg(0);
      else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Arg))
        Arg = Cast->getSubExpr();
      else
        break;
    }
    return integerConstant(Arg, Context);
  }

  const TensorFactMap &State;
  const ASTContext &Context;
};

} // namespace

static constexpr unsigned MaxEvaluationDepth = 24;

TensorFact Evaluator::evaluate(const Expr *E, unsigned Depth) const {
  E = ignoreTensorWrappers(E);
  if (!E || Depth > MaxEvaluationDepth)
    return {};
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto It = State.find(Var); It != State.end())
        return It->second;
    return {};
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return mergeFacts(evaluate(Conditional->getTrueExpr(), Depth + 1),
                      evaluate(Conditional->getFalseExpr(), Depth + 1));
  if (std::optional<TensorFact> Module = evaluateModuleCall(E, Depth))
    return *Module;
  if (std::optional<TensorCall> Call = getTensorCall(E))
    return evaluateCall(*Call, Depth);
  return {};
}

std::optional<TensorFact> Evaluator::evaluateModuleCall(const Expr *E,
                                                        unsigned Depth) const {
  std::optional<ForwardCall> Call = getModuleCall(E);
  if (!Call || Call->Args.size() != 1)
    return std::nullopt;
  const Expr *Module = Call->Object;
  const Expr *Input = Call->Args[0];
  const CXXRecordDecl *Class = moduleClass(Module->getType());
  StringRef Builtin = builtinModuleName(Class);
  if (Builtin != "Linear" && Builtin != "Embedding")
    return std::nullopt;
  TensorFact In = evaluate(Input, Depth + 1);
  TensorFact Out;
  Out.Kind = ElementKind::Floating;
  auto Sizes = TensorFacts::moduleSizes(Module, Builtin, Context);
  if (!Sizes || Sizes->size() < 2 || !In.Shape)
    return Out;
  Out.Shape = In.Shape;
  if (Builtin == "Linear") {
    if (Out.Shape->empty())
      return TensorFact{};
    Out.Shape->back() = (*Sizes)[1];
  } else {
    Out.Shape->push_back((*Sizes)[1]);
  }
  Out.ShapeOrigin = E;
  return Out;
}

TensorFact Evaluator::evaluateFactory(const TensorCall &Call) const {
  TensorFact Fact;
  StringRef Name = Call.Name;
  const auto &Args = Call.Args;
  ElementKind Requested = ElementKind::Unknown;
  auto OptionsFrom = [&](size_t First) {
    for (size_t I = First; I < Args.size(); ++I)
      if (ElementKind Kind = scalarTypeIn(Args[I]);
          Kind != ElementKind::Unknown)
        Requested = Kind;
  };
  if (llvm::is_contained({"randn", "rand", "zeros", "ones", "empty"}, Name)) {
    if (Args.empty())
      return {};
    Fact.Shape = sizesArgument(Args[0], Context);
    OptionsFrom(1);
    Fact.Kind =
        Requested == ElementKind::Unknown ? ElementKind::Floating : Requested;
    Fact.Finite = Name != "empty";
    if (Name == "zeros" || Name == "ones") {
      int64_t Value = Name == "ones" ? 1 : 0;
      Fact.Low = Fact.High = Value;
      Fact.ExactBounds = true;
      Fact.Values.emplace(1, Value);
      Fact.ValueOrigin = Call.Call;
    }
  } else if (Name == "full") {
    if (Args.size() < 2)
      return {};
    Fact.Shape = sizesArgument(Args[0], Context);
    OptionsFrom(2);
    std::optional<int64_t> Value = integerConstant(Args[1], Context);
    Fact.Kind = Requested != ElementKind::Unknown ? Requested
                : Value                           ? ElementKind::Integer
                                                  : ElementKind::Floating;
    Fact.Finite = numberConstant(Args[1], Context).has_value() &&
                  std::isfinite(*numberConstant(Args[1], Context));
    if (Value) {
      Fact.Low = Fact.High = *Value;
      Fact.ExactBounds = true;
      Fact.Values.emplace(1, *Value);
      Fact.ValueOrigin = Call.Call;
    }
  } else if (Name == "randint") {
    // randint(high, size) or randint(low, high, size): values in
    // [low, high - 1], each of them drawn in practice.
    bool HasLow =
        Args.size() >= 3 && Args[1]->getType()->isIntegralOrEnumerationType();
    size_t SizeIndex = HasLow ? 2 : 1;
    if (Args.size() <= SizeIndex)
      return {};
    Fact.Shape = sizesArgument(Args[SizeIndex], Context);
    OptionsFrom(SizeIndex + 1);
    Fact.Kind =
        Requested == ElementKind::Unknown ? ElementKind::Integer : Requested;
    Fact.Finite = true;
    std::optional<int64_t> Low =
        HasLow ? integerConstant(Args[0], Context) : std::optional<int64_t>(0);
    std::optional<int64_t> High =
        integerConstant(Args[HasLow ? 1 : 0], Context);
    if (Low && High && *Low < *High) {
      Fact.Low = *Low;
      Fact.High = *High - 1;
      Fact.ExactBounds = true;
      Fact.ValueOrigin = Call.Call;
    }
  } else if (Name == "arange") {
    std::optional<int64_t> Start = std::optional<int64_t>(0), End;
    size_t Options = 1;
    if (Args.size() >= 2 && isScalarParameter(Args[1])) {
      Start = integerConstant(Args[0], Context);
      End = integerConstant(Args[1], Context);
      Options = 2;
    } else if (!Args.empty()) {
      End = integerConstant(Args[0], Context);
    }
    OptionsFrom(Options);
    bool IntegerBounds = true;
    for (size_t I = 0; I < Options && I < Args.size(); ++I)
      IntegerBounds &= integerConstant(Args[I], Context).has_value();
    Fact.Kind = Requested != ElementKind::Unknown ? Requested
                : IntegerBounds                   ? ElementKind::Integer
                                                  : ElementKind::Unknown;
    Fact.Finite = true;
    if (Start && End && *Start < *End && IntegerBounds) {
      Fact.Shape = Sizes{*End - *Start};
      Fact.Low = *Start;
      Fact.High = *End - 1;
      Fact.ExactBounds = true;
      Fact.ValueOrigin = Call.Call;
    }
  } else if (Name == "linspace") {
    // linspace(start, end, steps): `steps` evenly spaced values.
    if (Args.size() < 3)
      return {};
    OptionsFrom(3);
    Fact.Kind =
        Requested == ElementKind::Unknown ? ElementKind::Floating : Requested;
    Fact.Finite = true;
    if (std::optional<int64_t> Steps = integerConstant(Args[2], Context);
        Steps && *Steps >= 0)
      Fact.Shape = Sizes{*Steps};
  } else if (Name == "tensor") {
    if (Args.empty())
      return {};
    Sizes Shape;
    llvm::SmallVector<int64_t, 4> Values;
    bool Floating = false, AllKnown = true;
    if (!readLiteral(Args[0], 0, Shape, Values, Floating, AllKnown, Context))
      return {};
    Fact.Shape = Shape;
    OptionsFrom(1);
    Fact.Kind = Requested != ElementKind::Unknown ? Requested
                : Floating                        ? ElementKind::Floating
                                                  : ElementKind::Integer;
    if (!Floating && AllKnown)
      setValues(Fact, Values, Call.Call);
    Fact.Finite = AllKnown;
  } else {
    return {};
  }
  if (Fact.Shape)
    Fact.ShapeOrigin = Call.Call;
  return Fact;
}

TensorFact Evaluator::evaluateClamp(TensorFact Self, const TensorCall &Call,
                                    std::optional<double> Low,
                                    std::optional<double> High) const {
  std::optional<int64_t> NewLow = Self.Low, NewHigh = Self.High;
  bool Changed = false;
  if (Low) {
    auto Bound = static_cast<int64_t>(std::ceil(*Low));
    if (!NewLow || *NewLow < Bound) {
      NewLow = Bound;
      Changed = true;
    }
  }
  if (High) {
    auto Bound = static_cast<int64_t>(std::floor(*High));
    if (!NewHigh || *NewHigh > Bound) {
      NewHigh = Bound;
      Changed = true;
    }
  }
  // An integer clamped on both sides holds no garbage from a cast any more;
  // a floating clamp keeps NaN, which the cast turns into garbage.
  if (Low && High && Self.Kind != ElementKind::Floating) {
    Self.UncheckedCast = nullptr;
    Self.CastFrom = nullptr;
  }
  // Finite values clamped on both sides cast to integers in the clamp's
  // range.
  if (Low && High && Self.Finite)
    Self.Unbounded = false;
  if (Changed) {
    Self.Values.reset();
    Self.ExactBounds = false;
    Self.ValueOrigin = Call.Call;
  }
  Self.Low = NewLow;
  Self.High = NewHigh;
  if (Self.Values) {
    for (int64_t &Value : *Self.Values)
      Value = std::clamp(Value, Self.Low.value_or(Value),
                         Self.High.value_or(Value));
  }
  return Self;
}

TensorFact Evaluator::evaluateArithmetic(const TensorCall &Call,
                                         unsigned Depth) const {
  // The operands: tensors and at most one constant scalar.
  llvm::SmallVector<const Expr *, 3> Operands;
  if (Call.Self)
    Operands.push_back(Call.Self);
  Operands.append(Call.Args.begin(), Call.Args.end());
  if (Operands.size() < 2)
    return {};
  bool SelfFirst = isTensorType(Operands[0]->getType());
  const Expr *TensorOperand = SelfFirst ? Operands[0] : Operands[1];
  const Expr *OtherOperand = SelfFirst ? Operands[1] : Operands[0];
  TensorFact Self = evaluate(TensorOperand, Depth + 1);
  StringRef Name = Call.Name;
  if (!Name.empty() && Name.back() == '_')
    Name = Name.drop_back();

  if (isTensorType(OtherOperand->getType())) {
    TensorFact Other = evaluate(OtherOperand, Depth + 1);
    TensorFact Result;
    if (Self.Shape && Other.Shape)
      Result.Shape = broadcastShapes(*Self.Shape, *Other.Shape);
    if (Result.Shape)
      Result.ShapeOrigin = Call.Call;
    if (Name == "div" || Name == "true_divide" ||
        Self.Kind == ElementKind::Floating ||
        Other.Kind == ElementKind::Floating)
      Result.Kind = ElementKind::Floating;
    else if (Self.Kind == ElementKind::Integer &&
             Other.Kind == ElementKind::Integer)
      Result.Kind = ElementKind::Integer;
    // Sums, differences and products of finite values stay finite (barring
    // overflow); quotients, powers and remainders need not.
    Result.Finite =
        Self.Finite && Other.Finite && hasOpTraits(Name, KeepsFinite);
    if ((Name == "div" || Name == "true_divide") && SelfFirst &&
        isMinMaxNormalisation(TensorOperand, OtherOperand, Context)) {
      Result.FloatLow = 0.0;
      Result.FloatHigh = 1.0;
      Result.Kind = ElementKind::Floating;
    }
    Result.Unbounded = Result.Finite;
    if (Self.UncheckedCast)
      Result.UncheckedCast = Self.UncheckedCast,
      Result.CastFrom = Self.CastFrom;
    else if (Other.UncheckedCast)
      Result.UncheckedCast = Other.UncheckedCast,
      Result.CastFrom = Other.CastFrom;
    return Result;
  }

  // A tensor and a scalar: the shape stays, the bounds move.
  TensorFact Result = Self;
  Result.Values.reset();
  std::optional<double> Number = numberConstant(OtherOperand, Context);
  Result.FloatLow.reset();
  Result.FloatHigh.reset();
  if (Self.FloatLow && Self.FloatHigh && Number && std::isfinite(*Number)) {
    if (Name == "mul" && *Number > 0) {
      Result.FloatLow = *Self.FloatLow * *Number;
      Result.FloatHigh = *Self.FloatHigh * *Number;
    } else if (Name == "add") {
      Result.FloatLow = *Self.FloatLow + *Number;
      Result.FloatHigh = *Self.FloatHigh + *Number;
    } else if (Name == "sub" && SelfFirst) {
      Result.FloatLow = *Self.FloatLow - *Number;
      Result.FloatHigh = *Self.FloatHigh - *Number;
    }
  }
  Result.Finite = Self.Finite && Number && std::isfinite(*Number) &&
                  hasOpTraits(Name, KeepsFinite);
  Result.Unbounded = Result.Finite;
  bool ScalarIsInteger =
      OtherOperand->IgnoreImplicit()->getType()->isIntegerType() ||
      integerConstant(OtherOperand, Context).has_value();
  if (Name == "div" || Name == "true_divide" || !ScalarIsInteger)
    Result.Kind = Self.Kind == ElementKind::Unknown && Name != "div"
                      ? ElementKind::Unknown
                      : ElementKind::Floating;
  std::optional<int64_t> Constant = integerConstant(OtherOperand, Context);
  if (Name == "remainder" && SelfFirst && Constant && *Constant > 0) {
    // Python's modulo: the result takes the sign of the divisor.
    int64_t Divisor = *Constant;
    if (Self.Values) {
      llvm::SmallVector<int64_t, 4> Residues;
      for (int64_t Value : *Self.Values)
        Residues.push_back(((Value % Divisor) + Divisor) % Divisor);
      dropValues(Result);
      setValues(Result, Residues, Call.Call);
    } else if (!(Self.hasRange() && *Self.Low >= 0 && *Self.High < Divisor)) {
      // Every value of a range spanning at least Divisor values is taken,
      // so every residue is.
      bool Exact = Self.hasRange() && Self.ExactBounds && !Self.Strided &&
                   *Self.High - *Self.Low + 1 >= Divisor;
      dropValues(Result);
      Result.Low = 0;
      Result.High = Divisor - 1;
      Result.ExactBounds = Exact;
      Result.ValueOrigin = Call.Call;
    }
    if (Self.Kind != ElementKind::Floating) {
      Result.UncheckedCast = nullptr;
      Result.CastFrom = nullptr;
    }
    return Result;
  }
  if (!Self.hasRange() || !Constant || !ScalarIsInteger) {
    dropValues(Result);
    return Result;
  }
  int64_t Low = *Self.Low, High = *Self.High;
  if (Name == "add") {
    Low += *Constant;
    High += *Constant;
  } else if (Name == "sub" && SelfFirst) {
    Low -= *Constant;
    High -= *Constant;
  } else if (Name == "sub") {
    std::tie(Low, High) = std::make_pair(*Constant - High, *Constant - Low);
  } else if (Name == "mul" && *Constant >= 0) {
    Low *= *Constant;
    High *= *Constant;
  } else if (Name == "mul") {
    std::tie(Low, High) = std::make_pair(High * *Constant, Low * *Constant);
  } else {
    dropValues(Result);
    return Result;
  }
  const bool Exact = Self.ExactBounds;
  const bool Strided =
      Self.Strided || (Name == "mul" && (*Constant > 1 || *Constant < -1));
  std::optional<llvm::SmallVector<int64_t, 4>> OldValues = Self.Values;
  dropValues(Result);
  Result.Low = Low;
  Result.High = High;
  Result.ExactBounds = Exact;
  Result.Strided = Strided;
  Result.ValueOrigin = Call.Call;
  if (OldValues) {
    llvm::SmallVector<int64_t, 4> Moved;
    for (int64_t Value : *OldValues)
      Moved.push_back(Name == "add"                ? Value + *Constant
                      : Name == "sub" && SelfFirst ? Value - *Constant
                      : Name == "sub"              ? *Constant - Value
                                                   : Value * *Constant);
    Result.Values = Moved;
  }
  return Result;
}

TensorFact Evaluator::evaluateCall(const TensorCall &Call,
                                   unsigned Depth) const {
  StringRef Name = Call.Name;
  if (!Call.Self) {
    // Factories, and the functional forms whose tensor is not first.
    if (Call.Form == TensorCallForm::Function &&
        isTensorType(Call.Callee->getReturnType()) &&
        (isInNamespace(Call.Callee, "torch") ||
         isInNamespace(Call.Callee, "at")))
      return evaluateFactory(Call);
    if (Call.Form == TensorCallForm::Operator && Call.Args.size() == 2)
      return evaluateArithmetic(Call, Depth);
    return {};
  }
  if (isArithmeticOp(Name))
    return evaluateArithmetic(Call, Depth);
  Transfer Apply = transferFor(Name);
  if (!Apply)
    return {};
  TensorFact Self = evaluate(Call.Self, Depth + 1);
  TensorFact Result = (this->*Apply)(OpCall{Call, Self, Depth});
  // A floating range is kept by the ops that leave the values as they are;
  // a clamp or any other op moves them in ways it does not follow.
  if (Apply != &Evaluator::reshape && Apply != &Evaluator::cast) {
    Result.FloatLow.reset();
    Result.FloatHigh.reset();
  }
  return Result;
}

/// One row per op family: ops with a transfer function of their own by name,
/// then the families PyTorch's data (TorchOps.inc) and OpTraits.def give.
Evaluator::Transfer Evaluator::transferFor(StringRef Name) const {
  Transfer ByName =
      llvm::StringSwitch<Transfer>(Name)
          // Casts: the dtype changes, and NaN may become an integer.
          .Cases({"to", "toType", "type"}, &Evaluator::cast)
          // Sizes rearranged: the values stay.
          .Cases({"view", "reshape"}, &Evaluator::reshape)
          .Case("unsqueeze", &Evaluator::unsqueeze)
          .Case("squeeze", &Evaluator::squeeze)
          .Case("flatten", &Evaluator::flatten)
          .Cases({"t", "transpose"}, &Evaluator::transpose)
          // Values bounded or replaced.
          .Cases({"clamp", "clamp_", "clamp_min", "clamp_min_", "clamp_max",
                  "clamp_max_"},
                 &Evaluator::clamp)
          .Cases({"nan_to_num", "nan_to_num_"}, &Evaluator::nanToNum)
          .Cases({"fill_", "zero_"}, &Evaluator::fill)
          // New tensors shaped by their inputs.
          .Cases({"matmul", "mm"}, &Evaluator::matmul)
          .Cases({"argmax", "argmin"}, &Evaluator::argExtreme)
          .Case("one_hot", &Evaluator::oneHot)
          .Case("embedding", &Evaluator::embedding)
          .Cases({"index_select", "gather"}, &Evaluator::indexSelect)
          .Cases({"slice", "narrow"}, &Evaluator::slice)
          .Case("select", &Evaluator::select)
          .Default(nullptr);
  if (ByName)
    return ByName;
  if (hasOpTraits(Name, Copy))
    return &Evaluator::copy;
  if (factoryKind(Name) == FactoryKind::Like)
    return &Evaluator::likeFactory;
  if (isReductionOp(Name))
    return &Evaluator::reduce;
  if (hasOpTraits(Name, SameShape | KeepsKind))
    return &Evaluator::kindKeepingUnary;
  if (hasOpTraits(Name, SameShape | ResultFloating))
    return &Evaluator::floatingUnary;
  if (hasOpTraits(Name, ResultBool))
    return &Evaluator::predicate;
  return nullptr;
}

/// clone(), cpu(), contiguous(): the same tensor.
TensorFact Evaluator::copy(const OpCall &Op) const { return Op.Self; }

/// zeros_like(t), randn_like(t), ...: a new tensor of t's shape.
TensorFact Evaluator::likeFactory(const OpCall &Op) const {
  TensorFact Result;
  Result.Shape = Op.Self.Shape;
  Result.ShapeOrigin = Op.Self.ShapeOrigin;
  Result.Kind = hasOpTraits(Op.name(), ResultFloating) ? ElementKind::Floating
                                                       : Op.Self.Kind;
  for (const Expr *Arg : Op.Call.Args)
    if (ElementKind Kind = scalarTypeIn(Arg); Kind != ElementKind::Unknown)
      Result.Kind = Kind;
  return Result;
}

TensorFact Evaluator::cast(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  const TensorFact &Self = Op.Self;
  TensorFact Result;
  ElementKind Target = ElementKind::Unknown;
  for (const Expr *Arg : Call.Args)
    if (!isTensorType(Arg->getType()))
      if (ElementKind Kind = scalarTypeIn(Arg); Kind != ElementKind::Unknown)
        Target = Kind;
  if (Target == ElementKind::Unknown ||
      (Call.Args.size() == 1 && isTensorType(Call.Args[0]->getType()))) {
    if (Target != ElementKind::Unknown)
      return Self;
    // `to(other)` takes the other tensor's type, which is not known.
    Result.Shape = Self.Shape;
    Result.ShapeOrigin = Self.ShapeOrigin;
    return Result;
  }
  Result = Self;
  Result.Kind = Target;
  if (Target == ElementKind::Integer && Self.Kind == ElementKind::Floating) {
    // Truncation keeps a clamped range, but NaN and infinity become
    // whatever integer the hardware makes of them.
    Result.Values.reset();
    Result.ExactBounds = false;
    if (Self.FloatLow && Self.FloatHigh && *Self.FloatLow > -1e15 &&
        *Self.FloatHigh < 1e15) {
      // Both ends are taken (the minimum and the maximum of the data), so
      // truncated they are attained: `* C` maps the maximum to C itself.
      Result.Low = static_cast<int64_t>(std::trunc(*Self.FloatLow));
      Result.High = static_cast<int64_t>(std::trunc(*Self.FloatHigh));
      Result.ExactBounds = true;
      Result.ValueOrigin = Call.Call;
    }
    Result.FloatLow.reset();
    Result.FloatHigh.reset();
    if (!Self.Finite || Self.Unbounded) {
      Result.UncheckedCast = Call.Call;
      Result.CastFrom = referencedDecl(Call.Self);
    }
  }
  if (Target == ElementKind::Floating && Self.Kind == ElementKind::Integer)
    Result.Finite = true, Result.Unbounded = false;
  return Result;
}

TensorFact Evaluator::reshape(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  TensorFact Result = Op.Self;
  Result.Shape.reset();
  Result.ShapeOrigin = nullptr;
  if (Call.Args.empty())
    return Result;
  std::optional<Sizes> Shape = sizesArgument(Call.Args[0], Context);
  if (!Shape)
    return Result;
  // One -1 takes what the others leave of the element count.
  auto Inferred = llvm::find(*Shape, -1);
  if (Inferred != Shape->end()) {
    Sizes Others(Shape->begin(), Shape->end());
    Others.erase(Others.begin() + (Inferred - Shape->begin()));
    std::optional<int64_t> Total =
        Op.Self.Shape ? numel(*Op.Self.Shape) : std::nullopt;
    std::optional<int64_t> Rest = numel(Others);
    *Inferred = Total && Rest && *Rest > 0 && *Total % *Rest == 0
                    ? *Total / *Rest
                    : UnknownSize;
  }
  Result.Shape = *Shape;
  Result.ShapeOrigin = Call.Call;
  return Result;
}

/// The facts of an op that keeps the values and moves the sizes around,
/// before the sizes are worked out.
static TensorFact rearranged(const TensorFact &Self, const Expr *Call) {
  TensorFact Result = Self;
  Result.ShapeOrigin = Call;
  Result.Shape.reset();
  return Result;
}

TensorFact Evaluator::unsqueeze(const OpCall &Op) const {
  TensorFact Result = rearranged(Op.Self, Op.Call.Call);
  std::optional<int64_t> Dim = intArg(Op.Call, 0);
  std::optional<size_t> Rank = Op.rank();
  if (Rank && Dim) {
    int64_t Where = *Dim < 0 ? *Dim + static_cast<int64_t>(*Rank) + 1 : *Dim;
    if (Where >= 0 && Where <= static_cast<int64_t>(*Rank)) {
      Result.Shape = Op.Self.Shape;
      Result.Shape->insert(Result.Shape->begin() + Where, 1);
    }
  }
  return Result;
}

TensorFact Evaluator::squeeze(const OpCall &Op) const {
  TensorFact Result = rearranged(Op.Self, Op.Call.Call);
  const TensorFact &Self = Op.Self;
  if (!Op.rank())
    return Result;
  if (Op.Call.Args.empty()) {
    if (llvm::is_contained(*Self.Shape, UnknownSize))
      return Result;
    Result.Shape.emplace();
    for (int64_t Size : *Self.Shape)
      if (Size != 1)
        Result.Shape->push_back(Size);
    return Result;
  }
  std::optional<size_t> Dim = normaliseDim(intArg(Op.Call, 0), *Op.rank());
  if (!Dim || (*Self.Shape)[*Dim] == UnknownSize)
    return Result;
  Result.Shape = Self.Shape;
  if ((*Self.Shape)[*Dim] == 1)
    Result.Shape->erase(Result.Shape->begin() + *Dim);
  return Result;
}

TensorFact Evaluator::flatten(const OpCall &Op) const {
  TensorFact Result = rearranged(Op.Self, Op.Call.Call);
  const TensorCall &Call = Op.Call;
  std::optional<size_t> Rank = Op.rank();
  if (!Rank)
    return Result;
  if (*Rank == 0) {
    Result.Shape = Sizes{1};
    return Result;
  }
  std::optional<size_t> Start =
      normaliseDim(Call.Args.size() > 0 ? intArg(Call, 0) : 0, *Rank);
  std::optional<size_t> End =
      normaliseDim(Call.Args.size() > 1 ? intArg(Call, 1) : -1, *Rank);
  if (!Start || !End || *Start > *End)
    return Result;
  const Sizes &Old = *Op.Self.Shape;
  Sizes Shape(Old.begin(), Old.begin() + *Start);
  std::optional<int64_t> Middle =
      numel(llvm::ArrayRef<int64_t>(Old).slice(*Start, *End - *Start + 1));
  Shape.push_back(Middle.value_or(UnknownSize));
  Shape.append(Old.begin() + *End + 1, Old.end());
  Result.Shape = Shape;
  return Result;
}

/// t() and transpose(a, b).
TensorFact Evaluator::transpose(const OpCall &Op) const {
  TensorFact Result = rearranged(Op.Self, Op.Call.Call);
  bool IsT = Op.name() == "t";
  std::optional<size_t> Rank = Op.rank();
  if (!Rank || (*Rank > 2 && IsT))
    return Result;
  std::optional<size_t> A =
      IsT ? std::optional<size_t>(0) : normaliseDim(intArg(Op.Call, 0), *Rank);
  std::optional<size_t> B = IsT ? std::optional<size_t>(*Rank > 1 ? 1 : 0)
                                : normaliseDim(intArg(Op.Call, 1), *Rank);
  if (*Rank == 0)
    A = B = std::nullopt, Result.Shape = Op.Self.Shape;
  if (!A || !B)
    return Result;
  Result.Shape = Op.Self.Shape;
  std::swap((*Result.Shape)[*A], (*Result.Shape)[*B]);
  return Result;
}

/// clamp(min, max), clamp_min(min), clamp_max(max), in place too.
TensorFact Evaluator::clamp(const OpCall &Op) const {
  StringRef Name = Op.name();
  if (Name.ends_with("_"))
    Name = Name.drop_back();
  if (Name == "clamp_min")
    return evaluateClamp(Op.Self, Op.Call, scalarArg(Op.Call, 0), std::nullopt);
  if (Name == "clamp_max")
    return evaluateClamp(Op.Self, Op.Call, std::nullopt, scalarArg(Op.Call, 0));
  return evaluateClamp(Op.Self, Op.Call, scalarArg(Op.Call, 0),
                       scalarArg(Op.Call, 1));
}

TensorFact Evaluator::nanToNum(const OpCall &Op) const {
  TensorFact Result = Op.Self;
  Result.Finite = true;
  Result.Unbounded = false;
  return Result;
}

/// fill_(value) and zero_().
TensorFact Evaluator::fill(const OpCall &Op) const {
  TensorFact Result = Op.Self;
  std::optional<int64_t> Value =
      Op.name() == "zero_" ? std::optional<int64_t>(0) : intArg(Op.Call, 0);
  dropValues(Result);
  Result.UncheckedCast = nullptr;
  Result.CastFrom = nullptr;
  if (Value)
    setValues(Result, {*Value}, Op.Call.Call);
  return Result;
}

/// Elementwise ops that keep the element kind: relu, floor, abs, ...
TensorFact Evaluator::kindKeepingUnary(const OpCall &Op) const {
  const TensorFact &Self = Op.Self;
  StringRef Plain =
      Op.name().ends_with("_") ? Op.name().drop_back() : Op.name();
  unsigned Traits = opTraits(Plain);
  TensorFact Result = Self;
  if (Plain == "relu" && Self.hasRange()) {
    Result.Low = std::max<int64_t>(*Self.Low, 0);
    Result.High = std::max<int64_t>(*Self.High, 0);
    Result.Values.reset();
  } else if (Plain == "neg" && Self.hasRange()) {
    Result.Low = -*Self.High;
    Result.High = -*Self.Low;
    Result.Values.reset();
  } else if (!(Traits & KeepsIntegers)) {
    dropValues(Result);
  }
  if (!(Traits & KeepsFinite))
    Result.Finite = false;
  return Result;
}

/// Elementwise ops whose result is floating: exp, sigmoid, log, ...
TensorFact Evaluator::floatingUnary(const OpCall &Op) const {
  TensorFact Result = Op.Self;
  dropValues(Result);
  Result.Kind = ElementKind::Floating;
  Result.Finite = hasOpTraits(Op.name(), KeepsFinite) ? Op.Self.Finite : false;
  Result.Unbounded = false;
  Result.UncheckedCast = nullptr;
  Result.CastFrom = nullptr;
  return Result;
}

/// The facts of a new tensor an op makes from its input's shape, before the
/// shape is worked out.
static TensorFact madeFrom(const Expr *Call) {
  TensorFact Result;
  Result.ShapeOrigin = Call;
  return Result;
}

TensorFact Evaluator::matmul(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  const TensorFact &Self = Op.Self;
  if (Call.Args.empty())
    return {};
  TensorFact Result = madeFrom(Call.Call);
  TensorFact Other = evaluate(Call.Args[0], Op.Depth + 1);
  Result.Kind =
      Self.Kind == ElementKind::Floating || Other.Kind == ElementKind::Floating
          ? ElementKind::Floating
          : ElementKind::Unknown;
  if (!Self.Shape || !Other.Shape || Self.Shape->empty() ||
      Other.Shape->empty())
    return Result;
  const Sizes &A = *Self.Shape, &B = *Other.Shape;
  if (A.size() == 1 && B.size() == 1)
    Result.Shape = Sizes{};
  else if (A.size() == 1)
    Result.Shape = Sizes(B.begin(), B.end() - 2),
    Result.Shape->push_back(B.back());
  else if (B.size() == 1)
    Result.Shape = Sizes(A.begin(), A.end() - 1);
  else if (B.size() == 2)
    Result.Shape = Sizes(A.begin(), A.end() - 1),
    Result.Shape->push_back(B.back());
  else if (A.size() == 2 && B.size() > 2) {
    Result.Shape = Sizes(B.begin(), B.end() - 2);
    Result.Shape->push_back(A[0]);
    Result.Shape->push_back(B.back());
  } else {
    std::optional<Sizes> Batch =
        broadcastShapes(llvm::ArrayRef<int64_t>(A).drop_back(2),
                        llvm::ArrayRef<int64_t>(B).drop_back(2));
    if (!Batch)
      return Result;
    Result.Shape = *Batch;
    Result.Shape->push_back(A[A.size() - 2]);
    Result.Shape->push_back(B.back());
  }
  return Result;
}

/// sum, mean, amax, ... over the dimensions of their `dim` argument, all of
/// them without one; `keepdim` keeps the reduced ones with size 1.
TensorFact Evaluator::reduce(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  TensorFact Result = madeFrom(Call.Call);
  unsigned Traits = opTraits(Op.name());
  Result.Kind = Traits & ResultBool       ? ElementKind::Bool
                : Traits & KeepsKind      ? Op.Self.Kind
                : Traits & ResultFloating ? ElementKind::Floating
                                          : ElementKind::Unknown;
  std::optional<size_t> Rank = Op.rank();
  if (!Rank)
    return Result;
  const Expr *DimsArg = argumentFor(Call, "dim");
  if (!DimsArg) {
    Result.Shape = Sizes{};
    return Result;
  }
  std::optional<Sizes> Dims = sizesArgument(DimsArg, Context);
  if (!Dims)
    return Result;
  const Expr *KeepDimArg = argumentFor(Call, "keepdim");
  bool KeepDim =
      KeepDimArg && integerConstant(KeepDimArg, Context).value_or(0) != 0;
  llvm::SmallVector<bool, 4> Reduced(*Rank, false);
  for (int64_t Dim : *Dims) {
    std::optional<size_t> Index = normaliseDim(Dim, *Rank);
    if (!Index || Dim == UnknownSize)
      return Result;
    Reduced[*Index] = true;
  }
  Result.Shape.emplace();
  for (size_t I = 0; I < *Rank; ++I) {
    if (!Reduced[I])
      Result.Shape->push_back((*Op.Self.Shape)[I]);
    else if (KeepDim)
      Result.Shape->push_back(1);
  }
  return Result;
}

/// argmax and argmin: indexes into the reduced dimension.
TensorFact Evaluator::argExtreme(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  const TensorFact &Self = Op.Self;
  TensorFact Result = madeFrom(Call.Call);
  Result.Kind = ElementKind::Integer;
  Result.Finite = true;
  std::optional<size_t> Rank = Op.rank();
  if (!Rank)
    return Result;
  if (Call.Args.empty() || !intArg(Call, 0)) {
    // Over all elements, unless the dimension is given but not constant.
    if (!Call.Args.empty() &&
        !isa<CXXDefaultArgExpr>(Call.Args[0]->IgnoreImplicit()))
      return Result;
    Result.Shape = Sizes{};
    if (std::optional<int64_t> Count = numel(*Self.Shape); Count && *Count) {
      Result.Low = 0;
      Result.High = *Count - 1;
      Result.ExactBounds = true;
      Result.ValueOrigin = Call.Call;
    }
    return Result;
  }
  std::optional<size_t> Dim = normaliseDim(intArg(Call, 0), *Rank);
  if (!Dim)
    return Result;
  bool KeepDim = Call.Args.size() > 1 &&
                 integerConstant(Call.Args[1], Context).value_or(0) != 0;
  Result.Shape = Self.Shape;
  int64_t Size = (*Self.Shape)[*Dim];
  if (KeepDim)
    (*Result.Shape)[*Dim] = 1;
  else
    Result.Shape->erase(Result.Shape->begin() + *Dim);
  if (Size != UnknownSize && Size > 0) {
    Result.Low = 0;
    Result.High = Size - 1;
    Result.ExactBounds = true;
    Result.ValueOrigin = Call.Call;
  }
  return Result;
}

TensorFact Evaluator::oneHot(const OpCall &Op) const {
  TensorFact Result = madeFrom(Op.Call.Call);
  Result.Kind = ElementKind::Integer;
  Result.Low = 0;
  Result.High = 1;
  Result.ValueOrigin = Op.Call.Call;
  std::optional<int64_t> Classes = intArg(Op.Call, 0);
  if (Op.Self.Shape && Classes && *Classes > 0) {
    Result.Shape = Op.Self.Shape;
    Result.Shape->push_back(*Classes);
  }
  return Result;
}

/// at::embedding(weight, indices) and F::embedding(indices, weight).
TensorFact Evaluator::embedding(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  if (Call.Args.empty())
    return {};
  TensorFact Result = madeFrom(Call.Call);
  bool Functional = isInNamespace(Call.Callee, "torch::nn::functional");
  TensorFact Weight =
      Functional ? evaluate(Call.Args[0], Op.Depth + 1) : Op.Self;
  TensorFact Indices =
      Functional ? Op.Self : evaluate(Call.Args[0], Op.Depth + 1);
  Result.Kind = Weight.Kind;
  if (Weight.Shape && Weight.Shape->size() == 2 && Indices.Shape) {
    Result.Shape = Indices.Shape;
    Result.Shape->push_back(Weight.Shape->back());
  }
  return Result;
}

/// index_select(dim, index) and gather(dim, index).
TensorFact Evaluator::indexSelect(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  if (Call.Args.size() < 2)
    return {};
  TensorFact Result = madeFrom(Call.Call);
  TensorFact Index = evaluate(Call.Args[1], Op.Depth + 1);
  Result.Kind = Op.Self.Kind;
  if (Op.name() == "gather") {
    Result.Shape = Index.Shape;
    return Result;
  }
  std::optional<size_t> Dim =
      Op.rank() ? normaliseDim(intArg(Call, 0), *Op.rank()) : std::nullopt;
  if (Dim && Index.Shape && Index.Shape->size() <= 1) {
    Result.Shape = Op.Self.Shape;
    (*Result.Shape)[*Dim] = Index.Shape->empty() ? 1 : Index.Shape->front();
  }
  return Result;
}

/// slice(dim, start, end, step) and narrow(dim, start, length).
TensorFact Evaluator::slice(const OpCall &Op) const {
  const TensorCall &Call = Op.Call;
  std::optional<size_t> Rank = Op.rank();
  if (!Rank || *Rank == 0)
    return {};
  TensorFact Result = Op.Self;
  Result.ShapeOrigin = Call.Call;
  std::optional<size_t> Dim =
      normaliseDim(Call.Args.empty() ? 0 : intArg(Call, 0), *Rank);
  if (!Dim) {
    Result.Shape.reset();
    return Result;
  }
  int64_t &Size = (*Result.Shape)[*Dim];
  if (Size == UnknownSize)
    return Result;
  auto Clip = [&](int64_t Index) {
    return std::clamp<int64_t>(Index < 0 ? Index + Size : Index, 0, Size);
  };
  std::optional<int64_t> Start =
      Call.Args.size() > 1 ? optionalIntArg(Call, 1) : 0;
  std::optional<int64_t> End = Size;
  if (Op.name() == "narrow")
    End = Start && intArg(Call, 2)
              ? std::optional<int64_t>(Clip(*Start) + *intArg(Call, 2))
              : std::nullopt;
  else if (Call.Args.size() > 2)
    End = optionalIntArg(Call, 2);
  std::optional<int64_t> Step = Call.Args.size() > 3 ? intArg(Call, 3) : 1;
  if (!Start || !End || !Step || *Step < 1) {
    Size = UnknownSize;
    return Result;
  }
  int64_t Length = std::max<int64_t>(Clip(*End) - Clip(*Start), 0);
  Size = (Length + *Step - 1) / *Step;
  return Result;
}

TensorFact Evaluator::select(const OpCall &Op) const {
  std::optional<size_t> Rank = Op.rank();
  if (!Rank || *Rank == 0)
    return {};
  std::optional<size_t> Dim = normaliseDim(intArg(Op.Call, 0), *Rank);
  TensorFact Result = Op.Self;
  if (!Dim)
    Result.Shape.reset();
  else
    Result.Shape->erase(Result.Shape->begin() + *Dim);
  Result.ShapeOrigin = Op.Call.Call;
  return Result;
}

/// Comparisons and predicates: booleans of the input's shape.
TensorFact Evaluator::predicate(const OpCall &Op) const {
  TensorFact Result = madeFrom(Op.Call.Call);
  Result.Kind = ElementKind::Bool;
  Result.Shape = Op.Self.Shape;
  return Result;
}

//===----------------------------------------------------------------------===//
// The dataflow.
//===----------------------------------------------------------------------===//

class TensorFacts::Domain {
public:
  using Facts = TensorFactMap;

  explicit Domain(ASTContext &Context) : Context(Context) {}

  bool transfer(const CFGElement &Element, Facts &State) const {
    std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
    if (!S)
      return true;
    apply(S->getStmt(), State);
    return true;
  }

  void edge(const CFGBlock &, unsigned, Facts &) const {}

  bool join(Facts &Into, const Facts &Incoming) const {
    bool Changed = false;
    for (auto It = Into.begin(); It != Into.end();) {
      auto Other = Incoming.find(It->first);
      TensorFact Merged = Other == Incoming.end()
                              ? TensorFact()
                              : mergeFacts(It->second, Other->second);
      auto Current = It++;
      if (Merged == Current->second)
        continue;
      Changed = true;
      if (isEmpty(Merged))
        Into.erase(Current);
      else
        Current->second = Merged;
    }
    return Changed;
  }

  void widen(Facts &State) const { State.clear(); }

  TensorFact evaluate(const Expr *E, const Facts &State) const {
    return Evaluator(State, Context).evaluate(E);
  }

private:
  static const VarDecl *localVar(const Expr *E) {
    const auto *Var = dyn_cast_or_null<VarDecl>(referencedDecl(E));
    return Var && Var->hasLocalStorage() ? Var : nullptr;
  }

  void set(const VarDecl *Var, TensorFact Fact, Facts &State) const {
    if (isEmpty(Fact))
      State.erase(Var);
    else
      State[Var] = std::move(Fact);
  }

  /// The local variable whose elements the view \p E shows:
  /// `t.slice(1, 2)`, `t[0]`, `t.narrow(0, 1, 2).select(1, 0)`.
  static const VarDecl *viewBase(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      if (const VarDecl *Var = localVar(E))
        return Var;
      std::optional<TensorCall> Call = getTensorCall(E);
      if (!Call || !Call->Self || !isViewOp(Call->Name) ||
          hasOpTraits(Call->Name, MayCopy))
        return nullptr;
      // `t[mask]` indexes with a tensor and gives a copy.
      if (llvm::any_of(Call->Args, [](const Expr *Arg) {
            return isTensorType(Arg->getType());
          }))
        return nullptr;
      E = Call->Self;
    }
    return nullptr;
  }

  /// An in-place op on a view of a variable writes into that variable:
  /// `labels.slice(1, 9) = -1` adds -1 to the values of labels when the
  /// view is a non-empty part of it, and replaces them when it is all of it.
  void writeThroughView(const TensorCall &Call, Facts &State) const {
    const VarDecl *Var = viewBase(Call.Self);
    if (!Var || !State.count(Var))
      return;
    TensorFact Old = State.lookup(Var);
    TensorFact View = evaluate(Call.Self, State);
    std::optional<int64_t> ViewCount, BaseCount;
    if (View.Shape)
      ViewCount = numel(*View.Shape);
    if (Old.Shape)
      BaseCount = numel(*Old.Shape);
    std::optional<int64_t> Value;
    if (Call.Name == "fill_" && !Call.Args.empty())
      Value = integerConstant(Call.Args[0], Context);
    else if (Call.Name == "zero_")
      Value = 0;
    TensorFact New = Old;
    std::optional<double> Number = Call.Name == "zero_"
                                       ? std::optional<double>(0)
                                   : Call.Name == "fill_" && !Call.Args.empty()
                                       ? numberConstant(Call.Args[0], Context)
                                       : std::nullopt;
    New.Finite = Old.Finite && Number && std::isfinite(*Number);
    bool Partial =
        ViewCount && BaseCount && *ViewCount > 0 && *ViewCount < *BaseCount;
    bool Whole = ViewCount && BaseCount && *ViewCount == *BaseCount;
    if (Value && Whole) {
      dropValues(New);
      setValues(New, {*Value}, Call.Call);
      New.UncheckedCast = nullptr;
      New.CastFrom = nullptr;
    } else if (Value && Partial && Old.hasRange()) {
      // The written value is taken; the old bounds stay as good as they
      // were, though a literal's extreme element may be the one
      // overwritten.
      bool Exact = Old.ExactBounds && !Old.Values;
      int64_t Low = std::min(*Old.Low, *Value);
      int64_t High = std::max(*Old.High, *Value);
      dropValues(New);
      New.Low = Low;
      New.High = High;
      New.ExactBounds = Exact;
      New.ValueOrigin = Call.Call;
    } else {
      dropValues(New);
    }
    set(Var, New, State);
  }

  void apply(const Stmt *S, Facts &State) const {
    if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && isTensorType(Var->getType())) {
          if (Var->getType()->isReferenceType() || !Var->getInit())
            State.erase(Var);
          else
            set(Var, evaluate(Var->getInit(), State), State);
        }
      return;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;

    // `t = expr` rebinds the handle; `t[i] = v` writes through a view.
    if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(E);
        Assign && Assign->getOperator() == OO_Equal &&
        Assign->getNumArgs() == 2 && isTensorType(Assign->getType())) {
      const auto *Method =
          dyn_cast_or_null<CXXMethodDecl>(Assign->getDirectCallee());
      if (const VarDecl *Var = localVar(Assign->getArg(0));
          Var && Method && Method->getRefQualifier() != RQ_RValue) {
        set(Var, evaluate(Assign->getArg(1), State), State);
        return;
      }
    }

    if (std::optional<TensorCall> Call = getTensorCall(E)) {
      // isfinite(x) deciding a branch: x is known finite from here on, and
      // so are the casts made of it.
      if (Call->Name == "isfinite" && Call->Self && isInCondition(E, Context)) {
        if (const VarDecl *Var = localVar(Call->Self)) {
          TensorFact Fact = State.lookup(Var);
          Fact.Finite = true;
          Fact.Unbounded = false;
          if (Fact.UncheckedCast)
            Fact.UncheckedCast = nullptr, Fact.CastFrom = nullptr;
          set(Var, Fact, State);
          for (auto &Entry : State)
            if (Entry.second.CastFrom == Var) {
              Entry.second.UncheckedCast = nullptr;
              Entry.second.CastFrom = nullptr;
            }
        }
        return;
      }
      if (Call->mutatesSelf() && Call->Self) {
        const VarDecl *Var = localVar(Call->Self);
        if (!Var) {
          writeThroughView(*Call, State);
          return;
        }
        TensorFact Old = State.lookup(Var);
        TensorFact New = evaluate(E, State);
        if (Call->Form == TensorCallForm::CompoundAssign ||
            Call->Name == "copy_")
          New.Values.reset();
        // In place, the tensor keeps its shape and element type.
        New.Shape = Old.Shape;
        New.ShapeOrigin = Old.ShapeOrigin;
        New.Kind = Old.Kind;
        if (Call->Name == "copy_") {
          dropValues(New);
          New.UncheckedCast = nullptr;
          New.Finite = false;
        }
        set(Var, New, State);
      }
      return;
    }

    // A user's function may change a tensor handed to it: its values, and
    // through a non-const reference the handle itself.
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && isLibTorchDecl(Callee))
        return;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const VarDecl *Var = localVar(Call->getArg(I));
        if (!Var || !State.count(Var))
          continue;
        bool Rebinds = true;
        if (Callee && I < Callee->getNumParams()) {
          QualType Param = Callee->getParamDecl(I)->getType();
          Rebinds = Param->isReferenceType() &&
                    !Param.getNonReferenceType().isConstQualified();
        }
        TensorFact Fact = State.lookup(Var);
        dropValues(Fact);
        Fact.UncheckedCast = nullptr;
        Fact.Finite = false;
        if (Rebinds)
          Fact = TensorFact();
        set(Var, Fact, State);
      }
    }
  }

  ASTContext &Context;
};

struct TensorFacts::Result {
  ForwardDataflow<Domain> Dataflow;
};

TensorFacts::TensorFacts(const FunctionDecl &Function, ASTContext &Context)
    : D(std::make_unique<Domain>(Context)) {
  if (!Function.getBody())
    return;
  Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return;
  Solved =
      std::make_unique<Result>(Result{ForwardDataflow<Domain>(*Graph, *D)});
  Solved->Dataflow.run(TensorFactMap());
}

TensorFacts::~TensorFacts() = default;

void TensorFacts::forEachReachable(
    llvm::function_ref<void(const Stmt *, const TensorFactMap &)> Visit) const {
  if (!Solved)
    return;
  Solved->Dataflow.forEachElement(
      [&](const CFGElement &Element, const TensorFactMap &State) {
        if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
          Visit(S->getStmt(), State);
      });
}

TensorFact TensorFacts::evaluate(const Expr *E,
                                 const TensorFactMap &State) const {
  return D->evaluate(E, State);
}

} // namespace gpuguard::torch
