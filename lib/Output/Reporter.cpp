//===--- Reporter.cpp - What happens to each file's findings --------------===//

#include "Output/Reporter.h"
#include "Output/GitHubAnnotations.h"
#include "Output/Sarif.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using clang::tidy::ClangTidyError;

namespace gpuguard::output {
namespace {

llvm::Error problem(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// clang-tidy records paths as the compiler saw them, relative to the
/// compile command's directory when the command named them so.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef BuildDirectory) {
  if (Path.empty())
    return "";
  llvm::SmallString<256> Absolute;
  if (llvm::sys::path::is_absolute(Path) || BuildDirectory.empty()) {
    Absolute = Path;
    llvm::sys::fs::make_absolute(Absolute);
  } else {
    Absolute = BuildDirectory;
    llvm::sys::path::append(Absolute, Path);
  }
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

/// Catches a missing output directory before the run rather than after it.
std::optional<std::string> outputDirectoryProblem(llvm::StringRef Option,
                                                  llvm::StringRef Path) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (Parent.empty() || llvm::sys::fs::is_directory(Parent))
    return std::nullopt;
  return ("cannot write " + Option + " file '" + Path + "': directory '" +
          Parent + "' does not exist; create it or choose another path")
      .str();
}

bool isCompileError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error &&
         llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

std::optional<std::string>
writeFile(llvm::StringRef Option, llvm::StringRef Path, llvm::StringRef Text) {
  llvm::Error Failed =
      llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) -> llvm::Error {
        OS << Text;
        return llvm::Error::success();
      });
  if (!Failed)
    return std::nullopt;
  return ("cannot write " + Option + " file '" + Path + "': " +
          llvm::toString(std::move(Failed)) + "; choose a writable path")
      .str();
}

} // namespace

llvm::Expected<std::unique_ptr<Reporter>>
Reporter::create(ReporterOptions Options, const MessageSink &Warn) {
  llvm::SmallString<256> Root(Options.ProjectRoot);
  if (Root.empty()) {
    if (std::error_code EC = llvm::sys::fs::current_path(Root))
      return problem("cannot find the working directory: " + EC.message() +
                     "; pass --sarif-root=<dir>");
  } else {
    llvm::sys::fs::make_absolute(Root);
    if (!llvm::sys::fs::is_directory(Root))
      return problem("--sarif-root='" + Options.ProjectRoot +
                     "' is not a directory; pass the directory that paths "
                     "in the output are relative to");
  }
  llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  Options.ProjectRoot = std::string(Root);
  if (!Options.DocsUrl.empty() &&
      !llvm::StringRef(Options.DocsUrl).ends_with("/"))
    Options.DocsUrl += '/';
  if (!Options.OutputPath.empty())
    if (auto Problem = outputDirectoryProblem("--output", Options.OutputPath))
      return problem(*Problem);
  if (!Options.WriteBaselinePath.empty())
    if (auto Problem = outputDirectoryProblem("--write-baseline",
                                              Options.WriteBaselinePath))
      return problem(*Problem);

  std::unique_ptr<Reporter> Result(new Reporter(std::move(Options)));
  const ReporterOptions &Opts = Result->Options;
  if (!Opts.BaselinePath.empty()) {
    llvm::Expected<Baseline> Read = Baseline::read(Opts.BaselinePath);
    if (!Read)
      return Read.takeError();
    Result->Accepted = std::move(*Read);
  }
  if (!Opts.DiffSource.empty()) {
    llvm::SmallString<256> Directory(Opts.DiffDirectory);
    if (Directory.empty())
      llvm::sys::fs::current_path(Directory);
    llvm::Expected<LoadedDiff> Read = loadDiff(Opts.DiffSource, Directory);
    if (!Read)
      return Read.takeError();
    for (const std::string &Outside : Read->OutsideFiles)
      Warn("the diff names '" + Outside + "', which is outside the project '" +
           Read->ProjectRoot + "'; its changes are not checked");
    Result->Diff = std::move(*Read);
  }
  return Result;
}

bool Reporter::filters() const {
  return Accepted || Diff || !Options.WriteBaselinePath.empty();
}

std::vector<std::string> Reporter::changedFiles() const {
  std::vector<std::string> Files;
  if (Diff)
    for (const std::string &File : Diff->Lines.files())
      if (llvm::sys::fs::is_regular_file(File))
        Files.push_back(File);
  return Files;
}

Location Reporter::locateFile(llvm::StringRef Path) const {
  Location Where;
  if (Path.empty())
    return Where;
  Where.Path = Path.str();
  if (std::optional<std::string> Relative =
          pathInside(Path, Options.ProjectRoot)) {
    Where.RelativePath = std::move(*Relative);
    Where.InsideRoot = true;
  } else {
    Where.RelativePath = Where.Path;
  }
  return Where;
}

Location Reporter::locate(llvm::StringRef Path, unsigned Offset,
                          llvm::StringRef *LineText) {
  Location Where = locateFile(Path);
  if (Path.empty())
    return Where;
  if (std::optional<TextPosition> Position = Sources.locate(Path, Offset)) {
    Where.Line = Position->Line;
    Where.Column = Position->Column;
    if (LineText)
      *LineText = Position->LineText;
  }
  return Where;
}

std::vector<ClangTidyError> Reporter::take(std::vector<ClangTidyError> Errors) {
  if (printsText() && !filters())
    return Errors;
  struct Candidate {
    size_t Index;
    Finding F;
    std::string LineText;
  };
  std::vector<Candidate> Findings;
  for (size_t I = 0; I < Errors.size(); ++I) {
    const ClangTidyError &E = Errors[I];
    std::string Path = absolutePath(E.Message.FilePath, E.BuildDirectory);
    std::string Key = E.DiagnosticName + '\0' + Path + '\0' +
                      std::to_string(E.Message.FileOffset) + '\0' +
                      E.Message.Message;
    if (!Taken.insert(Key).second)
      continue;
    Candidate Item{I, {}, {}};
    Finding &F = Item.F;
    F.Check = E.DiagnosticName;
    F.Message = E.Message.Message;
    F.IsError = E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError;
    llvm::StringRef LineText;
    F.Where = locate(Path, E.Message.FileOffset, &LineText);
    Item.LineText = LineText.str();
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back(
          {N.Message,
           locate(absolutePath(N.FilePath, E.BuildDirectory), N.FileOffset)});
    for (const auto &FileFixes : E.Message.Fix)
      for (const clang::tooling::Replacement &R : FileFixes.second) {
        std::string FixPath = absolutePath(R.getFilePath(), E.BuildDirectory);
        F.Fixes.push_back({locate(FixPath, R.getOffset()),
                           locate(FixPath, R.getOffset() + R.getLength()),
                           R.getReplacementText().str()});
      }
    Findings.push_back(std::move(Item));
  }

  // Fingerprints number repeats in file order.
  llvm::sort(Findings, [](const Candidate &A, const Candidate &B) {
    return reportedBefore(A.F, B.F);
  });
  std::vector<bool> Keep(Errors.size(), false);
  for (Candidate &Item : Findings) {
    Finding &F = Item.F;
    if (F.Where.hasFile())
      F.Fingerprint = Numbering.next(
          lineHash(F.Check, F.Where.RelativePath, Item.LineText));
    if (!isCompileError(Errors[Item.Index])) {
      if (Diff) {
        auto [It, Inserted] = CanonicalPaths.try_emplace(F.Where.Path);
        if (Inserted) {
          llvm::SmallString<256> Real;
          It->second = llvm::sys::fs::real_path(F.Where.Path, Real)
                           ? F.Where.Path
                           : std::string(Real);
        }
        if (!F.Where.hasFile() ||
            !Diff->Lines.contains(It->second, F.Where.Line)) {
          ++HiddenByDiff;
          continue;
        }
      }
      if (!Options.WriteBaselinePath.empty() && !F.Fingerprint.empty())
        NewBaseline.push_back(
            {F.Fingerprint, F.Check, F.Where.RelativePath, F.Message});
      if (Accepted && !F.Fingerprint.empty() &&
          Accepted->consume(F.Fingerprint)) {
        ++HiddenByBaseline;
        continue;
      }
    }
    Keep[Item.Index] = true;
    if (!printsText())
      Reported.push_back(std::move(F));
  }

  std::vector<ClangTidyError> Kept;
  for (size_t I = 0; I < Errors.size(); ++I)
    if (Keep[I])
      Kept.push_back(std::move(Errors[I]));
  return Kept;
}

void Reporter::noteNotAnalysed(llvm::StringRef Path, std::string Message) {
  // No line and no read of the file: the whole file is concerned.
  Unanalysed.push_back({std::move(Message), locateFile(Path)});
}

void Reporter::noteEnabledChecks(llvm::ArrayRef<std::string> Checks) {
  EnabledChecks.insert(Checks.begin(), Checks.end());
}

std::string Reporter::render() {
  llvm::sort(Reported, reportedBefore);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (Options.OutputFormat == Format::Sarif) {
    std::vector<std::string> Rules(EnabledChecks.begin(), EnabledChecks.end());
    writeSarif(OS, Reported, Rules,
               {Options.ToolVersion, Options.DocsUrl, Options.ProjectRoot},
               Unanalysed);
  } else {
    for (const Finding &F : Reported)
      writeAnnotation(OS, F);
    for (const NotAnalysed &File : Unanalysed)
      writeAnnotation(OS, File);
  }
  return Text;
}

std::vector<std::string> Reporter::finish(const MessageSink &Note) {
  std::vector<std::string> Problems;
  if (!Options.WriteBaselinePath.empty()) {
    size_t Count = NewBaseline.size();
    if (std::optional<std::string> Problem = writeFile(
            "--write-baseline", Options.WriteBaselinePath,
            renderBaseline(std::move(NewBaseline), Options.ToolVersion)))
      Problems.push_back(std::move(*Problem));
    else
      Note("wrote " + llvm::Twine(Count) + " finding(s) to the baseline '" +
           Options.WriteBaselinePath + "'");
  }
  if (!printsText()) {
    std::string Text = render();
    if (Options.OutputPath.empty()) {
      llvm::outs() << Text;
      llvm::outs().flush();
    } else if (std::optional<std::string> Problem =
                   writeFile("--output", Options.OutputPath, Text)) {
      Problems.push_back(std::move(*Problem));
    }
  }
  if (Accepted)
    Note(llvm::Twine(HiddenByBaseline) +
         " finding(s) hidden by the baseline '" + Options.BaselinePath + "'");
  if (Diff)
    Note(llvm::Twine(HiddenByDiff) + " finding(s) on lines that --diff=" +
         Options.DiffSource + " did not change were not reported");
  return Problems;
}

unsigned
countWarningsAsErrors(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors) {
  return llvm::count_if(
      Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
}

} // namespace gpuguard::output
