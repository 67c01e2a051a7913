//===--- DivByZeroCheck.cpp - cuda-div-by-zero ----------------------------===//

#include "cuda/DivByZeroCheck.h"
#include "Analysis/Core/AnalysisBudget.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/FunctionMatchers.h"
#include "Analysis/Core/NonZeroAnalysis.h"
#include "Analysis/Core/ResultUse.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "Instrument/Cuda/DivisionSites.h"
#include "Instrument/Recorder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

static constexpr llvm::StringLiteral DefaultCountNames =
    "count;counts;cnt;cnts;num;numel;nnz;total;totals;size;sizes;len;lens;"
    "length;lengths;n";

DivByZeroCheck::DivByZeroCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Strict(Options.get("Strict", false)),
      CheckFloatDivision(Options.get("CheckFloatDivision", true)),
      CheckParameters(Options.get("CheckParameters", true)),
      CountNames(Options.get("CountNames", DefaultCountNames)) {
  SmallVector<StringRef, 16> Words;
  StringRef(CountNames).split(Words, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Word : Words)
    CountWords.push_back(Word.trim().lower());
}

void DivByZeroCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Strict", Strict);
  Options.store(Opts, "CheckFloatDivision", CheckFloatDivision);
  Options.store(Opts, "CheckParameters", CheckParameters);
  Options.store(Opts, "CountNames", CountNames);
}

void DivByZeroCheck::registerMatchers(MatchFinder *Finder) {
  // Host code divides by the same values as device code, so every function
  // is analysed.
  Finder->addMatcher(writtenFunctionDefinition().bind("function"), this);
}

/// Values that CUDA guarantees positive: a launch with a zero block or grid
/// extent fails before any thread runs, and a dim3 holds such extents.
static bool isLaunchExtent(const Expr *E) {
  if (auto Builtin = getBuiltinComponent(E))
    return !Builtin->isCoordinate();
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Var->hasGlobalStorage() && Var->getIdentifier() &&
           Var->getName() == "warpSize";
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    QualType Base = Member->getBase()->getType();
    if (Member->isArrow())
      Base = Base->getPointeeType();
    const auto *Record = Base.isNull() ? nullptr : Base->getAsCXXRecordDecl();
    const ValueDecl *Field = Member->getMemberDecl();
    return Record && Record->getIdentifier() && Record->getName() == "dim3" &&
           Field->getIdentifier() &&
           llvm::is_contained({"x", "y", "z"}, Field->getName());
  }
  return false;
}

/// The name of the variable or member a load reads: `counts` in
/// `counts[b]`, `*(counts + b)` and `s.counts[b]`, `n` in `p->n`.
static StringRef loadedName(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl()->getIdentifier() ? Ref->getDecl()->getName()
                                             : StringRef();
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return Member->getMemberDecl()->getIdentifier()
                 ? Member->getMemberDecl()->getName()
                 : StringRef();
    if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(E))
      return Member->getMember().isIdentifier()
                 ? Member->getMember().getAsIdentifierInfo()->getName()
                 : StringRef();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      E = UO->getSubExpr();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      E = Op->getNumArgs() > 0 ? Op->getArg(0) : nullptr;
    } else if (const auto *Sum = dyn_cast<BinaryOperator>(E);
               Sum && Sum->isAdditiveOp()) {
      E = Sum->getLHS()->getType()->isPointerType() ? Sum->getLHS()
                                                    : Sum->getRHS();
    } else {
      return {};
    }
  }
  return {};
}

bool DivByZeroCheck::isCountName(StringRef Name) const {
  // Words of camelCase and snake_case names: numValid, valid_count, nSamples.
  SmallVector<std::string, 4> Words;
  std::string Word;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    bool Boundary = C == '_' || llvm::isDigit(C) ||
                    (llvm::isUpper(C) && I > 0 && !llvm::isUpper(Name[I - 1]));
    if (Boundary && !Word.empty()) {
      Words.push_back(Word);
      Word.clear();
    }
    if (llvm::isAlpha(C))
      Word += llvm::toLower(C);
  }
  if (!Word.empty())
    Words.push_back(Word);
  return llvm::any_of(Words, [&](const std::string &W) {
    return llvm::is_contained(CountWords, W);
  });
}

bool DivByZeroCheck::isReported(DivisionKind Kind,
                                const ZeroSource &Source) const {
  QualType Type = Source.Origin->getType();
  bool IntegerValue =
      !Type->isDependentType() && Type->isIntegralOrEnumerationType();
  switch (Kind) {
  case DivisionKind::Integer:
  case DivisionKind::Remainder:
    return Source.Kind != ZeroSource::Parameter || CheckParameters;
  case DivisionKind::FloatingPoint:
    // Parameters and arbitrary values are ordinary numeric code; only the
    // shapes that are zero in normal runs are flagged: see the docs.
    if (!CheckFloatDivision || Source.Kind == ZeroSource::Parameter)
      return false;
    return Source.Kind == ZeroSource::Difference || IntegerValue ||
           isCountName(loadedName(Source.Origin));
  case DivisionKind::Dependent:
    // Integer or floating point depends on the instantiation: flag what is
    // wrong either way.
    if (Source.Kind == ZeroSource::Parameter)
      return false;
    return Source.Kind == ZeroSource::Difference || IntegerValue ||
           (CheckFloatDivision && isCountName(loadedName(Source.Origin)));
  }
  return false;
}

/// The field \p Name of the record \p Type names, looking through
/// references and, for a template's dependent type, into the template.
static const FieldDecl *fieldOf(QualType Type, DeclarationName Name) {
  Type = Type.getNonReferenceType();
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (const auto *Specialization = Type->getAs<TemplateSpecializationType>())
    if (const auto *Template = dyn_cast_or_null<ClassTemplateDecl>(
            Specialization->getTemplateName().getAsTemplateDecl()))
      Record = Template->getTemplatedDecl();
  if (!Record || !Record->hasDefinition())
    return nullptr;
  for (const NamedDecl *Found : Record->getDefinition()->lookup(Name))
    if (const auto *Field = dyn_cast<FieldDecl>(Found))
      return Field;
  return nullptr;
}

/// Whether \p E is a fixed array member of a struct reached by value or
/// reference (`info.sizes`), as written or in a template.
static bool isDescriptorArray(const Expr *E) {
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return !Member->isArrow() &&
           Member->getMemberDecl()->getType()->isConstantArrayType() &&
           isa<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(E)) {
    if (Member->isArrow() || Member->isImplicitAccess())
      return false;
    const auto *Base =
        dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
    const FieldDecl *Field =
        Base ? fieldOf(Base->getDecl()->getType(), Member->getMember())
             : nullptr;
    return Field && Field->getType()->isConstantArrayType();
  }
  return false;
}

/// Whether \p E reads an element of an array: `counts[b]`, `*count`; not
/// a field of a configuration struct (`cfg->num_procs`), which holds one
/// value set up front.
static bool isElementLoad(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    // A fixed array of a descriptor reached by value or reference
    // (`info.sizes[d]` of a tensor's TensorInfo) holds its shape, set up
    // front like a configuration field.
    return !isDescriptorArray(Subscript->getBase()->IgnoreParenImpCasts());
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    return Deref->getOpcode() == UO_Deref;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star;
  return false;
}

const KernelLaunches &DivByZeroCheck::launches(ASTContext &Context) {
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Context);
  return *Launches;
}

DivByZeroCheck::Evidence DivByZeroCheck::evidenceFor(
    const ZeroSource &Source, const Expr &Divisor, const FunctionDecl &Function,
    const NonZeroAnalysis &Analysis, const ComparedValues &Compared,
    ASTContext &Context) {
  // The author tests it for zero elsewhere: zero is an expected value.
  if (Compared.isZeroTested(&Divisor) || Compared.isZeroTested(Source.Origin))
    return {true, std::nullopt};
  for (const ZeroSource::Copy &Copy : Source.Copies)
    if (Compared.isZeroTested(Copy.Var))
      return {true, std::nullopt};
  switch (Source.Kind) {
  case ZeroSource::Parameter: {
    // A kernel's parameter is what its launches pass.
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Source.Origin->IgnoreParenImpCasts());
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || !Function.hasAttr<CUDAGlobalAttr>())
      return {};
    if (std::optional<ZeroArgument> Argument =
            zeroArgumentFor(Function, *Param, launches(Context), Context))
      return {true, Argument};
    return {};
  }
  case ZeroSource::Load:
    // A per-bucket count read from memory is zero for an empty bucket.
    return {isElementLoad(Source.Origin) &&
                isCountName(loadedName(Source.Origin)),
            std::nullopt};
  case ZeroSource::Difference: {
    const auto *Minus =
        dyn_cast<BinaryOperator>(Source.Origin->IgnoreParenImpCasts());
    if (!Minus)
      return {};
    // Integers: `end - begin` is zero whenever the two meet; `n - 1` and
    // `n - n / 2` only at one value of `n`, no likelier than any
    // parameter's zero.
    if (Minus->getType()->isIntegerType()) {
      llvm::SmallPtrSet<const VarDecl *, 16> MayChange;
      collectAssignedVariables(Function.getBody(), MayChange);
      return {differenceCanMeet(*Minus, Context, &MayChange), std::nullopt};
    }
    // Floating point: two values read from memory (`colMax[c] - colMin[c]`)
    // are data, equal for a constant column; a difference of computed values
    // is the algorithm's, which keeps them apart.
    auto IsLoaded = [&](const Expr *Side) {
      llvm::SmallVector<ZeroSource, 1> Sources = Analysis.zeroSourcesOf(Side);
      return !Sources.empty() && llvm::all_of(Sources, [](const ZeroSource &S) {
        return S.Kind == ZeroSource::Load;
      });
    };
    return {IsLoaded(Minus->getLHS()) && IsLoaded(Minus->getRHS()),
            std::nullopt};
  }
  }
  return {};
}

void DivByZeroCheck::instrumentDivision(const BinaryOperator &Division,
                                        DivisionKind Kind,
                                        const FunctionDecl &Function,
                                        ASTContext &Context,
                                        SourceLocation Flagged) {
  instrument::Recorder *R = instrument::Recorder::active();
  if (!R || Kind == DivisionKind::Dependent)
    return;
  instrument::addDivisionSites(*R, Division,
                               Kind == DivisionKind::FloatingPoint
                                   ? instrument::DivisionSort::FloatingPoint
                                   : instrument::DivisionSort::Integer,
                               Function, Context, getID(), Flagged);
}

void DivByZeroCheck::check(const MatchFinder::MatchResult &Result) {
  if (analysisBudgetExceeded())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  NonZeroAnalysisOptions AnalysisOptions;
  AnalysisOptions.IsKnownPositive = isLaunchExtent;
  NonZeroAnalysis Analysis(*Function, Context, AnalysisOptions);
  ComparedValues Compared(*Function, Context);

  struct Finding {
    const BinaryOperator *Division;
    DivisionKind Kind;
    ZeroSource Source;
    std::optional<ZeroArgument> Launch;
  };
  std::vector<Finding> Findings;
  /// Divisions not proven non-zero that are not reported.
  std::vector<std::pair<const BinaryOperator *, DivisionKind>> Unproven;
  llvm::SmallPtrSet<const BinaryOperator *, 8> Seen;
  Analysis.forEachReachable([&](const Stmt *S, const NonZeroFacts &Facts) {
    const auto *Division = dyn_cast<BinaryOperator>(S);
    if (!Division || !Seen.insert(Division).second)
      return;
    BinaryOperatorKind Op = Division->getOpcode();
    if (Op != BO_Div && Op != BO_Rem && Op != BO_DivAssign &&
        Op != BO_RemAssign)
      return;
    QualType Type = Division->getType();
    if (const auto *Compound = dyn_cast<CompoundAssignOperator>(Division))
      Type = Compound->getComputationResultType();
    DivisionKind Kind;
    if (Op == BO_Rem || Op == BO_RemAssign)
      Kind = DivisionKind::Remainder;
    else if (Type->isDependentType())
      Kind = DivisionKind::Dependent;
    else if (Type->isIntegralOrEnumerationType())
      Kind = DivisionKind::Integer;
    else if (Type->isRealFloatingType())
      Kind = DivisionKind::FloatingPoint;
    else
      return;
    const Expr *Divisor = Division->getRHS();
    if (Analysis.isNonZero(Divisor, Facts))
      return;
    // A quotient that is only printed shows inf or NaN and stops nothing:
    // timing reports divide by elapsed times that are never zero in practice.
    if (!Strict && Kind == DivisionKind::FloatingPoint &&
        isOnlyFormatted(*Division, Context)) {
      Unproven.push_back({Division, Kind});
      return;
    }
    for (const ZeroSource &Source : Analysis.zeroSourcesOf(Divisor)) {
      if (!isReported(Kind, Source))
        continue;
      Evidence Shown =
          evidenceFor(Source, *Divisor, *Function, Analysis, Compared, Context);
      if (Strict || Shown.Found) {
        Findings.push_back({Division, Kind, Source, Shown.Launch});
        return;
      }
    }
    Unproven.push_back({Division, Kind});
  });

  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Findings, [&](const Finding &A, const Finding &B) {
    return SM.isBeforeInTranslationUnit(A.Division->getOperatorLoc(),
                                        B.Division->getOperatorLoc());
  });
  for (const Finding &F : Findings) {
    const Expr *Divisor = F.Division->getRHS()->IgnoreParenImpCasts();
    std::string DivisorText = quoteSource(Divisor, Context);
    const char *Message = "";
    switch (F.Kind) {
    case DivisionKind::Integer:
      Message = "integer division by '%0', which may be zero";
      break;
    case DivisionKind::Remainder:
      Message = "remainder by '%0', which may be zero";
      break;
    case DivisionKind::FloatingPoint:
      Message = "floating-point division by '%0', which may be zero and "
                "yield inf or NaN";
      break;
    case DivisionKind::Dependent:
      Message = "division by '%0', which may be zero";
      break;
    }
    diag(F.Division->getOperatorLoc(), Message)
        << DivisorText << Divisor->getSourceRange();
    for (const ZeroSource::Copy &Copy : F.Source.Copies)
      diag(Copy.Loc, "'%0' is computed here from '%1'", DiagnosticIDs::Note)
          << Copy.Var->getName()
          << quoteSource(Copy.Value->IgnoreParenImpCasts(), Context);
    if (F.Launch) {
      std::string Argument = quoteSource(F.Launch->Argument, Context);
      std::string Value = quoteSource(F.Launch->Value, Context);
      // The value behind the argument, when the argument only names it.
      std::string Behind =
          Value == Argument ? std::string() : "which is '" + Value + "', ";
      static constexpr const char *Why[] = {
          "'%0' is launched here with '%1', which is 0",
          "'%0' is launched here with '%1', %2a quotient that is 0 whenever "
          "the divisor is the larger",
          "'%0' is launched here with '%1', %2a difference that is 0 whenever "
          "the two are equal"};
      diag(F.Launch->Argument->getBeginLoc(),
           Why[static_cast<int>(F.Launch->Kind)], DiagnosticIDs::Note)
          << Function->getName() << Argument << Behind
          << F.Launch->Argument->getSourceRange();
    }
    instrumentDivision(*F.Division, F.Kind, *Function, Context,
                       F.Division->getOperatorLoc());
  }
  if (instrument::Recorder *R = instrument::Recorder::active();
      R && R->instrumentsUnflagged())
    for (auto [Division, Kind] : Unproven)
      instrumentDivision(*Division, Kind, *Function, Context, SourceLocation());
}

} // namespace gpuguard::cuda
