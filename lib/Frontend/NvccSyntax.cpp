//===--- NvccSyntax.cpp - Source that nvcc accepts and Clang rejects ------===//

#include "Frontend/NvccSyntax.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

/// The offset of the third chevron of a spaced `<< <` or `>> >` whose
/// first two start at \p Pos, or npos.
std::size_t spacedThirdChevron(StringRef Buffer, std::size_t Pos, char C) {
  if (!Buffer.substr(Pos).starts_with(C == '<' ? "<<" : ">>"))
    return StringRef::npos;
  std::size_t Third = skipSpace(Buffer, Pos + 2);
  if (Third == Pos + 2 || Third >= Buffer.size() || Buffer[Third] != C)
    return StringRef::npos;
  // `<< <=` or `>> >>` are operators of their own.
  if (Third + 1 < Buffer.size() &&
      (Buffer[Third + 1] == C || Buffer[Third + 1] == '='))
    return StringRef::npos;
  return Third;
}

/// Whether the `<<` at \p Pos names `operator<<`, as in the friend
/// declaration `operator<< <>(...)`.
bool followsOperatorKeyword(StringRef Buffer, std::size_t Pos) {
  std::size_t End = Pos;
  while (End > 0 && clang::isWhitespace(Buffer[End - 1]))
    --End;
  return End >= 8 && isIdentifierAt(Buffer, End - 8, "operator");
}

/// Moves the chevron at \p Third back to just after the two at \p Pos,
/// the spaces after it.
void joinChevron(std::string &Text, std::size_t Pos, std::size_t Third) {
  char C = Text[Third];
  for (std::size_t I = Third; I > Pos + 2; --I)
    Text[I] = Text[I - 1];
  Text[Pos + 2] = C;
}

} // namespace

std::optional<std::string> joinSpacedLaunchChevrons(StringRef Buffer) {
  if (!Buffer.contains("<<"))
    return std::nullopt;
  std::string Text;
  for (std::size_t Open = Buffer.find("<<"); Open != StringRef::npos;
       Open = Buffer.find("<<", Open + 2)) {
    std::size_t OpenThird = spacedThirdChevron(Buffer, Open, '<');
    bool Joined = Buffer.substr(Open).starts_with("<<<");
    if ((OpenThird == StringRef::npos && !Joined) ||
        followsOperatorKeyword(Buffer, Open))
      continue;
    // The closing chevrons, outside any bracket the configuration opens.
    std::size_t Pos = Joined ? Open + 3 : OpenThird + 1;
    unsigned Depth = 0;
    std::size_t Close = StringRef::npos, CloseThird = StringRef::npos;
    for (; Pos < Buffer.size() && Buffer[Pos] != ';'; ++Pos) {
      char C = Buffer[Pos];
      if (C == '(' || C == '[' || C == '{') {
        ++Depth;
      } else if (C == ')' || C == ']' || C == '}') {
        if (Depth == 0)
          break;
        --Depth;
      } else if (Depth == 0 && C == '>') {
        if (Buffer.substr(Pos).starts_with(">>>")) {
          Close = Pos;
          break;
        }
        CloseThird = spacedThirdChevron(Buffer, Pos, '>');
        if (CloseThird != StringRef::npos) {
          Close = Pos;
          break;
        }
      }
    }
    if (Close == StringRef::npos)
      continue;
    // A launch's arguments follow.
    std::size_t After =
        CloseThird != StringRef::npos ? CloseThird + 1 : Close + 3;
    After = skipSpace(Buffer, After);
    if (After >= Buffer.size() || Buffer[After] != '(')
      continue;
    if (Joined && CloseThird == StringRef::npos)
      continue;
    if (Text.empty())
      Text = Buffer.str();
    if (!Joined)
      joinChevron(Text, Open, OpenThird);
    if (CloseThird != StringRef::npos)
      joinChevron(Text, Close, CloseThird);
    Open = Close;
  }
  if (Text.empty())
    return std::nullopt;
  return Text;
}

namespace {

/// A file read whole, its text rewritten.
class RewrittenFile : public vfs::File {
public:
  RewrittenFile(vfs::Status Status, std::string Text)
      : FileStatus(std::move(Status)), Text(std::move(Text)) {}
  ErrorOr<vfs::Status> status() override { return FileStatus; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t,
                                                   bool, bool) override {
    return MemoryBuffer::getMemBufferCopy(Text, Name.str());
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status FileStatus;
  std::string Text;
};

class NvccLaunchSyntaxFileSystem : public vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;

  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &Path) override {
    ErrorOr<std::unique_ptr<vfs::File>> File =
        ProxyFileSystem::openFileForRead(Path);
    std::string Name = Path.str();
    StringRef Extension = sys::path::extension(Name);
    if (!File || (Extension != ".cu" && Extension != ".cuh"))
      return File;
    ErrorOr<vfs::Status> Status = (*File)->status();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        (*File)->getBuffer(Name, -1, /*RequiresNullTerminator=*/false);
    if (!Status || !Buffer)
      return ProxyFileSystem::openFileForRead(Path);
    std::optional<std::string> Joined =
        joinSpacedLaunchChevrons((*Buffer)->getBuffer());
    if (!Joined)
      return ProxyFileSystem::openFileForRead(Path);
    return std::unique_ptr<vfs::File>(
        std::make_unique<RewrittenFile>(*Status, std::move(*Joined)));
  }
};

} // namespace

IntrusiveRefCntPtr<vfs::FileSystem>
withNvccLaunchSyntax(IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  return makeIntrusiveRefCnt<NvccLaunchSyntaxFileSystem>(std::move(Base));
}

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
