//===--- NonZeroAnalysis.cpp - Which values are proven non-zero -----------===//

#include "Analysis/Core/NonZeroAnalysis.h"
#include "Analysis/Core/BranchCondition.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ForwardDataflow.h"
#include "Analysis/Core/KnownCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>
#include <optional>

using namespace clang;

namespace gpuguard {

/// A fact is about a local variable, or about any other expression by its
/// structural profile (so `counts[b]` in a guard matches `counts[b]` in the
/// division it protects).
struct NonZeroFacts {
  struct Key {
    /// The VarDecl, or the first expression seen with the same profile.
    const void *Id = nullptr;

    bool operator==(const Key &Other) const { return Id == Other.Id; }
  };

  /// `Subject Op Constant`, with Op one of <, <=, >, >=, == and !=; or, when
  /// Other is set, `Subject != Other` with Subject the lower Id,
  /// `Subject >= Other` for a counter that started at Other and only grew, or
  /// `Subject == Other` for a local holding a difference (`deg = end -
  /// begin`), so that what is learnt of the difference holds for the local.
  struct Fact {
    Key Subject;
    BinaryOperatorKind Op = BO_NE;
    double Constant = 0;
    Key Other; ///< Null Id for a comparison with a constant.
  };

  /// Sorted by subject, so that the facts about one value are found by a
  /// binary search.
  llvm::SmallVector<Fact, 4> Items;
};

namespace {

using Key = NonZeroFacts::Key;
using Fact = NonZeroFacts::Fact;

/// Deeper expressions than this are not reasoned about: nobody writes a
/// divisor that deep, and it bounds the mutual recursion below.
constexpr unsigned MaxDepth = 8;
/// A block processed this many times has its facts dropped, which ends the
/// iteration whatever the shape of the loops.

/// Strips parentheses and the conversions that keep a value zero or
/// non-zero: loads, integer conversions, integer to floating point. A
/// floating-to-integer conversion is kept: it turns 0.5 into 0.
const Expr *stripZeroPreservingCasts(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Full = dyn_cast<FullExpr>(E)) {
      E = Full->getSubExpr();
      continue;
    }
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast)
      return E;
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToFloating:
    case CK_FloatingCast:
      E = Cast->getSubExpr();
      continue;
    default:
      return E;
    }
  }
  return E;
}

/// Strips every conversion, and unary signs: a zero stays a zero through
/// all of them.
const Expr *stripToValue(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *Full = dyn_cast<FullExpr>(E)) {
      E = Full->getSubExpr();
      continue;
    }
    const auto *Sign = dyn_cast<UnaryOperator>(E);
    if (Sign &&
        (Sign->getOpcode() == UO_Minus || Sign->getOpcode() == UO_Plus)) {
      E = Sign->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

/// A local variable or parameter named by \p E.
/// Variables whose value can be a divisor: scalars, and in templates the
/// types that may turn out to be scalars (`T`, `typename U::value_type`), not
/// `std::vector<T>`, `T *` or `T[N]`.
bool isTrackedType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  return T->isDependentType() && !T->getAs<TemplateSpecializationType>() &&
         !T->isRecordType() && !T->isPointerType() && !T->isArrayType();
}

/// The single value of `T x(v)` and `T x{v}`; dependent code keeps the
/// former as a list whose type is not known yet.
const Expr *singleInitialiser(const Expr *Init) {
  if (const auto *List = dyn_cast<InitListExpr>(Init);
      List && List->getNumInits() == 1)
    return List->getInit(0);
  if (const auto *List = dyn_cast<ParenListExpr>(Init);
      List && List->getNumExprs() == 1)
    return List->getExpr(0);
  return Init;
}

/// A value-dependent expression that is still a compile-time constant:
/// template parameters, `sizeof(T)`, `T::value` and arithmetic on them. The
/// compiler checks its value in every instantiation and diagnoses a constant
/// zero divisor itself.
bool isTemplateConstant(const Expr *E, const ASTContext &Context) {
  E = E->IgnoreParenCasts();
  if (!E->isValueDependent())
    return !E->isTypeDependent() && E->isEvaluatable(Context);
  if (isa<UnaryExprOrTypeTraitExpr, DependentScopeDeclRefExpr,
          SubstNonTypeTemplateParmExpr, SizeOfPackExpr>(E))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    if (isa<NonTypeTemplateParmDecl, EnumConstantDecl>(D))
      return true;
    const auto *Var = dyn_cast<VarDecl>(D);
    return Var && Var->isConstexpr();
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isArithmeticOp() &&
           isTemplateConstant(UO->getSubExpr(), Context);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isTemplateConstant(BO->getLHS(), Context) &&
           isTemplateConstant(BO->getRHS(), Context);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isTemplateConstant(CO->getCond(), Context) &&
           isTemplateConstant(CO->getTrueExpr(), Context) &&
           isTemplateConstant(CO->getFalseExpr(), Context);
  if (const auto *Construct = dyn_cast<CXXUnresolvedConstructExpr>(E))
    return Construct->getNumArgs() == 1 &&
           isTemplateConstant(Construct->getArg(0), Context);
  return false;
}

/// The value of a constant expression, or std::nullopt. Integers beyond
/// 2^53 are left out rather than rounded.
std::optional<double> constantValue(const Expr *E, const ASTContext &Context) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsRValue(Result, Context) || Result.HasSideEffects)
    return std::nullopt;
  if (Result.Val.isInt()) {
    const llvm::APSInt &Value = Result.Val.getInt();
    if (Value.getSignificantBits() > 53)
      return std::nullopt;
    return Value.isSigned() ? double(Value.getSExtValue())
                            : double(Value.getZExtValue());
  }
  if (Result.Val.isFloat()) {
    llvm::APFloat Value = Result.Val.getFloat();
    bool LosesInfo = false;
    Value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
    double D = Value.convertToDouble();
    if (std::isnan(D))
      return std::nullopt;
    return D;
  }
  return std::nullopt;
}

bool isSizeOf(const Expr *E) {
  const auto *Trait = dyn_cast<UnaryExprOrTypeTraitExpr>(E);
  if (!Trait)
    return false;
  switch (Trait->getKind()) {
  case UETT_SizeOf:
  case UETT_DataSizeOf:
  case UETT_AlignOf:
  case UETT_PreferredAlignOf:
    return true;
  default:
    return false;
  }
}

enum class CallKind { Other, Max, Min, Abs };

/// Calls whose result is bounded by their arguments, by name, so that
/// `max`, `std::max`, `fmaxf` and a dependent `max(d, T(1))` all count.
CallKind callKind(const CallExpr *Call) {
  StringRef Name;
  if (const auto *Callee = dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl());
      Callee && Callee->getIdentifier())
    Name = Callee->getName();
  else if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
               Call->getCallee()->IgnoreParenImpCasts());
           Lookup && Lookup->getName().isIdentifier())
    Name = Lookup->getName().getAsIdentifierInfo()->getName();
  CallKind Kind = llvm::StringSwitch<CallKind>(Name)
                      .Cases({"abs", "labs", "llabs", "fabs", "fabsf", "fabsl"},
                             CallKind::Abs)
                      .Default(CallKind::Other);
  if (MinMaxFunction MinMax = classifyMinMax(Name))
    Kind = MinMax.Kind == MinMaxKind::Min ? CallKind::Min : CallKind::Max;
  if (Kind == CallKind::Abs && Call->getNumArgs() != 1)
    return CallKind::Other;
  if ((Kind == CallKind::Max || Kind == CallKind::Min) &&
      Call->getNumArgs() != 2)
    return CallKind::Other;
  return Kind;
}

/// A member of a parameter passed by value or by reference (`p.cols`,
/// `p.shape.n`): an argument packed in a struct, not a load from memory.
bool isParameterMember(const Expr *E) {
  while (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
      return false;
    E = Member->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref && isa<ParmVarDecl>(Ref->getDecl());
}

bool isParameter(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref && isa<ParmVarDecl>(Ref->getDecl());
}

bool isLoad(const Expr *E) {
  if (isa<ArraySubscriptExpr, CXXDependentScopeMemberExpr>(E))
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(Member->getMemberDecl());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star;
  return false;
}

bool satisfies(double Value, BinaryOperatorKind Op, double Constant) {
  switch (Op) {
  case BO_LT:
    return Value < Constant;
  case BO_LE:
    return Value <= Constant;
  case BO_GT:
    return Value > Constant;
  case BO_GE:
    return Value >= Constant;
  case BO_EQ:
    return Value == Constant;
  case BO_NE:
    return Value != Constant;
  default:
    return false;
  }
}

/// Whether every value with `x Known K` also has `x Wanted W`.
bool entails(BinaryOperatorKind Known, double K, BinaryOperatorKind Wanted,
             double W) {
  switch (Known) {
  case BO_EQ:
    return satisfies(K, Wanted, W);
  case BO_NE:
    return Wanted == BO_NE && K == W;
  case BO_GT:
    return (Wanted == BO_GT || Wanted == BO_GE || Wanted == BO_NE) && W <= K;
  case BO_GE:
    return ((Wanted == BO_GT || Wanted == BO_NE) && W < K) ||
           (Wanted == BO_GE && W <= K);
  case BO_LT:
    return (Wanted == BO_LT || Wanted == BO_LE || Wanted == BO_NE) && W >= K;
  case BO_LE:
    return ((Wanted == BO_LT || Wanted == BO_NE) && W > K) ||
           (Wanted == BO_LE && W >= K);
  default:
    return false;
  }
}

bool implies(const Fact &Known, const Fact &Wanted) {
  if (!(Known.Subject == Wanted.Subject))
    return false;
  if (Wanted.Other.Id)
    return Known.Other == Wanted.Other && Known.Op == Wanted.Op;
  return !Known.Other.Id &&
         entails(Known.Op, Known.Constant, Wanted.Op, Wanted.Constant);
}

bool bySubject(const Fact &A, const Fact &B) {
  return std::less<const void *>()(A.Subject.Id, B.Subject.Id);
}

/// The facts whose subject is \p Subject, found by a binary search.
llvm::ArrayRef<Fact> factsAbout(Key Subject, const NonZeroFacts &Facts) {
  Fact Probe;
  Probe.Subject = Subject;
  auto [Begin, End] = std::equal_range(Facts.Items.begin(), Facts.Items.end(),
                                       Probe, bySubject);
  return llvm::ArrayRef<Fact>(Begin, End);
}

bool impliedBy(const NonZeroFacts &Facts, const Fact &Wanted) {
  return llvm::any_of(factsAbout(Wanted.Subject, Facts),
                      [&](const Fact &F) { return implies(F, Wanted); });
}

void insertFact(Fact New, NonZeroFacts &Facts) {
  auto Pos =
      std::upper_bound(Facts.Items.begin(), Facts.Items.end(), New, bySubject);
  Facts.Items.insert(Pos, std::move(New));
}

bool impliedByAny(llvm::ArrayRef<Fact> Known, const Fact &Wanted) {
  return llvm::any_of(Known, [&](const Fact &F) { return implies(F, Wanted); });
}

/// Walks two fact sets side by side, one subject at a time, with the facts
/// each holds about it (either may be empty).
void forEachSubject(
    const NonZeroFacts &A, const NonZeroFacts &B,
    llvm::function_ref<void(llvm::ArrayRef<Fact>, llvm::ArrayRef<Fact>)>
        Visit) {
  llvm::ArrayRef<Fact> RestA = A.Items, RestB = B.Items;
  std::less<const void *> Less;
  while (!RestA.empty() || !RestB.empty()) {
    const void *Id =
        RestB.empty() || (!RestA.empty() && Less(RestA.front().Subject.Id,
                                                 RestB.front().Subject.Id))
            ? RestA.front().Subject.Id
            : RestB.front().Subject.Id;
    auto About = [&](const Fact &F) { return F.Subject.Id == Id; };
    size_t InA = llvm::find_if_not(RestA, About) - RestA.begin();
    size_t InB = llvm::find_if_not(RestB, About) - RestB.begin();
    Visit(RestA.take_front(InA), RestB.take_front(InB));
    RestA = RestA.drop_front(InA);
    RestB = RestB.drop_front(InB);
  }
}

/// What every path into a block knows: each side's facts that the other
/// side implies, so `d > 0` on one path and `d == 1` on the other keep
/// `d > 0`.
NonZeroFacts joinFacts(const NonZeroFacts &A, const NonZeroFacts &B) {
  NonZeroFacts Result;
  forEachSubject(
      A, B, [&](llvm::ArrayRef<Fact> FromA, llvm::ArrayRef<Fact> FromB) {
        size_t Start = Result.Items.size();
        for (const Fact &F : FromA)
          if (impliedByAny(FromB, F))
            Result.Items.push_back(F);
        size_t KeptFromA = Result.Items.size();
        for (const Fact &F : FromB)
          if (impliedByAny(FromA, F) &&
              !impliedByAny(
                  llvm::ArrayRef(Result.Items).slice(Start, KeptFromA - Start),
                  F))
            Result.Items.push_back(F);
      });
  return Result;
}

/// Whether \p Known implies every fact of \p Wanted.
bool impliesAll(const NonZeroFacts &Known, const NonZeroFacts &Wanted) {
  bool All = true;
  forEachSubject(Known, Wanted,
                 [&](llvm::ArrayRef<Fact> K, llvm::ArrayRef<Fact> W) {
                   All = All && llvm::all_of(W, [&](const Fact &F) {
                           return impliedByAny(K, F);
                         });
                 });
  return All;
}

/// One way a local variable receives a value.
struct Definition {
  const Expr *Value;
  SourceLocation Loc;
  /// `d -= x`: the variable now holds a difference.
  bool IsSubtraction;
  /// What to show for the value: the range of a range-based for variable,
  /// whose own initialiser is the implicit `*__begin`.
  const Expr *Shown;
};

void collectDefinitions(
    const Stmt *S,
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<Definition, 2>> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
            Var->getInit() && isTrackedType(Var->getType()) &&
            !Var->isCXXForRangeDecl()) {
          const Expr *Init = singleInitialiser(Var->getInit());
          Out[Var].push_back({Init, Var->getLocation(), false, Init});
        }
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    const VarDecl *Var = Range->getLoopVariable();
    if (Var && Var->getInit() && isTrackedType(Var->getType()))
      Out[Var].push_back(
          {Var->getInit(), Var->getLocation(), false, Range->getRangeInit()});
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    const VarDecl *Var = asLocalVariable(BO->getLHS()->IgnoreParenImpCasts());
    if (Var && !isa<ParmVarDecl>(Var) && isTrackedType(Var->getType())) {
      if (BO->getOpcode() == BO_Assign)
        Out[Var].push_back(
            {BO->getRHS(), BO->getOperatorLoc(), false, BO->getRHS()});
      else if (BO->getOpcode() == BO_SubAssign)
        Out[Var].push_back({BO, BO->getOperatorLoc(), true, BO});
    }
  }
  for (const Stmt *Child : S->children())
    collectDefinitions(Child, Out);
}

} // namespace

class NonZeroAnalysis::Impl {
public:
  Impl(const FunctionDecl &Function, ASTContext &Context,
       NonZeroAnalysisOptions Options)
      : Function(Function), Context(Context), Options(std::move(Options)) {
    collectDefinitions(Function.getBody(), Definitions);
    run();
  }

  void forEachReachable(
      llvm::function_ref<void(const Stmt *, const NonZeroFacts &)> Visit) const;
  bool nonZero(const Expr *E, const NonZeroFacts &Facts,
               unsigned Depth = 0) const;
  void collectSources(const Expr *E,
                      llvm::SmallVectorImpl<ZeroSource::Copy> &Chain,
                      llvm::DenseSet<const VarDecl *> &Visited,
                      llvm::SmallVectorImpl<ZeroSource> &Out) const;

  // The domain of ForwardDataflow.
  using Facts = NonZeroFacts;
  bool transfer(const CFGElement &Element, NonZeroFacts &Facts) const {
    if (auto Lifetime = Element.getAs<CFGLifetimeEnds>())
      kill(Lifetime->getVarDecl(), Facts);
    if (auto S = Element.getAs<CFGStmt>())
      return transfer(S->getStmt(), Facts);
    return true;
  }
  void edge(const CFGBlock &Block, unsigned Edge, NonZeroFacts &Facts) const {
    if (const Expr *Cond = branchCondition(Block))
      assume(Cond, Edge == 0, Facts);
  }
  bool join(NonZeroFacts &Into, const NonZeroFacts &Incoming) const {
    NonZeroFacts Met = joinFacts(Into, Incoming);
    // The join only weakens: it changed when it lost something.
    if (impliesAll(Met, Into))
      return false;
    Into = std::move(Met);
    return true;
  }
  void widen(NonZeroFacts &Facts) const { Facts.Items.clear(); }

private:
  void run();
  /// Applies one statement; returns false when the path ends there.
  bool transfer(const Stmt *S, NonZeroFacts &Facts) const;

  bool positive(const Expr *E, const NonZeroFacts &Facts,
                unsigned Depth = 0) const;
  bool nonNegative(const Expr *E, const NonZeroFacts &Facts,
                   unsigned Depth = 0) const;
  bool notEqual(const Expr *E, double Value, const NonZeroFacts &Facts,
                unsigned Depth) const;
  /// Whether \p Holds is true of both branches of \p CO, each under its
  /// condition.
  bool onBothBranches(
      const AbstractConditionalOperator *CO, const NonZeroFacts &Facts,
      llvm::function_ref<bool(const Expr *, const NonZeroFacts &)> Holds) const;

  Key keyOf(const Expr *E) const;
  /// Whether the value \p K names reads \p Var, so that assigning Var ends
  /// the facts about it.
  bool reads(const Key &K, const VarDecl *Var) const;
  bool known(const Expr *E, BinaryOperatorKind Op, double Constant,
             const NonZeroFacts &Facts) const;
  bool distinct(const Expr *A, const Expr *B, const NonZeroFacts &Facts) const;

  void addFact(Fact New, NonZeroFacts &Facts) const;
  void addConstantFact(const Expr *Compared, BinaryOperatorKind Op,
                       double Constant, NonZeroFacts &Facts) const;
  void addVariableFact(const VarDecl *Var, BinaryOperatorKind Op,
                       double Constant, NonZeroFacts &Facts) const;
  /// For each value \p Counter is known to have started from, that it
  /// differs from \p End, which the counter is below.
  void addStartDistinctions(Key Counter, Key End, NonZeroFacts &Facts) const;
  void addComparison(const Expr *L, BinaryOperatorKind Op, const Expr *R,
                     NonZeroFacts &Facts) const;
  void assume(const Expr *Cond, bool Truth, NonZeroFacts &Facts) const;
  /// The strongest of `== c`, `> 0`, `!= 0` and `>= 0` that \p Value
  /// satisfies.
  std::optional<std::pair<BinaryOperatorKind, double>>
  describe(const Expr *Value, const NonZeroFacts &Facts) const;
  /// Replaces what is known of \p Var by what it holds after receiving
  /// \p Value.
  void assign(const VarDecl *Var, const Expr *Value, NonZeroFacts &Facts) const;
  void kill(const VarDecl *Var, NonZeroFacts &Facts) const;
  /// `++d` and `d += x` for a non-negative x keep lower bounds; `--d` and
  /// `d -= x` keep upper bounds.
  void shift(const VarDecl *Var, bool Up, NonZeroFacts &Facts) const;
  void killMemory(const Expr *Stored, NonZeroFacts &Facts) const;

  const FunctionDecl &Function;
  ASTContext &Context;
  NonZeroAnalysisOptions Options;
  std::unique_ptr<CFG> Graph;
  // Behind a pointer: the driver needs the complete Impl.
  std::unique_ptr<ForwardDataflow<Impl>> Dataflow;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<Definition, 2>> Definitions;
  /// Expressions by the hash of their profile: the first one seen with a
  /// profile is the key of all that share it.
  mutable llvm::DenseMap<
      unsigned,
      llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, const Expr *>, 1>>
      Profiles;
  /// The local variables each expression key reads.
  mutable llvm::DenseMap<const void *, llvm::SmallVector<const VarDecl *, 2>>
      KeyReads;
};

Key NonZeroAnalysis::Impl::keyOf(const Expr *E) const {
  Key Result;
  E = stripZeroPreservingCasts(E);
  // `(d = f()) != 0` is about d.
  if (const auto *Assign = dyn_cast<BinaryOperator>(E);
      Assign && Assign->getOpcode() == BO_Assign)
    E = stripZeroPreservingCasts(Assign->getLHS());
  if (const VarDecl *Var = asLocalVariable(E)) {
    Result.Id = Var;
    return Result;
  }
  llvm::FoldingSetNodeID Profile;
  E->Profile(Profile, Context, /*Canonical=*/true);
  auto &Bucket = Profiles[Profile.ComputeHash()];
  for (const auto &[Seen, First] : Bucket)
    if (Seen == Profile) {
      Result.Id = First;
      return Result;
    }
  Bucket.emplace_back(std::move(Profile), E);
  collectReadVariables(E, KeyReads[E]);
  Result.Id = E;
  return Result;
}

bool NonZeroAnalysis::Impl::reads(const Key &K, const VarDecl *Var) const {
  if (!K.Id)
    return false;
  if (K.Id == Var)
    return true;
  auto It = KeyReads.find(K.Id);
  return It != KeyReads.end() && llvm::is_contained(It->second, Var);
}

bool NonZeroAnalysis::Impl::known(const Expr *E, BinaryOperatorKind Op,
                                  double Constant,
                                  const NonZeroFacts &Facts) const {
  if (Facts.Items.empty())
    return false;
  Fact Wanted;
  Wanted.Subject = keyOf(E);
  Wanted.Op = Op;
  Wanted.Constant = Constant;
  return impliedBy(Facts, Wanted);
}

bool NonZeroAnalysis::Impl::distinct(const Expr *A, const Expr *B,
                                     const NonZeroFacts &Facts) const {
  if (Facts.Items.empty())
    return false;
  Fact Wanted;
  Wanted.Subject = keyOf(A);
  Wanted.Other = keyOf(B);
  if (std::less<const void *>()(Wanted.Other.Id, Wanted.Subject.Id))
    std::swap(Wanted.Subject, Wanted.Other);
  return impliedBy(Facts, Wanted);
}

void NonZeroAnalysis::Impl::addFact(Fact New, NonZeroFacts &Facts) const {
  if (!impliedBy(Facts, New))
    insertFact(std::move(New), Facts);
}

/// Rewrites `x Op Constant`, compared in type \p Domain, as a fact about x of
/// type \p Own; false when nothing worth keeping remains.
static bool normalise(QualType Domain, QualType Own, BinaryOperatorKind &Op,
                      double &Constant) {
  if (Domain->isDependentType() || Own->isDependentType() ||
      (Domain->isIntegralOrEnumerationType() &&
       Own->isIntegralOrEnumerationType() &&
       Domain->isSignedIntegerOrEnumerationType() !=
           Own->isSignedIntegerOrEnumerationType())) {
    // An unknown type, or a comparison that reinterprets the sign
    // (`d > 0u` for a signed d): only what it says about zero survives.
    if (!entails(Op, Constant, BO_NE, 0))
      return false;
    Op = BO_NE;
    Constant = 0;
    return true;
  }
  if (!Own->isIntegralOrEnumerationType())
    return true;
  // Integers move between strict and non-strict bounds: `d > 0` is `d >= 1`,
  // which then answers both `d != 0` and `d - 1 >= 0`.
  switch (Op) {
  case BO_GT:
    Op = BO_GE;
    Constant = std::floor(Constant) + 1;
    return true;
  case BO_GE:
    Constant = std::ceil(Constant);
    return true;
  case BO_LT:
    Op = BO_LE;
    Constant = std::ceil(Constant) - 1;
    return true;
  case BO_LE:
    Constant = std::floor(Constant);
    return true;
  case BO_EQ:
  case BO_NE:
    // Never equal to a fraction: an unreachable edge or an empty fact.
    return Constant == std::floor(Constant);
  default:
    return false;
  }
}

void NonZeroAnalysis::Impl::addConstantFact(const Expr *Compared,
                                            BinaryOperatorKind Op,
                                            double Constant,
                                            NonZeroFacts &Facts) const {
  const Expr *Subject = stripZeroPreservingCasts(Compared);
  if (const auto *Assign = dyn_cast<BinaryOperator>(Subject);
      Assign && Assign->getOpcode() == BO_Assign)
    Subject = stripZeroPreservingCasts(Assign->getLHS());
  if (Compared->getType().isNull() || Subject->getType().isNull() ||
      !normalise(Compared->getType(), Subject->getType(), Op, Constant))
    return;
  Fact New;
  New.Subject = keyOf(Subject);
  New.Op = Op;
  New.Constant = Constant;
  addFact(std::move(New), Facts);
}

void NonZeroAnalysis::Impl::addVariableFact(const VarDecl *Var,
                                            BinaryOperatorKind Op,
                                            double Constant,
                                            NonZeroFacts &Facts) const {
  QualType T = Var->getType().getNonReferenceType();
  if (!normalise(T, T, Op, Constant))
    return;
  Fact New;
  New.Subject.Id = Var;
  New.Op = Op;
  New.Constant = Constant;
  addFact(std::move(New), Facts);
}

void NonZeroAnalysis::Impl::addComparison(const Expr *L, BinaryOperatorKind Op,
                                          const Expr *R,
                                          NonZeroFacts &Facts) const {
  std::optional<double> CL = constantValue(L, Context);
  std::optional<double> CR = constantValue(R, Context);
  if (CL && CR)
    return;
  if (CR) {
    addConstantFact(L, Op, *CR, Facts);
    return;
  }
  if (CL) {
    addConstantFact(R, BinaryOperator::reverseComparisonOp(Op), *CL, Facts);
    return;
  }
  if (Op == BO_NE || Op == BO_LT || Op == BO_GT) {
    Fact New;
    New.Subject = keyOf(L);
    New.Other = keyOf(R);
    if (std::less<const void *>()(New.Other.Id, New.Subject.Id))
      std::swap(New.Subject, New.Other);
    addFact(std::move(New), Facts);
  }
  // `k < end` for a counter `k >= begin`: end > begin, so the two differ
  // and `end - begin` is not zero inside a loop over [begin, end).
  if (Op == BO_LT || Op == BO_GT) {
    const Expr *Counter = Op == BO_LT ? L : R;
    const Expr *End = Op == BO_LT ? R : L;
    addStartDistinctions(keyOf(Counter), keyOf(End), Facts);
  }
  // Above a non-negative value, or at or above a positive one, is not zero:
  // `j < n` with j counting from 0 makes n non-zero.
  switch (Op) {
  case BO_LT:
    if (nonNegative(L, Facts))
      addConstantFact(R, BO_NE, 0, Facts);
    break;
  case BO_GT:
    if (nonNegative(R, Facts))
      addConstantFact(L, BO_NE, 0, Facts);
    break;
  case BO_LE:
    if (positive(L, Facts))
      addConstantFact(R, BO_NE, 0, Facts);
    break;
  case BO_GE:
    if (positive(R, Facts))
      addConstantFact(L, BO_NE, 0, Facts);
    break;
  case BO_EQ:
    if (nonZero(L, Facts))
      addConstantFact(R, BO_NE, 0, Facts);
    else if (nonZero(R, Facts))
      addConstantFact(L, BO_NE, 0, Facts);
    break;
  default:
    break;
  }
}

void NonZeroAnalysis::Impl::addStartDistinctions(Key Counter, Key End,
                                                 NonZeroFacts &Facts) const {
  llvm::SmallVector<Key, 2> Starts;
  for (const Fact &F : factsAbout(Counter, Facts))
    if (F.Other.Id && F.Op == BO_GE && !(F.Other == End))
      Starts.push_back(F.Other);
  for (Key Start : Starts) {
    Fact New;
    New.Subject = Start;
    New.Other = End;
    if (std::less<const void *>()(New.Other.Id, New.Subject.Id))
      std::swap(New.Subject, New.Other);
    addFact(std::move(New), Facts);
  }
}

void NonZeroAnalysis::Impl::assume(const Expr *Cond, bool Truth,
                                   NonZeroFacts &Facts) const {
  // `static_cast<bool>(d != 0)` is how the C library's assert() tests.
  while (true) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *ToBool = dyn_cast<ExplicitCastExpr>(Cond);
    if (!ToBool || !ToBool->getType()->isBooleanType())
      break;
    Cond = ToBool->getSubExpr();
  }
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
      Not && Not->getOpcode() == UO_LNot) {
    assume(Not->getSubExpr(), !Truth, Facts);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (BO->isLogicalOp()) {
      if ((Op == BO_LAnd && Truth) || (Op == BO_LOr && !Truth)) {
        assume(BO->getLHS(), Truth, Facts);
        assume(BO->getRHS(), Truth, Facts);
      }
      return;
    }
    if (BO->isComparisonOp()) {
      if (Op == BO_Cmp)
        return;
      addComparison(BO->getLHS(),
                    Truth ? Op : BinaryOperator::negateComparisonOp(Op),
                    BO->getRHS(), Facts);
      return;
    }
    if (Op == BO_Comma) {
      assume(BO->getRHS(), Truth, Facts);
      return;
    }
  }
  // Any other condition is a truth test: `if (d)`, `if (!count)`.
  addConstantFact(Cond, Truth ? BO_NE : BO_EQ, 0, Facts);
}

std::optional<std::pair<BinaryOperatorKind, double>>
NonZeroAnalysis::Impl::describe(const Expr *Value,
                                const NonZeroFacts &Facts) const {
  if (std::optional<double> Constant = constantValue(Value, Context))
    return std::make_pair(BO_EQ, *Constant);
  bool NonNegative = nonNegative(Value, Facts);
  bool NonZero = nonZero(Value, Facts);
  if (positive(Value, Facts) || (NonNegative && NonZero))
    return std::make_pair(BO_GT, 0.0);
  if (NonZero)
    return std::make_pair(BO_NE, 0.0);
  if (NonNegative)
    return std::make_pair(BO_GE, 0.0);
  return std::nullopt;
}

void NonZeroAnalysis::Impl::assign(const VarDecl *Var, const Expr *Value,
                                   NonZeroFacts &Facts) const {
  // Judge the value with what held before it replaces the old one, so that
  // `d = max(d, 1)` and `d = d | 1` see the old d.
  auto Holds = describe(Value, Facts);
  kill(Var, Facts);
  if (Holds)
    addVariableFact(Var, Holds->first, Holds->second, Facts);
  if (!Var->getType()->isIntegerType())
    return;
  // The value the variable now relates to, unless it reads the variable
  // (`k = k0 + k`).
  auto Relate = [&](BinaryOperatorKind Op, const Expr *To) {
    Fact Relation;
    Relation.Subject.Id = Var;
    Relation.Op = Op;
    Relation.Other = keyOf(To);
    if (!reads(Relation.Other, Var))
      addFact(std::move(Relation), Facts);
  };
  // `k = begin` starts a counter at another value: while k only grows,
  // `k >= begin`, and a loop condition `k < end` then says `end != begin`.
  const Expr *Start = stripZeroPreservingCasts(Value);
  if (Start->getType()->isIntegerType() && !constantValue(Start, Context) &&
      (asLocalVariable(Start) || isParameter(Start) || isLoad(Start)))
    Relate(BO_GE, Start);
  // `degree = end - begin` is the difference while neither changes.
  if (const auto *Minus = dyn_cast<BinaryOperator>(Start);
      Minus && Minus->getOpcode() == BO_Sub)
    Relate(BO_EQ, Minus);
}

void NonZeroAnalysis::Impl::kill(const VarDecl *Var,
                                 NonZeroFacts &Facts) const {
  llvm::erase_if(Facts.Items, [&](const Fact &F) {
    return reads(F.Subject, Var) || reads(F.Other, Var);
  });
}

void NonZeroAnalysis::Impl::shift(const VarDecl *Var, bool Up,
                                  NonZeroFacts &Facts) const {
  NonZeroFacts Kept;
  for (Fact &F : Facts.Items) {
    bool About = F.Subject.Id == Var && !F.Other.Id;
    if (!reads(F.Subject, Var) && !reads(F.Other, Var)) {
      Kept.Items.push_back(std::move(F));
      continue;
    }
    // A counter that grows stays at or above where it started.
    if (Up && F.Subject.Id == Var && F.Other.Id && F.Op == BO_GE &&
        !reads(F.Other, Var)) {
      Kept.Items.push_back(std::move(F));
      continue;
    }
    if (!About)
      continue;
    if (F.Op == BO_EQ)
      F.Op = Up ? BO_GE : BO_LE;
    bool Lower = F.Op == BO_GE || F.Op == BO_GT;
    bool Upper = F.Op == BO_LE || F.Op == BO_LT;
    if ((Up && Lower) || (!Up && Upper))
      Kept.Items.push_back(std::move(F));
  }
  Facts = std::move(Kept);
}

void NonZeroAnalysis::Impl::killMemory(const Expr *Stored,
                                       NonZeroFacts &Facts) const {
  Key Target = keyOf(Stored);
  llvm::erase_if(Facts.Items, [&](const Fact &F) {
    return F.Subject == Target || F.Other == Target;
  });
}

bool NonZeroAnalysis::Impl::transfer(const Stmt *S, NonZeroFacts &Facts) const {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      // A static local is initialised once, not each time this runs.
      if (!Var || !Var->hasLocalStorage())
        continue;
      if (Var->getInit() && isTrackedType(Var->getType()) &&
          !Var->getType()->isReferenceType())
        assign(Var, singleInitialiser(Var->getInit()), Facts);
      else
        kill(Var, Facts);
    }
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return true;
    const Expr *Target = BO->getLHS()->IgnoreParenImpCasts();
    const VarDecl *Var = asLocalVariable(Target);
    if (!Var) {
      killMemory(Target, Facts);
      return true;
    }
    const Expr *Value = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Assign:
      assign(Var, Value, Facts);
      return true;
    case BO_AddAssign:
    case BO_SubAssign: {
      std::optional<double> Constant = constantValue(Value, Context);
      bool AddsEpsilon = BO->getOpcode() == BO_AddAssign && Constant &&
                         *Constant > 0 && Var->getType()->isRealFloatingType();
      if (nonNegative(Value, Facts))
        shift(Var, BO->getOpcode() == BO_AddAssign, Facts);
      else
        kill(Var, Facts);
      // `d += eps`, the same idiom as `d + eps`.
      if (AddsEpsilon)
        addVariableFact(Var, BO_NE, 0, Facts);
      return true;
    }
    case BO_MulAssign:
    case BO_OrAssign: {
      bool NonZero = BO->getOpcode() == BO_MulAssign
                         ? nonZero(Target, Facts) && nonZero(Value, Facts)
                         : nonZero(Target, Facts) || nonZero(Value, Facts);
      kill(Var, Facts);
      if (NonZero)
        addVariableFact(Var, BO_NE, 0, Facts);
      return true;
    }
    default:
      kill(Var, Facts);
      return true;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    const Expr *Operand = UO->getSubExpr()->IgnoreParenImpCasts();
    const VarDecl *Var = asLocalVariable(Operand);
    if (UO->isIncrementDecrementOp()) {
      if (Var)
        shift(Var, UO->isIncrementOp(), Facts);
      else
        killMemory(Operand, Facts);
    } else if (UO->getOpcode() == UO_AddrOf && Var) {
      kill(Var, Facts); // Whoever receives the address may store through it.
    }
    return true;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return !isNoReturnCall(Call);
  return true;
}

bool NonZeroAnalysis::Impl::onBothBranches(
    const AbstractConditionalOperator *CO, const NonZeroFacts &Facts,
    llvm::function_ref<bool(const Expr *, const NonZeroFacts &)> Holds) const {
  if (const auto *Binary = dyn_cast<BinaryConditionalOperator>(CO)) {
    // `a ?: b` is a where a is non-zero, b elsewhere.
    NonZeroFacts WhenSet = Facts;
    addConstantFact(Binary->getCommon(), BO_NE, 0, WhenSet);
    return Holds(Binary->getCommon(), WhenSet) &&
           Holds(Binary->getFalseExpr(), Facts);
  }
  NonZeroFacts WhenTrue = Facts, WhenFalse = Facts;
  assume(CO->getCond(), true, WhenTrue);
  assume(CO->getCond(), false, WhenFalse);
  return Holds(CO->getTrueExpr(), WhenTrue) &&
         Holds(CO->getFalseExpr(), WhenFalse);
}

bool NonZeroAnalysis::Impl::notEqual(const Expr *E, double Value,
                                     const NonZeroFacts &Facts,
                                     unsigned Depth) const {
  if (Value == 0)
    return nonZero(E, Facts, Depth);
  if (std::optional<double> Constant = constantValue(E, Context))
    return *Constant != Value;
  return known(E, BO_NE, Value, Facts);
}

bool NonZeroAnalysis::Impl::nonZero(const Expr *E, const NonZeroFacts &Facts,
                                    unsigned Depth) const {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripZeroPreservingCasts(E);
  if (E->getType().isNull())
    return false;
  if (isTemplateConstant(E, Context))
    return E->isValueDependent() || constantValue(E, Context).value_or(0) != 0;
  if (known(E, BO_NE, 0, Facts))
    return true;
  if (const VarDecl *Var = asLocalVariable(E))
    for (const Fact &F : factsAbout(Key{Var}, Facts))
      if (F.Op == BO_EQ && F.Other.Id &&
          nonZero(static_cast<const Expr *>(F.Other.Id), Facts, Depth + 1))
        return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)
      return nonZero(UO->getSubExpr(), Facts, Depth + 1);
    return false;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Mul:
      return nonZero(L, Facts, Depth + 1) && nonZero(R, Facts, Depth + 1);
    case BO_Or:
      return nonZero(L, Facts, Depth + 1) || nonZero(R, Facts, Depth + 1);
    case BO_Add: {
      // `x + eps` for a positive constant eps: the idiom of floating-point
      // code whose x cannot be negative (a variance, a norm, a sum of
      // squares). It is taken at its word.
      std::optional<double> CL = constantValue(L, Context);
      std::optional<double> CR = constantValue(R, Context);
      if (BO->getType()->isRealFloatingType() &&
          ((CL && *CL > 0) || (CR && *CR > 0)))
        return true;
      if (CR && notEqual(L, -*CR, Facts, Depth + 1))
        return true;
      if (CL && notEqual(R, -*CL, Facts, Depth + 1))
        return true;
      break;
    }
    case BO_Sub: {
      if (std::optional<double> CR = constantValue(R, Context))
        return notEqual(L, *CR, Facts, Depth + 1);
      if (std::optional<double> CL = constantValue(L, Context))
        return notEqual(R, *CL, Facts, Depth + 1);
      return distinct(L, R, Facts);
    }
    case BO_Assign:
    case BO_Comma:
      return nonZero(R, Facts, Depth + 1);
    default:
      break;
    }
  } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    return onBothBranches(CO, Facts,
                          [&](const Expr *Branch, const NonZeroFacts &F) {
                            return nonZero(Branch, F, Depth + 1);
                          });
  } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (callKind(Call) == CallKind::Abs)
      return nonZero(Call->getArg(0), Facts, Depth + 1);
  }
  return positive(E, Facts, Depth + 1);
}

bool NonZeroAnalysis::Impl::positive(const Expr *E, const NonZeroFacts &Facts,
                                     unsigned Depth) const {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripZeroPreservingCasts(E);
  if (E->getType().isNull())
    return false;
  if (isSizeOf(E))
    return true;
  if (std::optional<double> Constant = constantValue(E, Context))
    return *Constant > 0;
  if (Options.IsKnownPositive && Options.IsKnownPositive(E))
    return true;
  if (known(E, BO_GT, 0, Facts))
    return true;
  QualType T = E->getType();
  if (!T->isDependentType() && T->isUnsignedIntegerType() &&
      known(E, BO_NE, 0, Facts))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Add:
      return (positive(L, Facts, Depth + 1) &&
              nonNegative(R, Facts, Depth + 1)) ||
             (nonNegative(L, Facts, Depth + 1) &&
              positive(R, Facts, Depth + 1));
    case BO_Mul:
      return positive(L, Facts, Depth + 1) && positive(R, Facts, Depth + 1);
    case BO_Assign:
    case BO_Comma:
      return positive(R, Facts, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return onBothBranches(CO, Facts,
                          [&](const Expr *Branch, const NonZeroFacts &F) {
                            return positive(Branch, F, Depth + 1);
                          });
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    switch (callKind(Call)) {
    case CallKind::Max:
      return positive(Call->getArg(0), Facts, Depth + 1) ||
             positive(Call->getArg(1), Facts, Depth + 1);
    case CallKind::Min:
      return positive(Call->getArg(0), Facts, Depth + 1) &&
             positive(Call->getArg(1), Facts, Depth + 1);
    case CallKind::Abs:
      return nonZero(Call->getArg(0), Facts, Depth + 1);
    case CallKind::Other:
      return false;
    }
  }
  return false;
}

bool NonZeroAnalysis::Impl::nonNegative(const Expr *E,
                                        const NonZeroFacts &Facts,
                                        unsigned Depth) const {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripZeroPreservingCasts(E);
  QualType T = E->getType();
  if (T.isNull())
    return false;
  if (!T->isDependentType() &&
      (T->isUnsignedIntegerType() || T->isBooleanType()))
    return true;
  if (isSizeOf(E))
    return true;
  if (std::optional<double> Constant = constantValue(E, Context))
    return *Constant >= 0;
  if (Options.IsKnownPositive && Options.IsKnownPositive(E))
    return true;
  if (known(E, BO_GE, 0, Facts))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Mul:
    case BO_Div:
      return nonNegative(L, Facts, Depth + 1) &&
             nonNegative(R, Facts, Depth + 1);
    case BO_Rem:
    case BO_Shr:
      return nonNegative(L, Facts, Depth + 1);
    case BO_And:
      return nonNegative(L, Facts, Depth + 1) ||
             nonNegative(R, Facts, Depth + 1);
    case BO_Assign:
    case BO_Comma:
      return nonNegative(R, Facts, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return onBothBranches(CO, Facts,
                          [&](const Expr *Branch, const NonZeroFacts &F) {
                            return nonNegative(Branch, F, Depth + 1);
                          });
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    switch (callKind(Call)) {
    case CallKind::Max:
      return nonNegative(Call->getArg(0), Facts, Depth + 1) ||
             nonNegative(Call->getArg(1), Facts, Depth + 1);
    case CallKind::Min:
      return nonNegative(Call->getArg(0), Facts, Depth + 1) &&
             nonNegative(Call->getArg(1), Facts, Depth + 1);
    case CallKind::Abs:
      return true;
    case CallKind::Other:
      return false;
    }
  }
  return false;
}

void NonZeroAnalysis::Impl::run() {
  if (!Function.hasBody())
    return;
  DataflowCFGOptions GraphOptions;
  // Without these edges a catch handler would be unreachable, and its
  // divisions never judged.
  GraphOptions.ExceptionEdges = true;
  // Facts about a variable end with its scope, so that a long function does
  // not carry those of every loop counter it had.
  GraphOptions.LifetimeEnds = true;
  Graph = buildDataflowCFG(Function, Context, GraphOptions);
  if (!Graph)
    return;

  Dataflow = std::make_unique<ForwardDataflow<Impl>>(*Graph, *this);
  Dataflow->run(NonZeroFacts());
}

void NonZeroAnalysis::Impl::forEachReachable(
    llvm::function_ref<void(const Stmt *, const NonZeroFacts &)> Visit) const {
  if (!Dataflow)
    return;
  Dataflow->forEachElement(
      [&](const CFGElement &Element, const NonZeroFacts &Facts) {
        if (auto S = Element.getAs<CFGStmt>())
          Visit(S->getStmt(), Facts);
      });
}

void NonZeroAnalysis::Impl::collectSources(
    const Expr *E, llvm::SmallVectorImpl<ZeroSource::Copy> &Chain,
    llvm::DenseSet<const VarDecl *> &Visited,
    llvm::SmallVectorImpl<ZeroSource> &Out) const {
  if (!E)
    return;
  E = stripToValue(E);
  auto Add = [&](ZeroSource::SourceKind Kind, const Expr *Origin) {
    ZeroSource Source;
    Source.Kind = Kind;
    Source.Origin = Origin;
    Source.Copies.assign(Chain.begin(), Chain.end());
    Out.push_back(std::move(Source));
  };
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (isa<ParmVarDecl>(Ref->getDecl())) {
      Add(ZeroSource::Parameter, E);
      return;
    }
    const VarDecl *Var = asLocalVariable(E);
    if (!Var || !Visited.insert(Var).second)
      return;
    auto It = Definitions.find(Var);
    if (It == Definitions.end())
      return;
    for (const Definition &Def : It->second) {
      Chain.push_back({Var, Def.Loc, Def.Shown});
      if (Def.IsSubtraction)
        Add(ZeroSource::Difference, Def.Value);
      else
        collectSources(Def.Value, Chain, Visited, Out);
      Chain.pop_back();
    }
    return;
  }
  if (isa<MemberExpr>(E) && isParameterMember(E)) {
    Add(ZeroSource::Parameter, E);
    return;
  }
  if (isLoad(E)) {
    Add(ZeroSource::Load, E);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Sub)
      Add(ZeroSource::Difference, E);
    else if (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_Comma)
      collectSources(BO->getRHS(), Chain, Visited, Out);
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    collectSources(CO->getTrueExpr(), Chain, Visited, Out);
    collectSources(CO->getFalseExpr(), Chain, Visited, Out);
  } else if (const auto *Binary = dyn_cast<BinaryConditionalOperator>(E)) {
    collectSources(Binary->getCommon(), Chain, Visited, Out);
    collectSources(Binary->getFalseExpr(), Chain, Visited, Out);
  }
}

NonZeroAnalysis::NonZeroAnalysis(const FunctionDecl &Function,
                                 ASTContext &Context,
                                 NonZeroAnalysisOptions Options)
    : State(std::make_unique<Impl>(Function, Context, std::move(Options))) {}

NonZeroAnalysis::~NonZeroAnalysis() = default;

void NonZeroAnalysis::forEachReachable(
    llvm::function_ref<void(const Stmt *, const NonZeroFacts &)> Visit) const {
  State->forEachReachable(Visit);
}

bool NonZeroAnalysis::isNonZero(const Expr *E,
                                const NonZeroFacts &Facts) const {
  return State->nonZero(E, Facts);
}

bool NonZeroAnalysis::isNonZero(const Expr *E) const {
  return State->nonZero(E, NonZeroFacts());
}

llvm::SmallVector<ZeroSource, 1>
NonZeroAnalysis::zeroSourcesOf(const Expr *E) const {
  llvm::SmallVector<ZeroSource, 1> Sources;
  llvm::SmallVector<ZeroSource::Copy, 2> Chain;
  llvm::DenseSet<const VarDecl *> Visited;
  State->collectSources(E, Chain, Visited, Sources);
  return Sources;
}

} // namespace gpuguard
