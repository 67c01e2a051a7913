//===--- SourceText.cpp - Source snippets for diagnostics -----------------===//

#include "Analysis/Core/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace gpuguard {

std::string quoteSource(const Expr *E, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Context.getLangOpts());
  StringRef Text = Range.isValid()
                       ? Lexer::getSourceText(Range, SM, Context.getLangOpts())
                       : StringRef();
  if (Text.empty())
    return "expression";
  std::string Folded;
  bool PendingSpace = false;
  for (char C : Text) {
    if (llvm::isSpace(C)) {
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
