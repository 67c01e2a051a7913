//===--- SourceText.cpp - Source snippets for diagnostics -----------------===//

#include "Analysis/Core/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace gpuguard {

/// Whether every name \p E reads is spelled between \p Begin and \p End:
/// not a macro's argument (`(a)` in `__mul24((a), (b))`), which the body's
/// text would show as the parameter's name.
static bool spelledWithin(const Stmt *E, SourceLocation Begin,
                          SourceLocation End, const SourceManager &SM) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    SourceLocation At = SM.getSpellingLoc(Ref->getLocation());
    if (SM.getFileID(At) != SM.getFileID(Begin) ||
        SM.isBeforeInTranslationUnit(At, Begin) ||
        SM.isBeforeInTranslationUnit(End, At))
      return false;
  }
  for (const Stmt *Child : E->children())
    if (Child && !spelledWithin(Child, Begin, End, SM))
      return false;
  return true;
}

std::string quoteSource(const Expr *E, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Context.getLangOpts());
  StringRef Text = Range.isValid()
                       ? Lexer::getSourceText(Range, SM, Context.getLangOpts())
                       : StringRef();
  if (Text.empty()) {
    // Written inside a macro's body (`a.data_ptr()` in a binding macro):
    // quoted as the body spells it, when both ends are in one stretch.
    SourceLocation Begin = SM.getSpellingLoc(E->getBeginLoc());
    SourceLocation End = SM.getSpellingLoc(E->getEndLoc());
    if (Begin.isValid() && End.isValid() &&
        SM.getFileID(Begin) == SM.getFileID(End) &&
        !SM.isBeforeInTranslationUnit(End, Begin) &&
        spelledWithin(E, Begin, End, SM))
      Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End),
                                  SM, Context.getLangOpts());
    // A stretch that runs across other code is not the expression.
    if (Text.size() > 200)
      Text = StringRef();
  }
  if (Text.empty()) {
    // Written partly in a macro's body, partly in its arguments
    // (`HALO_AT(i, j + 2)`): the whole expansion, as the code writes it.
    CharSourceRange Expansion = CharSourceRange::getTokenRange(
        SM.getExpansionRange(E->getBeginLoc()).getBegin(),
        SM.getExpansionRange(E->getEndLoc()).getEnd());
    Text = Lexer::getSourceText(Expansion, SM, Context.getLangOpts());
    if (Text.size() > 200)
      Text = StringRef();
  }
  if (Text.empty())
    return "expression";
  std::string Folded;
  bool PendingSpace = false;
  for (char C : Text) {
    // A macro body's line continuations are spaces.
    if (llvm::isSpace(C) || C == '\\') {
      PendingSpace = !Folded.empty();
      continue;
    }
    if (PendingSpace)
      Folded += ' ';
    PendingSpace = false;
    Folded += C;
  }
  constexpr size_t MaxLength = 60;
  if (Folded.size() > MaxLength)
    Folded = Folded.substr(0, MaxLength - 3) + "...";
  return Folded;
}

std::string joinQuoted(llvm::ArrayRef<std::string> Items) {
  std::string Result;
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I > 0)
      Result += I + 1 == Items.size() ? " and " : ", ";
    Result += "'" + Items[I] + "'";
  }
  return Result;
}

} // namespace gpuguard
