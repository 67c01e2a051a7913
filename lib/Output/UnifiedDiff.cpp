//===--- UnifiedDiff.cpp - The lines a unified diff adds ------------------===//

#include "Output/UnifiedDiff.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <optional>

namespace gpuguard::output {
namespace {

llvm::Error malformed(unsigned LineNumber, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "line " + llvm::Twine(LineNumber) + ": " +
                                     What);
}

/// Git writes a path with unusual characters as a C string literal, such as
/// "b/caf\303\251.cu"; \p Quoted includes the quotes.
std::string unquoteCString(llvm::StringRef Quoted) {
  llvm::StringRef Body = Quoted.drop_front().drop_back();
  std::string Path;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] != '\\' || I + 1 == Body.size()) {
      Path += Body[I];
      continue;
    }
    char Escaped = Body[++I];
    if (Escaped >= '0' && Escaped <= '7') {
      unsigned Value = 0;
      size_t Digits = 0;
      for (; Digits < 3 && I < Body.size() && Body[I] >= '0' && Body[I] <= '7';
           ++Digits, ++I)
        Value = Value * 8 + (Body[I] - '0');
      --I;
      Path += static_cast<char>(Value);
      continue;
    }
    switch (Escaped) {
    case 'a':
      Path += '\a';
      break;
    case 'b':
      Path += '\b';
      break;
    case 'f':
      Path += '\f';
      break;
    case 'n':
      Path += '\n';
      break;
    case 'r':
      Path += '\r';
      break;
    case 't':
      Path += '\t';
      break;
    case 'v':
      Path += '\v';
      break;
    default: // '\\', '"' and anything unknown stand for themselves.
      Path += Escaped;
    }
  }
  return Path;
}

/// Splits a leading path off \p Text: a quoted one, or up to \p Terminator
/// (all of it when the terminator is absent).
std::string takePath(llvm::StringRef &Text, llvm::StringRef Terminator) {
  if (Text.starts_with("\"")) {
    size_t I = 1;
    while (I < Text.size() && Text[I] != '"')
      I += Text[I] == '\\' ? 2 : 1;
    std::string Path = unquoteCString(Text.take_front(I + 1));
    Text = Text.drop_front(std::min(I + 1, Text.size()));
    return Path;
  }
  size_t End =
      Terminator.empty() ? llvm::StringRef::npos : Text.find(Terminator);
  std::string Path = Text.take_front(End).str();
  Text = Text.drop_front(std::min(End, Text.size()));
  return Path;
}

/// The path of a "--- " or "+++ " line; `diff -u` follows it with a tab and
/// a timestamp.
std::string headerPath(llvm::StringRef Rest) { return takePath(Rest, "\t"); }

constexpr llvm::StringLiteral DevNull = "/dev/null";

/// The two paths of "diff --git a/X b/Y", when they can be told apart: a
/// path may itself hold " b/", but git names an unrenamed file twice, so the
/// halves are tried first.
void readGitHeaderPaths(llvm::StringRef Rest, FileDiff &File) {
  if (Rest.starts_with("\"")) {
    File.OldPath = takePath(Rest, "");
    Rest = Rest.ltrim(' ');
    File.NewPath = takePath(Rest, "");
    return;
  }
  if (Rest.size() % 2 == 1) {
    llvm::StringRef Old = Rest.take_front(Rest.size() / 2);
    llvm::StringRef New = Rest.drop_front(Rest.size() / 2 + 1);
    if (Old.drop_front(2) == New.drop_front(2)) {
      File.OldPath = Old.str();
      File.NewPath = New.str();
      return;
    }
  }
  size_t Split = Rest.find(" b/");
  File.OldPath = Rest.take_front(Split).str();
  if (Split != llvm::StringRef::npos)
    File.NewPath = Rest.drop_front(Split + 1).str();
}

/// Drops git's "a/" and "b/" prefixes when both paths carry them (or the
/// other one is /dev/null); a diff made with --no-prefix keeps its paths.
void stripPrefixes(FileDiff &File) {
  bool OldPrefixed = llvm::StringRef(File.OldPath).starts_with("a/") ||
                     File.OldPath == DevNull;
  bool NewPrefixed = llvm::StringRef(File.NewPath).starts_with("b/") ||
                     File.NewPath == DevNull;
  if (!OldPrefixed || !NewPrefixed)
    return;
  if (File.OldPath != DevNull)
    File.OldPath.erase(0, 2);
  if (File.NewPath != DevNull)
    File.NewPath.erase(0, 2);
}

/// "@@ -a[,b] +c[,d] @@ ...": an omitted count is 1.
bool parseHunkHeader(llvm::StringRef Header, unsigned &OldCount,
                     unsigned &NewStart, unsigned &NewCount) {
  llvm::StringRef Rest = Header;
  unsigned OldStart = 0;
  if (!Rest.consume_front("@@ -") || Rest.consumeInteger(10, OldStart))
    return false;
  OldCount = 1;
  if (Rest.consume_front(",") && Rest.consumeInteger(10, OldCount))
    return false;
  if (!Rest.consume_front(" +") || Rest.consumeInteger(10, NewStart))
    return false;
  NewCount = 1;
  if (Rest.consume_front(",") && Rest.consumeInteger(10, NewCount))
    return false;
  return Rest.starts_with(" @@");
}

std::vector<LineRange> toRanges(std::vector<unsigned> Lines) {
  llvm::sort(Lines);
  Lines.erase(std::unique(Lines.begin(), Lines.end()), Lines.end());
  std::vector<LineRange> Ranges;
  for (unsigned Line : Lines) {
    if (!Ranges.empty() && Ranges.back().Last + 1 == Line)
      Ranges.back().Last = Line;
    else
      Ranges.push_back({Line, Line});
  }
  return Ranges;
}

} // namespace

llvm::Expected<std::vector<FileDiff>> parseUnifiedDiff(llvm::StringRef Text) {
  std::vector<FileDiff> Files;
  std::vector<std::vector<unsigned>> Added;
  // The file being read, and what of its header has been seen.
  bool FromGitHeader = false, SawOldHeader = false, SawNewHeader = false;
  bool InBinaryPatch = false;
  unsigned OldRemaining = 0, NewRemaining = 0, NewLine = 0;
  auto StartFile = [&](bool FromGit) {
    Files.emplace_back();
    Added.emplace_back();
    FromGitHeader = FromGit;
    SawOldHeader = SawNewHeader = InBinaryPatch = false;
  };

  unsigned LineNumber = 0;
  for (llvm::StringRef Rest = Text; !Rest.empty();) {
    llvm::StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    ++LineNumber;
    if (OldRemaining || NewRemaining) {
      char Kind = Line.empty() ? ' ' : Line.front();
      if (Kind == '\\')
        continue;
      if ((Kind == '+' && !NewRemaining) || (Kind == '-' && !OldRemaining) ||
          (Kind == ' ' && (!OldRemaining || !NewRemaining)) ||
          (Kind != '+' && Kind != '-' && Kind != ' '))
        return malformed(LineNumber,
                         "the hunk above still expects " +
                             llvm::Twine(OldRemaining) + " old and " +
                             llvm::Twine(NewRemaining) + " new line(s)");
      if (Kind != '+')
        --OldRemaining;
      if (Kind != '-') {
        if (Kind == '+')
          Added.back().push_back(NewLine);
        ++NewLine;
        --NewRemaining;
      }
      continue;
    }

    llvm::StringRef Header = Line;
    Header.consume_back("\r");
    if (Header.consume_front("diff --git ")) {
      StartFile(/*FromGit=*/true);
      readGitHeaderPaths(Header, Files.back());
      stripPrefixes(Files.back());
      continue;
    }
    if (InBinaryPatch)
      continue;
    if (Header.starts_with("@@@"))
      return malformed(LineNumber, "combined diffs of merges are not "
                                   "supported; diff against one revision");
    if (Header.starts_with("@@ ")) {
      if (Files.empty() || !SawNewHeader)
        return malformed(LineNumber, "a hunk before its '+++' file header");
      unsigned OldCount = 0, NewStart = 0, NewCount = 0;
      if (!parseHunkHeader(Header, OldCount, NewStart, NewCount))
        return malformed(LineNumber, "malformed hunk header '" + Header +
                                         "'; expected '@@ -a,b +c,d @@'");
      OldRemaining = OldCount;
      NewRemaining = NewCount;
      NewLine = NewStart;
      continue;
    }
    if (Header.starts_with("--- ")) {
      // A new file of a plain diff, or the "---" of a git header.
      if (Files.empty() || SawOldHeader || !FromGitHeader)
        StartFile(/*FromGit=*/false);
      Files.back().OldPath = headerPath(Header.drop_front(4));
      SawOldHeader = true;
      continue;
    }
    if (Header.starts_with("+++ ")) {
      if (Files.empty() || !SawOldHeader)
        return malformed(LineNumber, "a '+++' file header without '---'");
      Files.back().NewPath = headerPath(Header.drop_front(4));
      SawNewHeader = true;
      stripPrefixes(Files.back());
      continue;
    }
    if (Files.empty())
      continue;
    FileDiff &File = Files.back();
    if (Header.consume_front("rename from ") ||
        Header.consume_front("copy from "))
      File.OldPath = takePath(Header, "");
    else if (Header.consume_front("rename to ") ||
             Header.consume_front("copy to "))
      File.NewPath = takePath(Header, "");
    else if (Header.starts_with("new file mode"))
      File.OldPath = DevNull;
    else if (Header.starts_with("deleted file mode"))
      File.NewPath = DevNull;
    else if (Header == "GIT binary patch")
      File.Binary = InBinaryPatch = true;
    else if (Header.starts_with("Binary files ") && FromGitHeader)
      File.Binary = true;
  }
  if (OldRemaining || NewRemaining)
    return malformed(LineNumber, "the diff ends inside a hunk that expects " +
                                     llvm::Twine(OldRemaining) + " old and " +
                                     llvm::Twine(NewRemaining) +
                                     " new line(s) more");

  for (size_t I = 0; I < Files.size(); ++I) {
    FileDiff &File = Files[I];
    if (File.OldPath == DevNull)
      File.OldPath.clear();
    if (File.NewPath == DevNull)
      File.NewPath.clear();
    File.AddedLines = toRanges(std::move(Added[I]));
  }
  return Files;
}

void ChangedLines::add(llvm::StringRef AbsolutePath,
                       llvm::ArrayRef<LineRange> Lines) {
  if (Lines.empty())
    return;
  std::vector<LineRange> &Into = Ranges[AbsolutePath];
  std::vector<unsigned> All;
  for (const LineRange &Range : llvm::concat<const LineRange>(Into, Lines))
    for (unsigned Line = Range.First; Line <= Range.Last; ++Line)
      All.push_back(Line);
  Into = toRanges(std::move(All));
}

bool ChangedLines::contains(llvm::StringRef AbsolutePath, unsigned Line) const {
  auto It = Ranges.find(AbsolutePath);
  if (It == Ranges.end())
    return false;
  auto After = llvm::upper_bound(It->second, Line,
                                 [](unsigned Value, const LineRange &Range) {
                                   return Value < Range.First;
                                 });
  return After != It->second.begin() && std::prev(After)->Last >= Line;
}

std::vector<std::string> ChangedLines::files() const {
  std::vector<std::string> Paths;
  for (const auto &Entry : Ranges)
    Paths.push_back(Entry.getKey().str());
  llvm::sort(Paths);
  return Paths;
}

} // namespace gpuguard::output
