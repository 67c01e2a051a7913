//===--- CheckRunner.cpp - Runs the checks on one file --------------------===//

#include "Driver/CheckRunner.h"
#include "Driver/OptionsProvider.h"
#include "Frontend/NvccSyntax.h"
#include "Frontend/PreambleCache.h"
#include "Instrument/Recorder.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;

namespace gpuguard {
namespace {

/// Narrows the AST traversal of the checks (and the parent map some of them
/// build) to the top-level declarations outside system headers. No check
/// reports in system headers, and the CUDA and C++ headers are most of a
/// translation unit: walking them dominated the cost of a run. Those of a
/// precompiled preamble come first, as they came first in the file.
class UserCodeScope : public ASTConsumer {
public:
  UserCodeScope(CompilerInstance &Compiler, const frontend::PreambleUse &Use)
      : Compiler(Compiler), Preamble(Use) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    const SourceManager &Sources = Compiler.getSourceManager();
    for (Decl *D : Group)
      if (!Sources.isInSystemHeader(Sources.getExpansionLoc(D->getLocation())))
        UserDecls.push_back(D);
    return true;
  }

  // The preamble's declarations are taken from its list, whole and in
  // order, not from those its reader hands out one by one.
  void HandleInterestingDecl(DeclGroupRef) override {}

  void HandleTranslationUnit(ASTContext &Context) override {
    frontend::sayPreambleDiagnostics(Compiler, Preamble.Diagnostics);
    std::vector<Decl *> Scope =
        frontend::preambleDecls(Compiler, Preamble.UserDeclIDs);
    llvm::append_range(Scope, UserDecls);
    Context.setTraversalScope(Scope);
  }

private:
  CompilerInstance &Compiler;
  const frontend::PreambleUse &Preamble;
  std::vector<Decl *> UserDecls;
};

/// Records the quoted includes of the main file for `gpuguard instrument`:
/// its copy lives elsewhere, so it names them by their absolute paths.
class QuotedIncludes : public PPCallbacks {
public:
  QuotedIncludes(instrument::Recorder &Recorder, const SourceManager &Sources)
      : Recorder(Recorder), Sources(Sources) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &IncludeTok,
                          StringRef FileName, bool IsAngled,
                          CharSourceRange FilenameRange,
                          OptionalFileEntryRef File, StringRef SearchPath,
                          StringRef RelativePath, const Module *SuggestedModule,
                          bool ModuleImported,
                          SrcMgr::CharacteristicKind FileType) override {
    if (IsAngled || !File)
      return;
    unsigned Length = Sources.getFileOffset(FilenameRange.getEnd()) -
                      Sources.getFileOffset(FilenameRange.getBegin());
    Recorder.addQuotedInclude(Sources, FilenameRange.getBegin(), Length,
                              File->getName());
  }

private:
  instrument::Recorder &Recorder;
  const SourceManager &Sources;
};

/// Passes diagnostics on to clang-tidy's consumer, except that two errors
/// Clang raises on code nvcc compiles become warnings: an initialiser of a
/// `__shared__` variable (nvcc warns that it does not run it, as for a
/// `__shared__ cuda::barrier`), and a `%` in inline assembly that names no
/// operand (`%globaltimer`, which nvcc passes to ptxas), and the "expected
/// ')'" at an asm operand that follows the previous one with no comma (nvcc
/// reads juxtaposed operands as a list). Clang drops each construct and
/// parses on, so the rest of the file is analysed as usual.
class NvccTolerantDiagnostics : public DiagnosticConsumer {
public:
  explicit NvccTolerantDiagnostics(DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const LangOptions &LangOpts,
                       const Preprocessor *PP) override {
    CUDA = LangOpts.CUDA;
    Next.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override {
    return Next.IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    if (Level >= DiagnosticsEngine::Error) {
      if (CUDA && (Info.getID() == diag::err_shared_var_init ||
                   Info.getID() == diag::err_asm_invalid_escape ||
                   isAtJuxtaposedAsmOperand(Info))) {
        Level = DiagnosticsEngine::Warning;
        ++Tolerated;
      } else {
        ++OtherErrors;
      }
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next.HandleDiagnostic(Level, Info);
  }

  static bool isAtJuxtaposedAsmOperand(const clang::Diagnostic &Info) {
    if (Info.getID() != diag::err_expected || !Info.hasSourceManager() ||
        !Info.getLocation().isFileID())
      return false;
    const SourceManager &Sources = Info.getSourceManager();
    FileIDAndOffset Decomposed = Sources.getDecomposedLoc(Info.getLocation());
    bool Invalid = false;
    StringRef Buffer = Sources.getBufferData(Decomposed.first, &Invalid);
    return !Invalid &&
           frontend::isJuxtaposedAsmOperand(Buffer, Decomposed.second);
  }

  /// The compiler failed only because of errors made warnings here.
  bool onlyToleratedErrors() const { return Tolerated && !OtherErrors; }

private:
  DiagnosticConsumer &Next;
  bool CUDA = false;
  unsigned Tolerated = 0;
  unsigned OtherErrors = 0;
};

/// Whether a glob of \p Checks may enable a compiler warning
/// (clang-diagnostic-*): then it may be shown, and a preamble that warns is
/// not used, so that the file's own parse shows it with its macro notes.
bool enablesCompilerWarnings(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Globs;
  Checks.split(Globs, ',', -1, /*KeepEmpty=*/false);
  constexpr llvm::StringLiteral Prefix = "clang-diagnostic-";
  return llvm::any_of(Globs, [&](llvm::StringRef Glob) {
    Glob = Glob.trim();
    if (Glob.empty() || Glob.starts_with("-"))
      return false;
    llvm::StringRef Literal = Glob.take_until(
        [](char C) { return C == '*' || C == '?' || C == '['; });
    return Prefix.starts_with(Literal) || Literal.starts_with(Prefix);
  });
}

class TidyActionFactory : public FrontendActionFactory {
public:
  TidyActionFactory(ClangTidyContext &Context,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                    frontend::PreambleCache *Preambles,
                    std::vector<std::string> &Dependencies)
      : ConsumerFactory(Context, std::move(FS)), Context(Context),
        Preambles(Preambles), Dependencies(Dependencies) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(ConsumerFactory, Context, Preamble);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy does, so that code hidden from analyzers stays hidden.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // No "N warnings generated" per side: findings are printed once, merged.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    Preamble = {};
    // Not for `gpuguard instrument`: its copies need every directive seen.
    if (Preambles && !instrument::Recorder::active() &&
        Invocation->getFrontendOpts().Inputs.size() == 1) {
      ClangTidyOptions Options = Context.getOptionsForFile(
          Invocation->getFrontendOpts().Inputs[0].getFile());
      if (std::optional<frontend::PreambleUse> Use = Preambles->attach(
              *Invocation, Files->getVirtualFileSystemPtr(), PCHContainerOps,
              enablesCompilerWarnings(Options.Checks.value_or("")))) {
        llvm::append_range(Dependencies, Use->Dependencies);
        Preamble = std::move(*Use);
      }
    }
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  class Action : public ASTFrontendAction {
  public:
    Action(ClangTidyASTConsumerFactory &Factory, ClangTidyContext &Context,
           const frontend::PreambleUse &Preamble)
        : Factory(Factory), Context(Context), Preamble(Preamble) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      std::vector<std::unique_ptr<ASTConsumer>> Consumers;
      if (instrument::Recorder *Recorder = instrument::Recorder::active()) {
        Recorder->noteLanguage(Compiler.getASTContext());
        Compiler.getPreprocessor().addPPCallbacks(
            std::make_unique<QuotedIncludes>(*Recorder,
                                             Compiler.getSourceManager()));
      }
      // First, so that the checks' matchers see the narrowed scope.
      Consumers.push_back(std::make_unique<UserCodeScope>(Compiler, Preamble));
      {
        MatchersWithoutHeaderFilter Scope;
        Consumers.push_back(Factory.createASTConsumer(Compiler, File));
      }
      // The file's real options, for the diagnostics.
      Context.setCurrentFile(File);
      return std::make_unique<MultiplexConsumer>(std::move(Consumers));
    }

  private:
    ClangTidyASTConsumerFactory &Factory;
    ClangTidyContext &Context;
    const frontend::PreambleUse &Preamble;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  ClangTidyContext &Context;
  frontend::PreambleCache *Preambles;
  /// The headers of the preamble a parse loaded, which it never opens.
  std::vector<std::string> &Dependencies;
  /// What the parse under way takes from its precompiled preamble.
  frontend::PreambleUse Preamble;
};

/// One compile command of one file: CUDA files are parsed once per side,
/// each side a run of its own.
class SingleCommandDatabase : public CompilationDatabase {
public:
  explicit SingleCommandDatabase(CompileCommand Command)
      : Command(std::move(Command)) {}
  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return {Command};
  }

private:
  CompileCommand Command;
};

} // namespace

std::vector<ClangTidyError> CheckRunner::run(const std::string &File,
                                             bool &Parsed) {
  ClangTidyDiagnosticConsumer Consumer(Context, nullptr,
                                       /*RemoveIncompatibleErrors=*/true,
                                       /*GetFixesFromNotes=*/FixesFromNotes);
  int Status = 0;
  LastDependencies.clear();
  // Both sides see the code they share, so each side's suppressions are
  // counted apart and the file counts the larger of them.
  ClangTidyStats FileStats;
  for (const CompileCommand &Command : Database.getCompileCommands(File)) {
    ClangTidyStats Before = Context.getStats();
    Status |= runCommand(File, Command, Consumer);
    const ClangTidyStats &After = Context.getStats();
    auto Larger = [](unsigned &Into, unsigned Now, unsigned Then) {
      Into = std::max(Into, Now - Then);
    };
    Larger(FileStats.ErrorsIgnoredNOLINT, After.ErrorsIgnoredNOLINT,
           Before.ErrorsIgnoredNOLINT);
    Larger(FileStats.ErrorsIgnoredNonUserCode, After.ErrorsIgnoredNonUserCode,
           Before.ErrorsIgnoredNonUserCode);
    Larger(FileStats.ErrorsIgnoredLineFilter, After.ErrorsIgnoredLineFilter,
           Before.ErrorsIgnoredLineFilter);
    Larger(FileStats.ErrorsIgnoredCheckFilter, After.ErrorsIgnoredCheckFilter,
           Before.ErrorsIgnoredCheckFilter);
  }
  addSuppressed(Suppressed, FileStats);
  LastSuppressed = FileStats;
  llvm::sort(LastDependencies);
  LastDependencies.erase(llvm::unique(LastDependencies),
                         LastDependencies.end());
  // Both sides of a CUDA file report the findings in code they share; the
  // consumer sorts and folds identical findings into one.
  std::vector<ClangTidyError> Errors = Consumer.take();
  Parsed = Status == 0 && llvm::none_of(Errors, [](const ClangTidyError &E) {
             return E.DiagLevel == ClangTidyError::Error &&
                    llvm::StringRef(E.DiagnosticName)
                        .starts_with("clang-diagnostic-");
           });
  return Errors;
}

int CheckRunner::runCommand(const std::string &File,
                            const CompileCommand &Command,
                            ClangTidyDiagnosticConsumer &Consumer) {
  SingleCommandDatabase Single(Command);
  ClangTool Tool(Single, {File}, std::make_shared<PCHContainerOperations>(),
                 BaseFS);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(
      [this](const CommandLineArguments &Args, StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore && !Adjusted.empty())
          Adjusted.insert(Adjusted.begin() + 1, Opts.ExtraArgsBefore->begin(),
                          Opts.ExtraArgsBefore->end());
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                          Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());

  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagIDs, *DiagOpts, &Consumer,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  NvccTolerantDiagnostics Tolerant(Consumer);
  Tool.setDiagnosticConsumer(&Tolerant);
  TidyActionFactory Factory(Context, BaseFS, Preambles, LastDependencies);
  int Status = Tool.run(&Factory);
  // Every file the parse looked up and read, headers of a precompiled
  // header included (Clang validates them when it loads it), but not a
  // precompiled preamble: its headers were added instead, and the same
  // preamble built again may differ in bytes.
  llvm::SmallVector<OptionalFileEntryRef> Seen;
  Tool.getFiles().GetUniqueIDMapping(Seen);
  for (OptionalFileEntryRef Entry : Seen) {
    if (!Entry)
      continue;
    llvm::StringRef Real = Entry->getFileEntry().tryGetRealPathName();
    llvm::SmallString<256> Path(Real.empty() ? Entry->getName() : Real);
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::path::make_absolute(Command.Directory, Path);
    if (Preambles && Preambles->holds(Path))
      continue;
    LastDependencies.push_back(std::string(Path));
  }
  return Tolerant.onlyToleratedErrors() ? 0 : Status;
}

void CheckRunner::addReplayedSuppressed(const ClangTidyStats &Stats) {
  addSuppressed(Suppressed, Stats);
}

llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> createOwnFileSystem() {
  // Launches written `k << <g, b >> > (...)` parse as nvcc parses them.
  return llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>(
      new llvm::vfs::OverlayFileSystem(frontend::withNvccLaunchSyntax(
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
              llvm::vfs::createPhysicalFileSystem().release()))));
}

void addSuppressed(ClangTidyStats &Total, const ClangTidyStats &More) {
  Total.ErrorsIgnoredNOLINT += More.ErrorsIgnoredNOLINT;
  Total.ErrorsIgnoredNonUserCode += More.ErrorsIgnoredNonUserCode;
  Total.ErrorsIgnoredLineFilter += More.ErrorsIgnoredLineFilter;
  Total.ErrorsIgnoredCheckFilter += More.ErrorsIgnoredCheckFilter;
}

} // namespace gpuguard
