//===--- Recorder.cpp - Runtime-check sites and the edits that insert them ===//

#include "Instrument/Recorder.h"
#include "Instrument/SiteSupport.h"
#include "gpuguard/abi.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace clang;

namespace gpuguard::instrument {

namespace {
thread_local Recorder *ActiveRecorder = nullptr;

std::string absolutePath(StringRef Path) {
  SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

/// \p Text as the body of a C string literal.
std::string cString(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '\\' || C == '"')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out;
}

std::string hexKey(uint64_t Key) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::format_hex(Key, 18) << "ULL";
  return Text;
}
} // namespace

SiteSide sideOf(SiteKind Kind) {
  switch (Kind) {
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  case SiteKind::Name:                                                         \
    return SiteSide::Side;
#include "gpuguard/site_kinds.def"
  }
  llvm_unreachable("a site kind missing from site_kinds.def");
}

bool isTorchKind(SiteKind Kind) { return sideOf(Kind) == SiteSide::TorchHost; }

std::string entryPointCall(SiteKind Kind) {
  StringRef Function;
  switch (Kind) {
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  case SiteKind::Name:                                                         \
    Function = #EntryPoint;                                                    \
    break;
#include "gpuguard/site_kinds.def"
  }
  return (RuntimeNamespace + Function + "(").str();
}

std::string hookCall(RuntimeHook Hook) {
  StringRef Function;
  switch (Hook) {
#define GPUGUARD_HOOK(Name)                                                    \
  case RuntimeHook::Name:                                                      \
    Function = #Name;                                                          \
    break;
#include "gpuguard/hooks.def"
  }
  return (RuntimeNamespace + Function + "(").str();
}

bool hasRuntimeWrapper(StringRef Name) {
  return llvm::is_contained(
      {
#define GPUGUARD_CUDA_WRAPPER(Function) StringRef(#Function),
#include "gpuguard/hooks.def"
      },
      Name);
}

std::string runtimeWrapperCallee(StringRef Name, unsigned Line) {
  bool Located = llvm::is_contained(
      {
#define GPUGUARD_CUDA_WRAPPER(Function)
#define GPUGUARD_CUDA_LOCATED_WRAPPER(Function) StringRef(#Function),
#include "gpuguard/hooks.def"
      },
      Name);
  if (!Located)
    return (RuntimeNamespace + Name).str();
  return (RuntimeNamespace + "CalledAt<" + Twine(Line) + ">::" + Name).str();
}

uint64_t fileKey(StringRef Path) {
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (unsigned char C : Path) {
    Hash ^= C;
    Hash *= 0x100000001b3ULL;
  }
  return Hash;
}

Recorder *Recorder::active() { return ActiveRecorder; }
void Recorder::setActive(Recorder *R) { ActiveRecorder = R; }

FileRecord *Recorder::recordFor(const SourceManager &SM) {
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return nullptr;
  std::string Path = absolutePath(Main->getName());
  auto [It, Inserted] = Files.try_emplace(Path);
  if (Inserted) {
    It->second.Path = Path;
    It->second.Original = SM.getBufferData(SM.getMainFileID()).str();
  }
  return &It->second;
}

void Recorder::noteLanguage(const ASTContext &Context) {
  if (FileRecord *Record = recordFor(Context.getSourceManager()))
    Record->HasCuda |= Context.getLangOpts().CUDA;
}

std::optional<std::pair<unsigned, unsigned>>
Recorder::mainFileRange(ASTContext &Context, SourceRange Range) {
  const SourceManager &SM = Context.getSourceManager();
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, Context.getLangOpts());
  if (File.isInvalid() || SM.getFileID(File.getBegin()) != SM.getMainFileID())
    return std::nullopt;
  unsigned Begin = SM.getFileOffset(File.getBegin());
  unsigned End = SM.getFileOffset(File.getEnd());
  if (End < Begin)
    return std::nullopt;
  return std::make_pair(Begin, End);
}

int Recorder::addSite(ASTContext &Context, SourceLocation Loc, SiteKind Kind,
                      StringRef Check, StringRef What, const Decl *Enclosing,
                      SourceLocation Flagged) {
  const SourceManager &SM = Context.getSourceManager();
  FileRecord *Record = recordFor(SM);
  if (!Record || Loc.isInvalid())
    return -1;
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (SM.getFileID(FileLoc) != SM.getMainFileID()) {
    ++Record->Skipped;
    return -1;
  }
  Site S;
  S.Check = Check.str();
  S.Kind = Kind;
  S.Line = SM.getSpellingLineNumber(FileLoc);
  S.Column = SM.getSpellingColumnNumber(FileLoc);
  S.What = What.str();
  if (const auto *Function = dyn_cast_or_null<FunctionDecl>(Enclosing))
    S.Function = Function->getQualifiedNameAsString();
  if (Flagged.isValid())
    S.DiagnosticOffset = SM.getFileOffset(SM.getFileLoc(Flagged));
  if (isTorchKind(Kind))
    Record->HasTorch = true;
  Record->HasCuda |= Context.getLangOpts().CUDA;

  auto Key = std::make_tuple(Record->Path, S.Line, S.Column,
                             static_cast<unsigned>(Kind), S.Check, S.What);
  auto [It, Inserted] = SiteIds.try_emplace(Key, SiteIndex.size());
  if (!Inserted) {
    // The other CUDA side found it too; it may be the one that flags it.
    Site &Existing = Record->Sites[SiteIndex[It->second].second];
    if (!Existing.DiagnosticOffset)
      Existing.DiagnosticOffset = S.DiagnosticOffset;
    return It->second;
  }
  SiteIndex.emplace_back(Record->Path, Record->Sites.size());
  Record->Sites.push_back(std::move(S));
  return It->second;
}

void Recorder::setRelated(int SiteId, int RelatedId) {
  if (SiteId < 0 || RelatedId < 0)
    return;
  siteOf(SiteId).Related = RelatedId;
}

Site &Recorder::siteOf(int SiteId) {
  auto [Path, Index] = SiteIndex[SiteId];
  return Files[Path].Sites[Index];
}

bool Recorder::wrap(ASTContext &Context, int SiteId, const Expr *E,
                    StringRef Prefix, StringRef Suffix) {
  if (SiteId < 0)
    return false;
  return addWrap(Context, SiteId, E, Prefix, Suffix);
}

bool Recorder::wrapAlways(ASTContext &Context, const Expr *E, StringRef Prefix,
                          StringRef Suffix) {
  return addWrap(Context, /*SiteId=*/-1, E, Prefix, Suffix);
}

bool Recorder::addWrap(ASTContext &Context, int SiteId, const Expr *E,
                       StringRef Prefix, StringRef Suffix) {
  if (!E)
    return false;
  FileRecord *Record = recordFor(Context.getSourceManager());
  std::optional<std::pair<unsigned, unsigned>> Range =
      mainFileRange(Context, E->getSourceRange());
  if (!Record || !Range) {
    if (Record)
      ++Record->Skipped;
    return false;
  }
  Edit New;
  New.Begin = Range->first;
  New.End = Range->second;
  New.Prefix = Prefix.str();
  New.Suffix = Suffix.str();
  New.Site = SiteId;
  for (const Edit &Old : Record->Edits)
    if (Old.Begin == New.Begin && Old.End == New.End && Old.Site == SiteId &&
        Old.Prefix == New.Prefix && Old.Suffix == New.Suffix)
      return true;
  Record->Edits.push_back(std::move(New));
  return true;
}

bool Recorder::wrapTorchOperand(ASTContext &Context, int SiteId, const Expr *E,
                                unsigned Index, unsigned Count) {
  // `emb->forward(x)`: the operand is the holder `emb`, not `emb->`.
  if (const auto *Arrow =
          dyn_cast_or_null<CXXOperatorCallExpr>(E ? E->IgnoreImplicit() : E);
      Arrow && Arrow->getOperator() == OO_Arrow)
    E = Arrow->getArg(0);
  if (SiteId < 0)
    return false;
  return wrap(Context, SiteId, E,
              entryPointCall(siteOf(SiteId).Kind) + "@SITEINFO@, " +
                  std::to_string(Index) + ", " + std::to_string(Count) + ", ",
              ")");
}

void Recorder::skipSite(ASTContext &Context, SourceLocation Loc) {
  const SourceManager &SM = Context.getSourceManager();
  FileRecord *Record = recordFor(SM);
  if (!Record || Loc.isInvalid())
    return;
  SourceLocation Expansion = SM.getFileLoc(Loc);
  if (SM.getFileID(Expansion) != SM.getMainFileID())
    return; // Not this file's site; addSite() counts those.
  if (Record->SkippedAt
          .emplace(SM.getFileOffset(Expansion),
                   SM.getFileOffset(SM.getSpellingLoc(Loc)))
          .second)
    ++Record->Skipped;
}

bool Recorder::renameCallee(ASTContext &Context, SourceLocation NameLoc,
                            StringRef Replacement) {
  const SourceManager &SM = Context.getSourceManager();
  FileRecord *Record = recordFor(SM);
  if (!Record || NameLoc.isInvalid() || NameLoc.isMacroID() ||
      SM.getFileID(NameLoc) != SM.getMainFileID())
    return false;
  unsigned Begin = SM.getFileOffset(NameLoc);
  unsigned Length =
      Lexer::MeasureTokenLength(NameLoc, SM, Context.getLangOpts());
  for (const Edit &Old : Record->Edits)
    if (Old.Remove && Old.Begin == Begin)
      return true;
  Edit New;
  New.Begin = New.End = Begin;
  New.Remove = Length;
  New.Prefix = Replacement.str();
  Record->Edits.push_back(std::move(New));
  return true;
}

void Recorder::addQuotedInclude(const SourceManager &SM,
                                SourceLocation FileNameLoc,
                                unsigned FileNameLength,
                                StringRef ResolvedPath) {
  if (FileNameLoc.isInvalid() || FileNameLoc.isMacroID() ||
      SM.getFileID(FileNameLoc) != SM.getMainFileID())
    return;
  if (FileRecord *Record = recordFor(SM))
    Record->QuotedIncludes[SM.getFileOffset(FileNameLoc)] = {
        FileNameLength, absolutePath(ResolvedPath)};
}

namespace {
/// One insertion or removal point of the rendered text.
struct Event {
  unsigned Offset;
  /// Closing texts come before opening ones at the same offset.
  bool Opening;
  /// Among openings, outer (longer) first; among closings, inner first.
  unsigned Length;
  unsigned Order;
  std::string Text;
  unsigned Remove = 0;
};
} // namespace

std::optional<RenderedFile>
Recorder::render(StringRef Path,
                 const std::vector<SurvivingFinding> &Findings) {
  auto It = Files.find(absolutePath(Path));
  if (It == Files.end())
    return std::nullopt;
  FileRecord Record = std::move(It->second);
  Files.erase(It);

  // Site ids of this file, in the order they were added.
  std::vector<int> Ids;
  for (unsigned Id = 0; Id < SiteIndex.size(); ++Id)
    if (SiteIndex[Id].first == Record.Path)
      Ids.push_back(Id);
  auto SiteOf = [&](int Id) -> Site & {
    return Record.Sites[SiteIndex[Id].second];
  };

  std::set<int> WithEdits;
  for (const Edit &E : Record.Edits)
    if (E.Site >= 0)
      WithEdits.insert(E.Site);
  std::set<int> Kept;
  for (int Id : Ids) {
    const Site &S = SiteOf(Id);
    bool Flagged =
        S.DiagnosticOffset &&
        llvm::any_of(Findings, [&](const SurvivingFinding &F) {
          return F.Check == S.Check && F.Offset == *S.DiagnosticOffset;
        });
    if ((Flagged || Mode == InstrumentMode::All) && WithEdits.count(Id))
      Kept.insert(Id);
  }
  // A kept in-place write needs the site that recorded the saved version.
  for (int Id : std::set<int>(Kept)) {
    int Related = SiteOf(Id).Related;
    if (Related >= 0 && WithEdits.count(Related))
      Kept.insert(Related);
  }
  std::map<int, unsigned> Number;
  for (int Id : Ids)
    if (Kept.count(Id))
      Number.emplace(Id, Number.size());

  const uint64_t Key = fileKey(Record.Path);
  const std::string KeyText = hexKey(Key);
  auto Fill = [&](std::string Text, int Id) {
    if (Id < 0)
      return Text;
    std::string Index = std::to_string(Number.at(Id));
    std::string SiteRef =
        "::gpuguard::rt::SiteRef{" + KeyText + ", " + Index + "}";
    std::string SiteInfo = "gpuguard_sites_[" + Index + "]";
    for (auto [From, To] : {std::pair<StringRef, StringRef>("@SITE@", SiteRef),
                            {"@SITEINFO@", SiteInfo}}) {
      size_t At;
      while ((At = Text.find(From.str())) != std::string::npos)
        Text.replace(At, From.size(), To.str());
    }
    return Text;
  };

  std::vector<Event> Events;
  unsigned Order = 0;
  bool NeedsRuntime = false;
  for (const Edit &E : Record.Edits) {
    if (E.Site >= 0 && !Kept.count(E.Site))
      continue;
    NeedsRuntime = true;
    unsigned Length = E.End - E.Begin;
    if (E.Remove) {
      // Last of the openings at its offset, after any wrap that starts there.
      Events.push_back({E.Begin, true, 0, Order++, E.Prefix, E.Remove});
      continue;
    }
    Events.push_back({E.Begin, true, Length, Order, Fill(E.Prefix, E.Site)});
    Events.push_back({E.End, false, Length, Order, Fill(E.Suffix, E.Site)});
    ++Order;
  }
  for (const auto &[Offset, Include] : Record.QuotedIncludes)
    Events.push_back({Offset, true, 0, Order++,
                      "\"" + cString(Include.second) + "\"", Include.first});
  llvm::stable_sort(Events, [](const Event &A, const Event &B) {
    if (A.Offset != B.Offset)
      return A.Offset < B.Offset;
    if (A.Opening != B.Opening)
      return !A.Opening;
    if (A.Length != B.Length)
      return A.Opening ? A.Length > B.Length : A.Length < B.Length;
    return A.Opening ? A.Order < B.Order : A.Order > B.Order;
  });

  RenderedFile Out;
  Out.Sites = Number.size();
  Out.Skipped = Record.Skipped;
  llvm::raw_string_ostream OS(Out.Text);
  OS << "// Instrumented copy of " << Record.Path
     << " made by 'gpuguard instrument'; edit the original.\n";
  if (NeedsRuntime || !Number.empty()) {
    if (Record.HasCuda || !Record.HasTorch)
      OS << "#include <gpuguard/rt.h>\n";
    if (Record.HasTorch)
      OS << "#include <gpuguard/torch.h>\n";
  }
  if (!Number.empty()) {
    // LibTorch's sites are named by the table itself in host functions,
    // which a CUDA file's device pass parses too; the other kinds by key.
    bool TableInBothPasses = Record.HasCuda && Record.HasTorch;
    if (!TableInBothPasses)
      OS << "#ifndef __CUDA_ARCH__\n";
    OS << "static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {\n";
    for (int Id : Ids) {
      if (!Kept.count(Id))
        continue;
      const Site &S = SiteOf(Id);
      int Related = S.Related >= 0 && Number.count(S.Related)
                        ? static_cast<int>(Number.at(S.Related))
                        : -1;
      OS << "    {\"" << cString(Record.Path) << "\", " << S.Line << ", "
         << S.Column << ", \"" << cString(S.Function) << "\", \""
         << cString(S.Check) << "\", " << static_cast<unsigned>(S.Kind) << ", "
         << Related << ", \"" << cString(S.What) << "\"},\n";
    }
    OS << "};\n";
    if (TableInBothPasses)
      OS << "#ifndef __CUDA_ARCH__\n";
    OS << "static const ::gpuguard::rt::SiteTableRegistrar "
          "gpuguard_registrar_(\n    "
       << KeyText << ", gpuguard_sites_, " << Number.size() << ", "
       << GPUGUARD_SITE_TABLE_ABI_VERSION << ");\n"
       << "#endif\n";
  }
  OS << "#line 1 \"" << cString(Record.Path) << "\"\n";
  StringRef Original = Record.Original;
  unsigned Copied = 0;
  for (const Event &E : Events) {
    if (E.Offset < Copied)
      continue; // Inside a removed token: edits overlapping a rename.
    OS << Original.slice(Copied, E.Offset) << E.Text;
    Copied = E.Offset + E.Remove;
  }
  OS << Original.substr(Copied);
  OS.flush();
  return Out;
}

} // namespace gpuguard::instrument
