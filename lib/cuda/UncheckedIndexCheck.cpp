//===--- UncheckedIndexCheck.cpp - cuda-unchecked-index -------------------===//

#include "cuda/UncheckedIndexCheck.h"
#include "Analysis/GuardAnalysis.h"
#include "Analysis/SourceText.h"
#include "Analysis/ThreadIndexProvenance.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::cuda {

UncheckedIndexCheck::UncheckedIndexCheck(StringRef Name,
                                         tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      CheckBlockLocalIndexes(Options.get("CheckBlockLocalIndexes", false)) {}

void UncheckedIndexCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckBlockLocalIndexes", CheckBlockLocalIndexes);
}

void UncheckedIndexCheck::registerMatchers(MatchFinder *Finder) {
  // Templates are analysed once, as written; their instantiations would
  // repeat every finding.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isInstantiated()),
                   unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void UncheckedIndexCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Context = *Result.Context;
  ThreadIndexProvenance Provenance(*Function, Context);
  GuardAnalysisOptions AnalysisOptions;
  AnalysisOptions.TrustBlockSizedStorage = !CheckBlockLocalIndexes;

  for (const UnguardedAccess &Finding :
       findUnguardedAccesses(*Function, Context, Provenance, AnalysisOptions)) {
    const Expr *Access = Finding.Access.Access;
    std::string AccessText = quoteSource(Access, Context);
    const Expr *Index = stripIndexCasts(Finding.Access.Index);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Index)) {
      diag(Access->getBeginLoc(),
           "index '%0' of '%1' depends on the thread index and is not "
           "bounded by a guard on every path")
          << Ref->getDecl()->getName() << AccessText << Index->getSourceRange();
    } else if (Finding.UnboundedVariables.empty()) {
      diag(Access->getBeginLoc(),
           "the index of '%0' depends on the thread index and is not "
           "bounded by a guard on every path")
          << AccessText << Index->getSourceRange();
    } else {
      diag(Access->getBeginLoc(),
           "'%0' in the index of '%1' depends on the thread index and is not "
           "bounded by a guard on every path")
          << Finding.UnboundedVariables.front()->getName() << AccessText
          << Index->getSourceRange();
    }
    for (const VarDecl *Var : Finding.UnboundedVariables) {
      const VariableDefinition *Definition = Provenance.definitionOf(Var);
      if (!Definition)
        continue;
      diag(Definition->Loc, "'%0' is computed here from %1",
           DiagnosticIDs::Note)
          << Var->getName()
          << joinQuoted(Provenance.inputsOf(Definition->Value));
    }
  }
}

} // namespace gpuguard::cuda
