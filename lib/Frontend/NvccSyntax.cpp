//===--- NvccSyntax.cpp - Source that nvcc accepts and Clang rejects ------===//

#include "Frontend/NvccSyntax.h"
#include "clang/Basic/CharInfo.h"

using namespace llvm;

namespace gpuguard::frontend {

namespace {

/// How far back the start of the `asm` statement is looked for: statements
/// of inline assembly are short, and the search stays linear.
constexpr std::size_t MaxAsmStatementLength = 4096;

bool isIdentifierAt(StringRef Buffer, std::size_t Begin, StringRef Word) {
  if (!Buffer.substr(Begin).starts_with(Word))
    return false;
  if (Begin > 0 && clang::isAsciiIdentifierContinue(Buffer[Begin - 1]))
    return false;
  std::size_t End = Begin + Word.size();
  return End >= Buffer.size() || !clang::isAsciiIdentifierContinue(Buffer[End]);
}

/// The offset just past `asm`, `__asm` or `__asm__` if one starts at
/// \p Begin, else 0.
std::size_t asmKeywordEnd(StringRef Buffer, std::size_t Begin) {
  for (StringRef Keyword : {"__asm__", "__asm", "asm"})
    if (isIdentifierAt(Buffer, Begin, Keyword))
      return Begin + Keyword.size();
  return 0;
}

std::size_t skipSpace(StringRef Buffer, std::size_t Pos) {
  while (Pos < Buffer.size() && clang::isWhitespace(Buffer[Pos]))
    ++Pos;
  return Pos;
}

/// Scans the parenthesised body of an asm statement that opens at \p Open
/// and tells whether \p Offset is at parenthesis depth 1 after at least one
/// `:`, that is, among the operands.
bool isAmongOperands(StringRef Buffer, std::size_t Open, std::size_t Offset) {
  unsigned Depth = 0;
  bool SeenColon = false;
  for (std::size_t Pos = Open; Pos < Offset; ++Pos) {
    char C = Buffer[Pos];
    if (C == '"') {
      // Skip the string literal, escapes included.
      for (++Pos; Pos < Offset && Buffer[Pos] != '"'; ++Pos)
        if (Buffer[Pos] == '\\')
          ++Pos;
      continue;
    }
    if (C == '(') {
      ++Depth;
    } else if (C == ')') {
      if (Depth <= 1)
        return false; // The statement closed before the offset.
      --Depth;
    } else if (C == ':' && Depth == 1) {
      SeenColon = true;
    } else if (C == ';' && Depth <= 1) {
      return false;
    }
  }
  return Depth == 1 && SeenColon;
}

} // namespace

bool isJuxtaposedAsmOperand(StringRef Buffer, std::size_t Offset) {
  if (Offset >= Buffer.size() || Buffer[Offset] != '"')
    return false;
  // The previous operand ends with its parenthesised expression.
  std::size_t Before = Offset;
  while (Before > 0 && clang::isWhitespace(Buffer[Before - 1]))
    --Before;
  if (Before == 0 || Buffer[Before - 1] != ')')
    return false;

  std::size_t Lowest =
      Offset > MaxAsmStatementLength ? Offset - MaxAsmStatementLength : 0;
  for (std::size_t Begin = Offset; Begin-- > Lowest;) {
    std::size_t AfterKeyword = asmKeywordEnd(Buffer, Begin);
    if (!AfterKeyword)
      continue;
    // Qualifiers between the keyword and the parenthesis.
    std::size_t Pos = skipSpace(Buffer, AfterKeyword);
    for (bool Qualifier = true; Qualifier;) {
      Qualifier = false;
      for (StringRef Word : {"volatile", "__volatile__", "inline", "goto"})
        if (isIdentifierAt(Buffer, Pos, Word)) {
          Pos = skipSpace(Buffer, Pos + Word.size());
          Qualifier = true;
        }
    }
    if (Pos >= Buffer.size() || Buffer[Pos] != '(')
      return false; // The nearest `asm` is not a statement that encloses us.
    return isAmongOperands(Buffer, Pos, Offset);
  }
  return false;
}

} // namespace gpuguard::frontend
