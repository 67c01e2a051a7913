//===--- TensorDenominatorAnalysis.cpp - What a tensor denominator can be -===//

#include "Analysis/Torch/TensorDenominatorAnalysis.h"
#include "Analysis/Core/BranchCondition.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Torch/TorchApi.h"
#include "Analysis/Torch/TorchOps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace clang;

namespace gpuguard::torch {

bool isDivisionOp(StringRef Name) {
  return llvm::is_contained({"div", "div_", "true_divide", "true_divide_",
                             "divide", "divide_", "floor_divide",
                             "floor_divide_"},
                            Name);
}

namespace {

/// An expression a branch proved non-zero, and the variables it reads, whose
/// reassignment ends the fact.
struct CheckedExpr {
  llvm::FoldingSetNodeID Profile;
  llvm::SmallVector<const VarDecl *, 2> Reads;
  /// Only some element is non-zero (`x.any()`): a sum of non-negative `x` is
  /// then positive, but `x` itself may still hold zeros.
  bool SomeElement = false;
};

struct DenominatorFacts {
  llvm::DenseMap<const VarDecl *, TensorValue> Vars;
  llvm::SmallVector<CheckedExpr, 2> Checked;
};

/// The local tensor variable \p E names, if it names one the analysis tracks.
bool isTracked(const VarDecl *Var) {
  return Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
         !Var->getType()->isReferenceType() && isTensorType(Var->getType());
}

const VarDecl *trackedVar(const Expr *E) {
  const auto *Var = dyn_cast_or_null<VarDecl>(referencedDecl(E));
  return isTracked(Var) ? Var : nullptr;
}

/// Strips what a condition adds around its comparison: parens, conversions,
/// `static_cast<bool>` and `__builtin_expect` (LibTorch's TORCH_CHECK); a `!`
/// flips \p Negated.
const Expr *stripCondition(const Expr *E, bool &Negated) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Not = dyn_cast<UnaryOperator>(E);
        Not && Not->getOpcode() == UO_LNot) {
      Negated = !Negated;
      E = Not->getSubExpr();
    } else if (const auto *Cast = dyn_cast<CXXStaticCastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *Call = dyn_cast<CallExpr>(E);
               Call &&
               Call->getBuiltinCallee() == Builtin::BI__builtin_expect) {
      E = Call->getArg(0);
    } else {
      return E;
    }
  }
  return E;
}

/// The tensor `X` of `X.item<T>()`, through conversions; null otherwise.
const Expr *itemOf(const Expr *E) {
  E = E->IgnoreParenCasts();
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  if (!Call || !Call->getMethodDecl() ||
      !Call->getMethodDecl()->getIdentifier() ||
      Call->getMethodDecl()->getName() != "item")
    return nullptr;
  const Expr *Object = Call->getImplicitObjectArgument();
  return Object && isTensorType(Object->getType()) ? Object : nullptr;
}

class DenominatorDomain {
public:
  using Facts = DenominatorFacts;

  explicit DenominatorDomain(ASTContext &Context) : Context(Context) {}

  bool transfer(const CFGElement &Element, Facts &F) const {
    auto Statement = Element.getAs<CFGStmt>();
    if (!Statement)
      return true;
    const Stmt *S = Statement->getStmt();
    if (isa<CXXThrowExpr>(S))
      return false;
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); isTracked(Var))
          assign(Var,
                 Var->getInit() ? evaluate(Var->getInit(), F) : TensorValue(),
                 F);
      return true;
    }
    const auto *E = dyn_cast<Expr>(S);
    // Only the call itself changes a tensor, not the wrappers Clang adds
    // around it, which are elements of their own.
    if (!E || ignoreTensorWrappers(E) != E)
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->isNoReturn())
        return false;
    }
    if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(E);
        Assign && Assign->getOperator() == OO_Equal &&
        Assign->getNumArgs() == 2) {
      if (const VarDecl *Var = trackedVar(Assign->getArg(0)))
        assign(Var, evaluate(Assign->getArg(1), F), F);
      return true;
    }
    if (std::optional<TensorCall> Call = getTensorCall(E)) {
      if (Call->mutatesSelf())
        if (const VarDecl *Var = trackedVar(Call->Self))
          assign(Var, evaluate(E, F), F);
      return true;
    }
    // A tensor passed by non-const reference to a function of the user's may
    // come back holding anything.
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        for (unsigned I = 0,
                      N = std::min(Call->getNumArgs(), Callee->getNumParams());
             I < N; ++I) {
          QualType Type = Callee->getParamDecl(I)->getType();
          if (Type->isLValueReferenceType() &&
              !Type.getNonReferenceType().isConstQualified())
            if (const VarDecl *Var = trackedVar(Call->getArg(I)))
              assign(Var, TensorValue(), F);
        }
    return true;
  }

  void edge(const CFGBlock &Block, unsigned Edge, Facts &F) const {
    const Expr *Condition = branchCondition(Block);
    if (!Condition)
      return;
    bool Negated = Edge == 1;
    Condition = stripCondition(Condition, Negated);
    if (const Expr *Checked = checkedNonZero(Condition, Negated))
      markNonZero(Checked, F);
  }

  bool join(Facts &Into, const Facts &Incoming) const {
    bool Changed = false;
    for (auto &[Var, Value] : Into.Vars) {
      auto It = Incoming.Vars.find(Var);
      TensorValue Joined = joinValues(
          Value, It == Incoming.Vars.end() ? TensorValue() : It->second);
      if (Joined != Value) {
        Value = Joined;
        Changed = true;
      }
    }
    for (const auto &[Var, Value] : Incoming.Vars)
      if (!Into.Vars.count(Var)) {
        TensorValue Joined = joinValues(TensorValue(), Value);
        if (Joined.Kind != TensorValue::Unknown) {
          Into.Vars[Var] = Joined;
          Changed = true;
        }
      }
    size_t Before = Into.Checked.size();
    llvm::erase_if(Into.Checked, [&](const CheckedExpr &Entry) {
      return llvm::none_of(Incoming.Checked, [&](const CheckedExpr &Other) {
        return Other.Profile == Entry.Profile &&
               Other.SomeElement == Entry.SomeElement;
      });
    });
    return Changed || Into.Checked.size() != Before;
  }

  void widen(Facts &F) const {
    F.Vars.clear();
    F.Checked.clear();
  }

  /// What \p E holds, given \p F.
  TensorValue evaluate(const Expr *E, const Facts &F, unsigned Depth = 0) const;

private:
  ASTContext &Context;

  llvm::FoldingSetNodeID profile(const Expr *E) const {
    llvm::FoldingSetNodeID ID;
    ignoreTensorWrappers(E)->Profile(ID, Context, /*Canonical=*/true);
    return ID;
  }

  /// True when a branch showed some element of \p E non-zero.
  bool hasNonZeroElement(const Expr *E, const Facts &F) const {
    if (F.Checked.empty())
      return false;
    llvm::FoldingSetNodeID ID = profile(E);
    return llvm::any_of(F.Checked, [&](const CheckedExpr &C) {
      return C.SomeElement && C.Profile == ID;
    });
  }

  bool sameValue(const Expr *A, const Expr *B) const {
    if (!A || !B)
      return false;
    return profile(A) == profile(B);
  }

  void assign(const VarDecl *Var, TensorValue Value, Facts &F) const {
    if (Value.Kind == TensorValue::Unknown)
      F.Vars.erase(Var);
    else
      F.Vars[Var] = Value;
    llvm::erase_if(F.Checked, [&](const CheckedExpr &Entry) {
      return llvm::is_contained(Entry.Reads, Var);
    });
  }

  void markNonZero(const Expr *E, Facts &F) const {
    CheckedExpr Entry;
    if (std::optional<TensorCall> Any = getTensorCall(E);
        Any && Any->Name == "any" && Any->Self && Any->Args.empty()) {
      E = Any->Self;
      Entry.SomeElement = true;
    } else if (const VarDecl *Var = trackedVar(E)) {
      TensorValue Value = F.Vars.lookup(Var);
      if (Value.Kind != TensorValue::Positive)
        F.Vars[Var] = TensorValue{TensorValue::NonZero};
      return;
    }
    Entry.Profile = profile(E);
    collectReadVariables(E, Entry.Reads, ReadScope::AllVariables);
    F.Checked.push_back(std::move(Entry));
  }

  /// The tensor a condition shows non-zero when it is true (false when
  /// \p Negated): `X.item<T>() != 0`, `X.item<T>() > 0`, `X.item<bool>()`,
  /// `(X != 0).all().item<bool>()`.
  const Expr *checkedNonZero(const Expr *Condition, bool Negated) const {
    if (const Expr *Item = itemOf(Condition))
      return Negated ? nullptr : allNonZero(Item);
    const auto *Compare = dyn_cast<BinaryOperator>(Condition);
    if (!Compare || !Compare->isComparisonOp())
      return nullptr;
    BinaryOperatorKind Op = Compare->getOpcode();
    const Expr *Item = itemOf(Compare->getLHS());
    const Expr *Other = Compare->getRHS();
    if (!Item) {
      Item = itemOf(Compare->getRHS());
      Other = Compare->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    // Only then the constant: reading a local's value asks whether anything
    // in the function changes it, which costs a walk of the body.
    if (!Item)
      return nullptr;
    std::optional<double> Bound = numberConstant(Other, Context);
    if (!Bound)
      return nullptr;
    if (Negated)
      Op = BinaryOperator::negateComparisonOp(Op);
    return excludesZero(Op, *Bound) ? allNonZero(Item) : nullptr;
  }

  /// True when `v Op Bound` rules out v == 0.
  static bool excludesZero(BinaryOperatorKind Op, double Bound) {
    switch (Op) {
    case BO_NE:
      return Bound == 0;
    case BO_EQ:
      return Bound != 0;
    case BO_GT:
      return Bound >= 0;
    case BO_GE:
      return Bound > 0;
    case BO_LT:
      return Bound <= 0;
    case BO_LE:
      return Bound < 0;
    default:
      return false;
    }
  }

  /// `d` for `(d != 0).all()` and `(d > 0).all()`; otherwise \p E itself.
  const Expr *allNonZero(const Expr *E) const {
    std::optional<TensorCall> All = getTensorCall(E);
    if (!All || All->Name != "all" || !All->Self)
      return E;
    if (const Expr *Compared = comparedNonZero(All->Self, /*WhenTrue=*/true))
      return Compared;
    return E;
  }

  /// The tensor `d` of an elementwise comparison that shows `d` non-zero
  /// where it is \p WhenTrue: `d != 0`, `d > 0`, `d.ne(0)`; for false, `d ==
  /// 0`, `d <= 0`.
  const Expr *comparedNonZero(const Expr *E, bool WhenTrue) const {
    std::optional<TensorCall> Compare = getTensorCall(E);
    if (!Compare || !Compare->Self || Compare->Args.size() != 1)
      return nullptr;
    BinaryOperatorKind Op =
        llvm::StringSwitch<BinaryOperatorKind>(Compare->Name)
            .Case("ne", BO_NE)
            .Case("eq", BO_EQ)
            .Case("gt", BO_GT)
            .Case("ge", BO_GE)
            .Case("lt", BO_LT)
            .Case("le", BO_LE)
            .Default(BO_Comma);
    if (Op == BO_Comma)
      return nullptr;
    std::optional<double> Bound = numberConstant(Compare->Args[0], Context);
    if (!Bound)
      return nullptr;
    if (!WhenTrue)
      Op = BinaryOperator::negateComparisonOp(Op);
    return excludesZero(Op, *Bound) ? Compare->Self : nullptr;
  }

  static TensorValue joinValues(TensorValue A, TensorValue B) {
    if (A == B)
      return A;
    // A zero fill meets what a loop or a branch made of it: an accumulator of
    // non-negative values stays a risk, anything else is what was added.
    if (B.Kind == TensorValue::Zero)
      std::swap(A, B);
    if (A.Kind == TensorValue::Zero) {
      if (B.Kind == TensorValue::NonNegative)
        return TensorValue{TensorValue::Accumulator, A.Site, B.Source, B.Why};
      return B.Kind == TensorValue::Unknown || B.canBeZero() ||
                     B.Kind == TensorValue::Positive ||
                     B.Kind == TensorValue::NonZero
                 ? B
                 : TensorValue();
    }
    // A risk survives a path that protects the value, but not one where
    // nothing is known of it: sums of unknown sign are not risks either.
    if (A.Kind == TensorValue::Unknown || B.Kind == TensorValue::Unknown)
      return TensorValue();
    if (A.canBeZero())
      return A;
    if (B.canBeZero())
      return B;
    if (A.isNonNegative() && B.isNonNegative()) {
      if (A.Kind == TensorValue::Positive && B.Kind == TensorValue::Positive)
        return A;
      return A.Kind == TensorValue::NonNegative ? A : B;
    }
    auto IsNonZero = [](const TensorValue &V) {
      return V.Kind == TensorValue::NonZero || V.Kind == TensorValue::Positive;
    };
    if (IsNonZero(A) && IsNonZero(B))
      return TensorValue{TensorValue::NonZero};
    return TensorValue();
  }

  static TensorValue made(TensorValue::KindType Kind, const Expr *At,
                          TensorValue::SourceKind Why) {
    return TensorValue{Kind, At, At, Why};
  }

  /// The value of a constant operand: zero, positive, or unknown.
  std::optional<TensorValue> constantValue(const Expr *E,
                                           const Expr *At) const {
    if (isTensorType(E->getType()))
      return std::nullopt;
    std::optional<double> Value = numberConstant(E, Context);
    if (!Value)
      return TensorValue();
    if (*Value == 0)
      return made(TensorValue::Zero, At, TensorValue::Fill);
    return TensorValue{*Value > 0 ? TensorValue::Positive
                                  : TensorValue::NonZero};
  }

  TensorValue operand(const Expr *E, const Expr *At, const Facts &F,
                      unsigned Depth) const {
    if (std::optional<TensorValue> Constant = constantValue(E, At))
      return *Constant;
    return evaluate(E, F, Depth + 1);
  }

  /// A tensor of value \p Self after some of its elements were set to
  /// \p Written (or had it added, when \p Accumulate): the elements not
  /// written keep what they were, so zeros can remain.
  static TensorValue partialWrite(const TensorValue &Self,
                                  const TensorValue &Written, bool Accumulate) {
    using V = TensorValue;
    if (!Self.isNonNegative() || !Written.isNonNegative())
      return V();
    if (Self.Kind == V::Zero)
      return V{V::Accumulator, Self.Site, Written.Source, Written.Why};
    if (Self.canBeZero())
      return Self;
    if (Self.Kind == V::Positive && (Accumulate || Written.Kind == V::Positive))
      return Self;
    return V{V::NonNegative, nullptr,
             Self.Source ? Self.Source : Written.Source,
             Self.Source ? Self.Why : Written.Why};
  }

  TensorValue evaluateCall(const TensorCall &Call, const Facts &F,
                           unsigned Depth) const;
  TensorValue evaluateWhere(const TensorCall &Call, const Facts &F,
                            unsigned Depth) const;
};

TensorValue DenominatorDomain::evaluate(const Expr *E, const Facts &F,
                                        unsigned Depth) const {
  if (!E || Depth > 16)
    return TensorValue();
  E = ignoreTensorWrappers(E);
  if (E->isTypeDependent() || E->isValueDependent())
    return TensorValue();
  if (!F.Checked.empty()) {
    llvm::FoldingSetNodeID ID = profile(E);
    if (llvm::any_of(F.Checked, [&](const CheckedExpr &C) {
          return !C.SomeElement && C.Profile == ID;
        }))
      return TensorValue{TensorValue::NonZero};
  }
  if (const VarDecl *Var = trackedVar(E))
    return F.Vars.lookup(Var);
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E))
    return joinValues(evaluate(Choice->getTrueExpr(), F, Depth + 1),
                      evaluate(Choice->getFalseExpr(), F, Depth + 1));
  if (std::optional<TensorCall> Call = getTensorCall(E))
    return evaluateCall(*Call, F, Depth);
  return TensorValue();
}

TensorValue DenominatorDomain::evaluateWhere(const TensorCall &Call,
                                             const Facts &F,
                                             unsigned Depth) const {
  if (!Call.Self || Call.Args.size() != 2)
    return TensorValue();
  // where(d != 0, d, ones): the branch that is `d` is non-zero where chosen.
  const Expr *NonZeroIfTrue = comparedNonZero(Call.Self, /*WhenTrue=*/true);
  const Expr *NonZeroIfFalse = comparedNonZero(Call.Self, /*WhenTrue=*/false);
  auto Branch = [&](const Expr *Chosen, const Expr *Protected) {
    TensorValue Value = operand(Chosen, Call.Call, F, Depth);
    if (!Protected || !sameValue(Chosen, Protected))
      return Value;
    return TensorValue{Value.isNonNegative() ? TensorValue::Positive
                                             : TensorValue::NonZero};
  };
  TensorValue Then = Branch(Call.Args[0], NonZeroIfTrue);
  TensorValue Else = Branch(Call.Args[1], NonZeroIfFalse);
  if (Then.canBeZero() || Else.canBeZero()) {
    // Zero in places only: no longer zero everywhere, nor a reduction.
    if (Then.isNonNegative() && Else.isNonNegative())
      return TensorValue{TensorValue::NonNegative, nullptr,
                         Then.Source ? Then.Source : Else.Source,
                         Then.Source ? Then.Why : Else.Why};
    return TensorValue();
  }
  return joinValues(Then, Else);
}

TensorValue DenominatorDomain::evaluateCall(const TensorCall &Call,
                                            const Facts &F,
                                            unsigned Depth) const {
  using V = TensorValue;
  StringRef Name = Call.Name;
  // In-place ops compute what their out-of-place forms do.
  if (Call.mutatesSelf() && Name.ends_with("_"))
    Name = Name.drop_back();
  const Expr *At = Call.Call;
  V Self = Call.Self ? evaluate(Call.Self, F, Depth + 1) : V();
  auto Arg = [&](unsigned I) -> std::optional<V> {
    if (I >= Call.Args.size())
      return std::nullopt;
    return operand(Call.Args[I], At, F, Depth);
  };

  // What OpTraits.def says of the op's values, whatever its operands.
  unsigned Traits = opTraits(Name);
  if (Traits & ResultZero)
    return made(V::Zero, At, V::Fill);
  if (Traits & ResultPositive)
    return V{V::Positive};
  if (Traits & ResultUnitInterval)
    return made(V::NonNegative, At, V::Random);
  if ((Traits & ResultBool) && !isReductionOp(Name))
    return made(V::NonNegative, At, V::Comparison);
  if (Traits & SameElements)
    return Self;

  if (Name == "full" || Name == "fill" || Name == "full_like") {
    // full(size, value); full_like(t, value) and t.fill_(value).
    std::optional<V> Fill = Call.Self ? Arg(0) : Arg(1);
    return Fill.value_or(V());
  }
  if (Name == "tensor" && !Call.Self && !Call.Args.empty()) {
    if (std::optional<V> Constant = constantValue(Call.Args[0], At))
      return Constant->Kind == V::Zero ? made(V::Zero, At, V::Fill) : *Constant;
    return V();
  }
  if (Name == "copy")
    return Arg(0).value_or(V());

  if (Name == "relu" || Name == "relu6") {
    if (Self.isNonNegative())
      return Self;
    return made(V::NonNegative, At, V::Relu);
  }
  if (Name == "abs" || Name == "square" ||
      (Name == "pow" && Call.Args.size() == 1)) {
    bool Even = Name != "pow";
    if (Name == "pow") {
      std::optional<double> Exponent = numberConstant(Call.Args[0], Context);
      if (!Exponent || *Exponent <= 0)
        return Self.Kind == V::Positive ? Self : V();
      Even = *Exponent == std::floor(*Exponent) &&
             static_cast<int64_t>(*Exponent) % 2 == 0;
    }
    if (Self.isNonNegative())
      return Self;
    if (Self.Kind == V::NonZero)
      return Even ? V{V::Positive} : V();
    if (!Even)
      return V();
    return made(V::NonNegative, At, Name == "abs" ? V::Abs : V::Square);
  }
  if (Name == "sqrt")
    return Self.isNonNegative() ? Self : V();
  if (Name == "neg")
    return Self.Kind == V::Zero || Self.Kind == V::NonZero ? Self : V();

  if (Name == "clamp_min" || Name == "clamp") {
    std::optional<V> Min = Arg(0);
    if (!Min || Min->Kind == V::Unknown)
      return V();
    if (Min->Kind == V::Positive)
      return V{V::Positive};
    if (Min->Kind == V::Zero)
      return Self.isNonNegative() ? Self : made(V::NonNegative, At, V::Clamp);
    return V();
  }
  if (Name == "maximum" || Name == "fmax" ||
      (Name == "max" && Call.Args.size() == 1)) {
    V Other = Arg(0).value_or(V());
    if (Self.Kind == V::Positive || Other.Kind == V::Positive)
      return V{V::Positive};
    if (Self.isNonNegative() || Other.isNonNegative())
      return made(V::NonNegative, At, V::Clamp);
    return V();
  }

  if (Name == "add" || Name == "sub") {
    std::optional<V> Other = Arg(0);
    const Expr *First = Call.Self;
    if (!Call.Self) { // 1 + t, 1 - t
      if (Call.Args.size() != 2)
        return V();
      Self = operand(Call.Args[0], At, F, Depth);
      Other = operand(Call.Args[1], At, F, Depth);
      First = nullptr;
    }
    if (!Other)
      return V();
    if (Name == "sub") {
      if (First && sameValue(First, Call.Args[0]))
        return made(V::Zero, At, V::Fill);
      if (Other->Kind == V::Zero)
        return Self;
      return V();
    }
    if (Self.Kind == V::Zero)
      return Other->Kind == V::Zero || !Other->isNonNegative() ||
                     Other->Kind == V::Positive
                 ? *Other
                 : V{V::Accumulator, Self.Site, Other->Source, Other->Why};
    if (Other->Kind == V::Zero)
      return Self;
    if (!Self.isNonNegative() || !Other->isNonNegative())
      return V();
    if (Self.Kind == V::Positive || Other->Kind == V::Positive)
      return V{V::Positive};
    if (Self.Kind == V::Accumulator)
      return Self;
    if (Self.canBeZero() && Other->canBeZero())
      return Self;
    return V{V::NonNegative, nullptr, Self.Source ? Self.Source : Other->Source,
             Self.Source ? Self.Why : Other->Why};
  }

  if (Name == "mul" || isDivisionOp(Name)) {
    bool Divides = Name != "mul";
    std::optional<V> Other = Arg(0);
    if (!Call.Self) { // 2 * t, 1 / t
      if (Divides || Call.Args.size() != 2)
        return V();
      Other = operand(Call.Args[0], At, F, Depth);
      Self = operand(Call.Args[1], At, F, Depth);
    }
    if (!Other)
      return V();
    if (!Divides && Call.Self && sameValue(Call.Self, Call.Args[0])) {
      if (Self.isNonNegative() || Self.Kind == V::NonZero)
        return Self.Kind == V::NonZero ? V{V::Positive} : Self;
      return made(V::NonNegative, At, V::Square);
    }
    if (!Divides && Other->Kind == V::Zero)
      return Other->Site == At ? made(V::Zero, At, V::Fill) : *Other;
    if (Self.Kind == V::Zero)
      return Self;
    bool OtherNonZero = Other->Kind == V::Positive || Other->Kind == V::NonZero;
    if (Self.canBeZero())
      return OtherNonZero || (!Divides && Other->isNonNegative()) ? Self : V();
    if (!Divides && Other->canBeZero())
      return Self.Kind == V::Positive || Self.Kind == V::NonZero ||
                     Self.isNonNegative()
                 ? *Other
                 : V();
    if (Self.Kind == V::Positive && Other->Kind == V::Positive)
      return V{V::Positive};
    if (Self.isNonNegative() && Other->isNonNegative())
      return V{V::NonNegative, nullptr,
               Self.Source ? Self.Source : Other->Source,
               Self.Source ? Self.Why : Other->Why};
    if (Self.Kind >= V::NonZero && Self.Kind <= V::Positive &&
        Other->Kind >= V::NonZero && Other->Kind <= V::Positive)
      return V{V::NonZero};
    return V();
  }

  // Writes into some elements: index_put(indices, values, accumulate),
  // index_add(dim, index, source, alpha), scatter_add(dim, index, src).
  if (Name == "index_put" || Name == "index_add" || Name == "scatter_add") {
    unsigned ValuesArg = Name == "index_put" ? 1 : 2;
    std::optional<V> Written = Arg(ValuesArg);
    if (Name == "index_add" && Call.Args.size() > 3 &&
        Arg(3).value_or(V()).Kind != V::Positive)
      return V(); // a negative or unknown alpha
    if (!Written)
      return V();
    bool Accumulate = Name != "index_put";
    if (Name == "index_put" && Call.Args.size() > 2)
      Accumulate = integerConstant(Call.Args[2], Context).value_or(0) != 0;
    return partialWrite(Self, *Written, Accumulate);
  }

  // Reductions.
  if (llvm::is_contained({"sum", "nansum", "mean", "nanmean", "count_nonzero"},
                         Name)) {
    bool Mean = Name == "mean" || Name == "nanmean";
    if (Name == "count_nonzero")
      return V{V::Sum, At, At, V::Comparison};
    if (Self.Kind == V::Positive)
      return Self;
    if (!Self.isNonNegative())
      return V();
    if (Call.Self && hasNonZeroElement(Call.Self, F))
      return V{V::Positive};
    const Expr *Source = Self.Source ? Self.Source : Self.Site;
    return V{Mean ? V::Mean : V::Sum, At, Source,
             Self.Source ? Self.Why : V::Fill};
  }
  if (Name == "std")
    return V{V::StandardDeviation, At, nullptr, V::NoSource};
  if (Name == "var")
    return V{V::Variance, At, nullptr, V::NoSource};
  if (Name == "norm")
    return Self.Kind == V::Positive ? Self
                                    : V{V::Norm, At, nullptr, V::NoSource};
  // An extreme value of the elements: of their sign, but no longer a sum.
  if (llvm::is_contained({"max", "min", "amax", "amin", "median"}, Name)) {
    if (!Self.isNonNegative() || !Self.canBeZero())
      return Self.isNonNegative() ? Self : V();
    return V{V::NonNegative, nullptr, Self.Source, Self.Why};
  }

  if (Name == "where")
    return evaluateWhere(Call, F, Depth);
  return V();
}

} // namespace

TensorDenominatorAnalysis::TensorDenominatorAnalysis(
    const FunctionDecl &Function, ASTContext &Context) {
  if (!Function.getBody())
    return;
  std::unique_ptr<CFG> Graph = buildDataflowCFG(Function, Context);
  if (!Graph)
    return;
  DenominatorDomain Domain(Context);
  ForwardDataflow<DenominatorDomain> Flow(*Graph, Domain);
  Flow.run(DenominatorFacts());

  llvm::SmallPtrSet<const Expr *, 8> Seen;
  Flow.forEachElement([&](const CFGElement &Element,
                          const DenominatorFacts &Facts) {
    auto Statement = Element.getAs<CFGStmt>();
    const auto *E = Statement ? dyn_cast<Expr>(Statement->getStmt()) : nullptr;
    if (!E || ignoreTensorWrappers(E) != E)
      return;
    std::optional<TensorCall> Call = getTensorCall(E);
    if (!Call || !isDivisionOp(Call->Name) || Call->Args.empty())
      return;
    const Expr *Denominator = Call->Args.back();
    if (!Call->Self && Call->Args.size() != 2)
      return;
    if (Call->Self && Call->Args.size() >= 2)
      Denominator = Call->Args[0]; // div(other, rounding_mode)
    if (!isTensorType(Denominator->getType()) || !Seen.insert(E).second)
      return;
    TensorValue Value = Domain.evaluate(Denominator, Facts);
    if (!Value.canBeZero()) {
      if (Value.Kind == TensorValue::Unknown ||
          Value.Kind == TensorValue::NonNegative)
        Unproven.push_back({E, Denominator, trackedVar(Denominator), Value});
      return;
    }
    Risky.push_back({E, Denominator, trackedVar(Denominator), Value});
  });
  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Risky, [&](const RiskyDivision &A, const RiskyDivision &B) {
    return SM.isBeforeInTranslationUnit(A.Denominator->getBeginLoc(),
                                        B.Denominator->getBeginLoc());
  });
}

TensorDenominatorAnalysis::~TensorDenominatorAnalysis() = default;

} // namespace gpuguard::torch
