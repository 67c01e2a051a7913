//===--- DivisorEvidence.cpp - Why a divisor can be zero ------------------===//

#include "Analysis/Cuda/DivisorEvidence.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/NonZeroAnalysis.h"
#include "Analysis/Cuda/BuiltinVariables.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace gpuguard::cuda {

bool isLaunchExtent(const Expr *E) {
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

StringRef loadedName(const Expr *E) {
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

namespace {

/// The field \p Name of the record \p Type names, looking through
/// references and, for a template's dependent type, into the template.
const FieldDecl *fieldOf(QualType Type, DeclarationName Name) {
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
bool isDescriptorArray(const Expr *E) {
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

} // namespace

bool isElementLoad(const Expr *E) {
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

CountWords::CountWords(StringRef List) {
  SmallVector<StringRef, 16> Split;
  List.split(Split, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Word : Split)
    Vocabulary.push_back(Word.trim().lower());
}

bool CountWords::isCountName(StringRef Name) const {
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
    return llvm::is_contained(Vocabulary, W);
  });
}

DivisorEvidence
divisorEvidence(const ZeroSource &Source, const Expr &Divisor,
                const FunctionDecl &Function, const NonZeroAnalysis &Analysis,
                const ComparedValues &Compared,
                llvm::function_ref<const KernelLaunches &()> Launches,
                const CountWords &Counts, ASTContext &Context) {
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
            zeroArgumentFor(Function, *Param, Launches(), Context))
      return {true, Argument};
    return {};
  }
  case ZeroSource::Load:
    // A per-bucket count read from memory is zero for an empty bucket.
    return {isElementLoad(Source.Origin) &&
                Counts.isCountName(loadedName(Source.Origin)),
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

} // namespace gpuguard::cuda
