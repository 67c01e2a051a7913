//===--- PreambleCache.cpp - Precompiled preambles kept on disk -----------===//

#include "Frontend/PreambleCache.h"
#include "Frontend/TorchDiscovery.h"
#include "Support/AtomicFile.h"
#include "Support/CacheEviction.h"
#include "Support/ContentHash.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/ASTWriter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using namespace clang;

namespace gpuguard::frontend {

namespace {

constexpr llvm::StringLiteral EntryHeader = "gpuguard-preamble 3";
/// In place of the header's hash: the preamble did not build cleanly.
constexpr llvm::StringLiteral UnusableMark = "unusable";

/// A file the preamble read, as it was when the preamble was built.
struct Dependency {
  std::string Path;
  uint64_t Size = 0;
  int64_t ModifiedNs = 0;
  std::string ContentHash;
};

/// Which files a precompiled preamble may serve. A preamble is only
/// `#include` lines, so no location in it is ever shown or looked into.
enum class PreambleScope {
  /// Files of the same directory: some of its includes are quoted, and
  /// searched from there first.
  Directory,
  /// Any file: only `#include <...>` lines, which the flags alone resolve.
  AnyDirectory,
};

/// The leading run of `#include` lines of a file.
struct IncludeRun {
  /// Up to the start of the line after the last of them.
  size_t Size = 0;
  PreambleScope Scope = PreambleScope::AnyDirectory;
};

/// The run of `#include` lines (and comments) that \p Preamble, the
/// directives Clang found at the top of a file, starts with. It stops at
/// any other directive: a macro defined there would be shown at a location
/// of the file the preamble was built from.
IncludeRun leadingIncludes(llvm::StringRef Preamble,
                           const LangOptions &LangOpts) {
  // The lexer reads up to a terminating null.
  std::string Text = Preamble.str();
  IncludeRun Run;
  while (true) {
    Lexer Raw(SourceLocation(), LangOpts, Text.data(), Text.data() + Run.Size,
              Text.data() + Text.size());
    Raw.SetCommentRetentionState(false);
    Token Hash, Directive, Name;
    Raw.LexFromRawLexer(Hash);
    if (!Hash.is(tok::hash) || !Hash.isAtStartOfLine())
      return Run;
    Raw.LexFromRawLexer(Directive);
    if (!Directive.is(tok::raw_identifier) ||
        !llvm::is_contained({"include", "include_next"},
                            Directive.getRawIdentifier()))
      return Run;
    Raw.LexFromRawLexer(Name);
    size_t After = Raw.getBufferLocation() - Text.data();
    size_t LineEnd = Text.find('\n', After);
    llvm::StringRef Rest = llvm::StringRef(Text).slice(After, LineEnd);
    // A comment that goes on past the line would be cut in two.
    if (Name.is(tok::eof) || Rest.contains("/*") ||
        LineEnd == std::string::npos)
      return Run;
    if (!Name.is(tok::less))
      Run.Scope = PreambleScope::Directory;
    Run.Size = LineEnd + 1;
  }
}

/// The `#include` lines of \p Preamble, trimmed, without its comments and
/// blank lines: what a preamble is keyed on, so that each file's own
/// leading comment does not keep it from the others.
std::string includeLines(llvm::StringRef Preamble) {
  std::string Lines;
  llvm::SmallVector<llvm::StringRef> All;
  Preamble.split(All, '\n');
  for (llvm::StringRef Line : All) {
    Line = Line.trim();
    if (Line.starts_with("#"))
      Lines += Line.str() + "\n";
  }
  return Lines;
}

/// The options of \p Invocation that decide its preamble: all of them but
/// those that name the main file, since the preamble serves other files.
std::string flagsKey(const CompilerInvocation &Invocation,
                     llvm::StringRef MainFile) {
  std::vector<std::string> Args = Invocation.getCC1CommandLine();
  std::string Key;
  llvm::StringRef MainName = path::filename(MainFile);
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-main-file-name" && I + 1 < Args.size()) {
      ++I;
      continue;
    }
    // The compilation unit's ID, from its path, names device-side statics
    // in code generation; a parse does not use it.
    if (Args[I] == MainFile || path::filename(Args[I]) == MainName ||
        llvm::StringRef(Args[I]).starts_with("-cuid="))
      continue;
    Key += Args[I];
    Key += '\0';
  }
  return Key;
}

/// Collects, while a preamble is built, its user declarations and the
/// files it read, and decides which bodies to skip.
class PreambleRecorder : public PreambleCallbacks {
public:
  void BeforeExecute(CompilerInstance &Compiler) override {
    Sources = &Compiler.getSourceManager();
  }

  void HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (!inSystemHeader(D))
        UserDecls.push_back(D);
  }

  bool shouldSkipFunctionBody(Decl *D) override { return inSystemHeader(D); }

  void AfterPCHEmitted(ASTWriter &Writer) override {
    for (const Decl *D : UserDecls)
      if (!D->isInvalidDecl())
        UserDeclIDs.push_back(Writer.getDeclID(D).getRawValue());
  }

  void AfterExecute(CompilerInstance &Compiler) override {
    SourceManager &Sources = Compiler.getSourceManager();
    OptionalFileEntryRef Main =
        Sources.getFileEntryRefForID(Sources.getMainFileID());
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
         ++It) {
      FileEntryRef File = It->first;
      if (Main && File == *Main)
        continue;
      llvm::StringRef Real = File.getFileEntry().tryGetRealPathName();
      Files.push_back(std::string(Real.empty() ? File.getName() : Real));
    }
  }

  std::vector<uint64_t> UserDeclIDs;
  std::vector<std::string> Files;

private:
  bool inSystemHeader(const Decl *D) const {
    return Sources && Sources->isInSystemHeader(
                          Sources->getExpansionLoc(D->getLocation()));
  }

  const SourceManager *Sources = nullptr;
  std::vector<const Decl *> UserDecls;
};

/// Keeps what building a preamble said. Warnings and notes are stored with
/// it and said again by every parse that loads it; an error makes it
/// unusable, so that the file's own parse says it where it said it before.
class DiagnosticRecorder : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error) {
      Failed = true;
      return;
    }
    if (Level < DiagnosticsEngine::Note)
      return;
    PreambleDiagnostic Said;
    Said.Level = unsigned(Level);
    Said.ID = Info.getID();
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Said.Message = std::string(Message);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &Sources = Info.getSourceManager();
      PresumedLoc Where =
          Sources.getPresumedLoc(Sources.getExpansionLoc(Info.getLocation()),
                                 /*UseLineDirectives=*/false);
      if (Where.isValid()) {
        Said.File = Where.getFilename();
        Said.Line = Where.getLine();
        Said.Column = Where.getColumn();
      }
    }
    Diagnostics.push_back(std::move(Said));
  }

  bool Failed = false;
  std::vector<PreambleDiagnostic> Diagnostics;
};

std::optional<Dependency> describe(llvm::StringRef Path, bool WithHash) {
  fs::file_status Status;
  if (fs::status(Path, Status) || !fs::is_regular_file(Status))
    return std::nullopt;
  Dependency Dep;
  Dep.Path = Path.str();
  Dep.Size = Status.getSize();
  Dep.ModifiedNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       Status.getLastModificationTime().time_since_epoch())
                       .count();
  if (WithHash) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return std::nullopt;
    Dep.ContentHash = support::contentHash((*Buffer)->getBuffer());
  }
  return Dep;
}

/// A dependency is unchanged when its size is and either its time of
/// change or its content is (a checkout rewrites times, not bytes).
bool unchanged(const Dependency &Recorded) {
  std::optional<Dependency> Now = describe(Recorded.Path, /*WithHash=*/false);
  if (!Now || Now->Size != Recorded.Size)
    return false;
  if (Now->ModifiedNs == Recorded.ModifiedNs)
    return true;
  std::optional<Dependency> Hashed = describe(Recorded.Path, /*WithHash=*/true);
  return Hashed && Hashed->ContentHash == Recorded.ContentHash;
}

} // namespace

struct PreambleCache::Entry {
  std::string PchPath;
  /// The precompiled header as written: Clang does not validate its bytes,
  /// and its size and time spare reading 70 MB at each lookup.
  uint64_t PchSize = 0;
  int64_t PchModifiedNs = 0;
  std::string PchHash;
  /// The file it was built from, and the size and hash of that file's
  /// preamble, which Clang reads back where it shows a location in it.
  std::string BuiltFrom;
  uint64_t BuiltFromPreambleSize = 0;
  std::string BuiltFromPreambleHash;
  std::vector<Dependency> Dependencies;
  std::vector<PreambleDiagnostic> Diagnostics;
  bool usable() const { return PchHash != UnusableMark; }
  std::vector<uint64_t> UserDeclIDs;

  std::string serialise() const {
    std::string Text = EntryHeader.str() + "\npch " + std::to_string(PchSize) +
                       " " + std::to_string(PchModifiedNs) + " " + PchHash +
                       "\nfrom " + std::to_string(BuiltFromPreambleSize) + " " +
                       BuiltFromPreambleHash + " " + BuiltFrom + "\n";
    Text += "decls";
    for (uint64_t ID : UserDeclIDs)
      Text += " " + std::to_string(ID);
    Text += "\n";
    // Hex, so that a message or a path may hold any character.
    for (const PreambleDiagnostic &Said : Diagnostics)
      Text += "diag " + std::to_string(Said.Level) + " " +
              std::to_string(Said.ID) + " " + std::to_string(Said.Line) + " " +
              std::to_string(Said.Column) + " " +
              llvm::toHex(Said.File, /*LowerCase=*/true) + " " +
              llvm::toHex(Said.Message, /*LowerCase=*/true) + "\n";
    for (const Dependency &Dep : Dependencies)
      Text += "file " + std::to_string(Dep.Size) + " " +
              std::to_string(Dep.ModifiedNs) + " " + Dep.ContentHash + " " +
              Dep.Path + "\n";
    return Text;
  }

  /// Anything unexpected makes the entry a miss, rebuilt and replaced.
  static std::optional<Entry> parse(llvm::StringRef Text) {
    llvm::SmallVector<llvm::StringRef> Lines;
    Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
    if (Lines.size() < 4 || Lines[0] != EntryHeader ||
        !Lines[1].starts_with("pch ") || !Lines[2].starts_with("from ") ||
        !Lines[3].starts_with("decls"))
      return std::nullopt;
    Entry Result;
    llvm::SmallVector<llvm::StringRef, 3> Pch;
    Lines[1].drop_front(4).split(Pch, ' ', /*MaxSplit=*/2);
    if (Pch.size() != 3 || Pch[0].getAsInteger(10, Result.PchSize) ||
        Pch[1].getAsInteger(10, Result.PchModifiedNs))
      return std::nullopt;
    Result.PchHash = Pch[2].str();
    llvm::SmallVector<llvm::StringRef, 3> From;
    Lines[2].drop_front(5).split(From, ' ', /*MaxSplit=*/2);
    if (From.size() != 3 ||
        From[0].getAsInteger(10, Result.BuiltFromPreambleSize))
      return std::nullopt;
    Result.BuiltFromPreambleHash = From[1].str();
    Result.BuiltFrom = From[2].str();
    llvm::SmallVector<llvm::StringRef> IDs;
    Lines[3].drop_front(5).split(IDs, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef ID : IDs) {
      uint64_t Value = 0;
      if (ID.getAsInteger(10, Value))
        return std::nullopt;
      Result.UserDeclIDs.push_back(Value);
    }
    for (llvm::StringRef Line : llvm::drop_begin(Lines, 4)) {
      if (Line.starts_with("diag ")) {
        llvm::SmallVector<llvm::StringRef, 7> Fields;
        Line.split(Fields, ' ', -1, /*KeepEmpty=*/true);
        PreambleDiagnostic Said;
        std::string File, Message;
        if (Fields.size() != 7 || Fields[1].getAsInteger(10, Said.Level) ||
            Fields[2].getAsInteger(10, Said.ID) ||
            Fields[3].getAsInteger(10, Said.Line) ||
            Fields[4].getAsInteger(10, Said.Column) ||
            !llvm::tryGetFromHex(Fields[5], File) ||
            !llvm::tryGetFromHex(Fields[6], Message))
          return std::nullopt;
        Said.File = std::move(File);
        Said.Message = std::move(Message);
        Result.Diagnostics.push_back(std::move(Said));
        continue;
      }
      llvm::SmallVector<llvm::StringRef, 5> Fields;
      Line.split(Fields, ' ', /*MaxSplit=*/4);
      Dependency Dep;
      if (Fields.size() != 5 || Fields[0] != "file" ||
          Fields[1].getAsInteger(10, Dep.Size) ||
          Fields[2].getAsInteger(10, Dep.ModifiedNs))
        return std::nullopt;
      Dep.ContentHash = Fields[3].str();
      Dep.Path = Fields[4].str();
      Result.Dependencies.push_back(std::move(Dep));
    }
    return Result;
  }
};

PreambleCache::PreambleCache(std::string Directory, std::string ToolKey,
                             uint64_t SizeLimit)
    : Directory(std::move(Directory)), ToolKey(std::move(ToolKey)),
      SizeLimit(SizeLimit) {}

std::string PreambleCache::defaultDirectory() {
  std::string Base = defaultCacheDir();
  if (Base.empty())
    return "";
  llvm::SmallString<256> Dir(Base);
  path::append(Dir, "preambles");
  return std::string(Dir);
}

bool PreambleCache::holds(llvm::StringRef Path) const {
  return !Directory.empty() && path::parent_path(Path) == Directory;
}

std::optional<PreambleCache::Entry>
PreambleCache::lookup(llvm::StringRef Key, llvm::vfs::FileSystem &FS) {
  llvm::SmallString<256> EntryPath(Directory), PchPath(Directory);
  path::append(EntryPath, Key + ".entry");
  path::append(PchPath, Key + ".pch");
  auto Text = llvm::MemoryBuffer::getFile(EntryPath, /*IsText=*/true);
  if (!Text)
    return std::nullopt;
  std::optional<Entry> Found = Entry::parse((*Text)->getBuffer());
  if (!Found)
    return std::nullopt;
  // A truncated or damaged header would fail the parse, not the lookup.
  if (Found->usable() && !unchanged({std::string(PchPath), Found->PchSize,
                                     Found->PchModifiedNs, Found->PchHash}))
    return std::nullopt;
  // The precompiled preamble names the file it was built from, and Clang
  // reads that file's preamble where it shows a location in it: it must
  // still start with the same text.
  auto From = FS.getBufferForFile(Found->BuiltFrom);
  if (!From || (*From)->getBufferSize() < Found->BuiltFromPreambleSize ||
      support::contentHash((*From)->getBuffer().take_front(
          Found->BuiltFromPreambleSize)) != Found->BuiltFromPreambleHash)
    return std::nullopt;
  if (!llvm::all_of(Found->Dependencies, unchanged))
    return std::nullopt;
  Found->PchPath = std::string(PchPath);
  // Most recently used last to go.
  int FD;
  if (!fs::openFileForReadWrite(EntryPath, FD, fs::CD_OpenExisting,
                                fs::OF_None)) {
    fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return Found;
}

std::optional<PreambleCache::Entry>
PreambleCache::build(const CompilerInvocation &Invocation, llvm::StringRef Key,
                     const llvm::MemoryBuffer &MainFile, unsigned PreambleSize,
                     bool EndsAtStartOfLine,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     std::shared_ptr<PCHContainerOperations> PCHOperations) {
  if (fs::create_directories(Directory))
    return std::nullopt;
  auto Building = std::make_shared<CompilerInvocation>(Invocation);
  Building->getFrontendOpts().SkipFunctionBodies = true;
  DiagnosticRecorder Said;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diagnostics =
      CompilerInstance::createDiagnostics(*FS, Building->getDiagnosticOpts(),
                                          &Said, /*ShouldOwnClient=*/false);
  PreambleRecorder Recorder;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      *Building, &MainFile, PreambleBounds(PreambleSize, EndsAtStartOfLine),
      Diagnostics, FS, std::move(PCHOperations), /*StoreInMemory=*/false,
      Directory, Recorder);
  if (!Built)
    return std::nullopt;

  Entry Result;
  Result.BuiltFrom = MainFile.getBufferIdentifier().str();
  Result.BuiltFromPreambleSize = PreambleSize;
  Result.BuiltFromPreambleHash =
      support::contentHash(MainFile.getBuffer().take_front(PreambleSize));
  Result.UserDeclIDs = std::move(Recorder.UserDeclIDs);
  llvm::sort(Recorder.Files);
  Recorder.Files.erase(llvm::unique(Recorder.Files), Recorder.Files.end());
  for (const std::string &File : Recorder.Files) {
    std::optional<Dependency> Dep = describe(File, /*WithHash=*/true);
    if (!Dep)
      return std::nullopt;
    Result.Dependencies.push_back(std::move(*Dep));
  }
  llvm::SmallString<256> EntryPath(Directory), PchPath(Directory);
  path::append(EntryPath, Key + ".entry");
  path::append(PchPath, Key + ".pch");

  // An error: kept as unusable while its headers do not change, so that
  // later runs do not build it again only to parse the file in full.
  Result.Diagnostics = std::move(Said.Diagnostics);
  if (Said.Failed) {
    Result.PchHash = UnusableMark.str();
    support::writeAtomically(EntryPath, Result.serialise());
    return Result;
  }

  // Where Clang wrote it: a temporary file it removes with the preamble.
  CompilerInvocation Probe(Invocation);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> ProbeFS = FS;
  std::unique_ptr<llvm::MemoryBuffer> Unused =
      llvm::MemoryBuffer::getMemBuffer("");
  Built->OverridePreamble(Probe, ProbeFS, Unused.get());
  std::string Temporary = Probe.getPreprocessorOpts().ImplicitPCHInclude;
  Probe.getPreprocessorOpts().clearRemappedFiles();

  // The precompiled header first, then the entry that names it: a reader
  // that finds the entry finds its header whole.
  llvm::SmallString<256> Staged;
  fs::createUniquePath(PchPath + "-%%%%%%%%.tmp", Staged,
                       /*MakeAbsolute=*/false);
  if (fs::create_hard_link(Temporary, Staged) &&
      fs::copy_file(Temporary, Staged))
    return std::nullopt;
  // Described before the rename, which keeps its size and time, so that
  // another worker's header of the same key is never described as this one.
  std::optional<Dependency> Written = describe(Staged, /*WithHash=*/true);
  if (!Written || fs::rename(Staged, PchPath)) {
    fs::remove(Staged);
    return std::nullopt;
  }
  Result.PchSize = Written->Size;
  Result.PchModifiedNs = Written->ModifiedNs;
  Result.PchHash = Written->ContentHash;
  if (support::writeAtomically(EntryPath, Result.serialise()))
    return std::nullopt;
  Result.PchPath = std::string(PchPath);
  evict(EntryPath);
  return Result;
}

void PreambleCache::evict(llvm::StringRef Keep) {
  std::vector<support::CachedItem> Entries;
  std::error_code EC;
  for (fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = It->path();
    if (!Name.ends_with(".entry")) {
      // What a run that was killed while it built a preamble left.
      fs::file_status Status;
      bool EntryPch =
          Name.ends_with(".pch") && support::isContentHash(path::stem(Name));
      if (!EntryPch && !fs::status(Name, Status) &&
          Status.getLastModificationTime() <
              std::chrono::system_clock::now() - std::chrono::hours(1))
        fs::remove(Name);
      continue;
    }
    fs::file_status EntryStatus, PchStatus;
    std::string Pch = (Name.drop_back(6) + ".pch").str();
    if (fs::status(Name, EntryStatus))
      continue;
    uint64_t Size = EntryStatus.getSize();
    if (!fs::status(Pch, PchStatus))
      Size += PchStatus.getSize();
    // The entry first: without it the header is never read. A lookup
    // touches its entry, so one another run is about to load is among the
    // last to go.
    Entries.push_back(
        {{Name.str(), Pch}, Size, EntryStatus.getLastModificationTime()});
  }
  support::evictLeastRecentlyUsed(std::move(Entries), SizeLimit, Keep);
}

std::optional<PreambleUse>
PreambleCache::attach(CompilerInvocation &Invocation,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      std::shared_ptr<PCHContainerOperations> PCHOperations,
                      bool CompilerWarningsShown) {
  PreprocessorOptions &PPOpts = Invocation.getPreprocessorOpts();
  const FrontendOptions &FrontendOpts = Invocation.getFrontendOpts();
  if (Directory.empty() || FrontendOpts.Inputs.size() != 1 ||
      !FrontendOpts.Inputs[0].isFile() || !PPOpts.ImplicitPCHInclude.empty() ||
      PPOpts.PrecompiledPreambleBytes.first != 0)
    return std::nullopt;
  llvm::SmallString<256> MainPath(FrontendOpts.Inputs[0].getFile());
  if (FS->makeAbsolute(MainPath))
    return std::nullopt;
  auto MainFile = FS->getBufferForFile(MainPath);
  if (!MainFile)
    return std::nullopt;
  // Named by its absolute path: that is what the preamble records.
  std::unique_ptr<llvm::MemoryBuffer> Main =
      llvm::MemoryBuffer::getMemBufferCopy((*MainFile)->getBuffer(), MainPath);
  PreambleBounds Directives =
      ComputePreambleBounds(Invocation.getLangOpts(), *Main, /*MaxLines=*/0);
  IncludeRun Run = leadingIncludes(
      Main->getBuffer().take_front(Directives.Size), Invocation.getLangOpts());
  // Without #include lines or headers the compiler includes first (CUDA's
  // wrappers), a precompiled preamble would hold only the builtins.
  if (Run.Size == 0 && PPOpts.Includes.empty())
    return std::nullopt;
  PreambleBounds Bounds(Run.Size, /*PreambleEndsAtStartOfLine=*/true);
  llvm::StringRef Preamble = Main->getBuffer().take_front(Bounds.Size);

  // The working directory resolves relative include paths of the flags;
  // quoted includes are searched from the file's directory first.
  llvm::ErrorOr<std::string> WorkingDirectory =
      FS->getCurrentWorkingDirectory();
  std::string KeyText = ToolKey + '\0' + CLANG_VERSION_STRING + '\0' +
                        (WorkingDirectory ? *WorkingDirectory : "") + '\0' +
                        includeLines(Preamble) + '\0';
  if (Run.Scope == PreambleScope::Directory)
    KeyText += path::parent_path(MainPath).str();
  KeyText += '\0' + flagsKey(Invocation, MainPath);
  std::string Key = support::contentHash(KeyText);

  std::optional<Entry> Found = lookup(Key, *FS);
  if (!Found)
    Found = build(Invocation, Key, *Main, Bounds.Size,
                  Bounds.PreambleEndsAtStartOfLine, FS, PCHOperations);
  if (!Found || !Found->usable())
    return std::nullopt;
  // Said again by this parse; where they would be shown, the parse of the
  // file itself says them, with their macro expansions.
  if (!Found->Diagnostics.empty() && CompilerWarningsShown)
    return std::nullopt;
  PreambleUse Use;
  Use.Diagnostics = std::move(Found->Diagnostics);
  for (Dependency &Dep : Found->Dependencies)
    Use.Dependencies.push_back(std::move(Dep.Path));
  Use.UserDeclIDs = std::move(Found->UserDeclIDs);

  // What PrecompiledPreamble::AddImplicitPreamble sets, for a header that
  // outlives this process.
  PPOpts.PrecompiledPreambleBytes = {Bounds.Size,
                                     Bounds.PreambleEndsAtStartOfLine};
  PPOpts.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PPOpts.UsePredefines = false;
  PPOpts.ImplicitPCHInclude = Found->PchPath;
  return Use;
}

std::vector<Decl *> preambleDecls(CompilerInstance &Compiler,
                                  llvm::ArrayRef<uint64_t> UserDeclIDs) {
  std::vector<Decl *> Decls;
  IntrusiveRefCntPtr<ASTReader> Reader = Compiler.getASTReader();
  if (!Reader || UserDeclIDs.empty())
    return Decls;
  serialization::ModuleFile &Preamble =
      Reader->getModuleManager().getPrimaryModule();
  for (uint64_t ID : UserDeclIDs)
    if (Decl *D = Reader->GetLocalDecl(
            Preamble,
            LocalDeclID::get(*Reader, Preamble, LocalDeclID::DeclID(ID))))
      Decls.push_back(D);
  return Decls;
}

void sayPreambleDiagnostics(CompilerInstance &Compiler,
                            llvm::ArrayRef<PreambleDiagnostic> Diagnostics) {
  SourceManager &Sources = Compiler.getSourceManager();
  DiagnosticsEngine &Engine = Compiler.getDiagnostics();
  for (const PreambleDiagnostic &Said : Diagnostics) {
    FullSourceLoc Where;
    if (!Said.File.empty())
      if (OptionalFileEntryRef File =
              Compiler.getFileManager().getOptionalFileRef(Said.File))
        Where = FullSourceLoc(
            Sources.translateFileLineCol(*File, Said.Line, Said.Column),
            Sources);
    Engine.Report(StoredDiagnostic(DiagnosticsEngine::Level(Said.Level),
                                   Said.ID, Said.Message, Where, {}, {}));
  }
}

} // namespace gpuguard::frontend
