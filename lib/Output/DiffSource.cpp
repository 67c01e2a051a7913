//===--- DiffSource.cpp - Where --diff reads its changes ------------------===//

#include "Output/DiffSource.h"
#include "Output/Finding.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <optional>

namespace gpuguard::output {
namespace {

llvm::Error problem(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

struct GitResult {
  int Status = -1;
  std::string Out;
  std::string Err;
};

/// Runs git with \p Arguments, standard input empty; nullopt when git cannot
/// be found or started.
std::optional<GitResult> runGitAsIs(llvm::ArrayRef<std::string> Arguments);

/// Options under which git writes nothing into the analysed repository (no
/// opportunistic index refresh) and runs no command that the repository's
/// configuration names: no file system monitor hook, and every
/// content filter driver it defines (`filter.<name>.clean`, `.smudge`,
/// `.process`) replaced by nothing. External diff drivers and textconv are
/// off through `git diff`'s own options. Listing the filters runs only
/// `git config`, which executes nothing.
std::vector<std::string> inertConfiguration(llvm::ArrayRef<std::string> Where) {
  std::vector<std::string> Settings = {"--no-optional-locks", "-c",
                                       "core.fsmonitor=false"};
  std::vector<std::string> List(Where.begin(), Where.end());
  List.insert(List.end(), {"config", "--null", "--name-only", "--get-regexp",
                           "^filter\\..*\\.(clean|smudge|process)$"});
  std::optional<GitResult> Filters = runGitAsIs(List);
  if (!Filters || Filters->Status != 0)
    return Settings;
  llvm::SmallVector<llvm::StringRef> Names;
  llvm::StringRef(Filters->Out).split(Names, '\0', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Name : Names) {
    Settings.push_back("-c");
    Settings.push_back(Name.trim().str() + "=");
  }
  return Settings;
}

/// Runs git in a repository gpuguard analyses, with inertConfiguration().
std::optional<GitResult> runGit(llvm::ArrayRef<std::string> Arguments) {
  // "-C <dir>" first: the configuration to neutralise is that directory's.
  llvm::ArrayRef<std::string> Where =
      Arguments.size() >= 2 && Arguments[0] == "-C"
          ? Arguments.take_front(2)
          : llvm::ArrayRef<std::string>();
  std::vector<std::string> Inert = inertConfiguration(Where);
  std::vector<std::string> All(Where.begin(), Where.end());
  All.insert(All.end(), Inert.begin(), Inert.end());
  All.insert(All.end(), Arguments.begin() + Where.size(), Arguments.end());
  return runGitAsIs(All);
}

std::optional<GitResult> runGitAsIs(llvm::ArrayRef<std::string> Arguments) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return std::nullopt;
  llvm::SmallString<128> OutPath, ErrPath;
  if (llvm::sys::fs::createTemporaryFile("gpuguard-git", "out", OutPath) ||
      llvm::sys::fs::createTemporaryFile("gpuguard-git", "err", ErrPath))
    return std::nullopt;
  llvm::FileRemover RemoveOut(OutPath), RemoveErr(ErrPath);
  std::vector<llvm::StringRef> Argv = {*Git};
  Argv.insert(Argv.end(), Arguments.begin(), Arguments.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutPath), llvm::StringRef(ErrPath)};
  GitResult Result;
  Result.Status =
      llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects);
  if (Result.Status < 0)
    return std::nullopt;
  if (auto Out = llvm::MemoryBuffer::getFile(OutPath))
    Result.Out = (*Out)->getBuffer().str();
  if (auto Err = llvm::MemoryBuffer::getFile(ErrPath))
    Result.Err = (*Err)->getBuffer().str();
  return Result;
}

std::string firstLine(llvm::StringRef Text) {
  return Text.trim().split('\n').first.trim().str();
}

/// At most \p Limit characters of \p Text for a one-line message, control
/// characters shown as '?'.
std::string printable(llvm::StringRef Text, size_t Limit) {
  std::string Shown;
  for (char C : Text.take_front(Limit))
    Shown += (static_cast<unsigned char>(C) < 0x20 || C == 0x7f) ? '?' : C;
  if (Text.size() > Limit)
    Shown += "...";
  return Shown;
}

/// The real path when the file exists, so that a path through a symbolic
/// link and the path git names meet.
std::string canonical(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  return Path.str();
}

} // namespace

std::optional<std::string> gitWorkTreeRoot(llvm::StringRef Directory) {
  std::optional<GitResult> Result =
      runGit({"-C", Directory.str(), "rev-parse", "--show-toplevel"});
  if (!Result || Result->Status != 0)
    return std::nullopt;
  std::string Root = llvm::StringRef(Result->Out).trim().str();
  if (Root.empty())
    return std::nullopt;
  return Root;
}

std::vector<std::string> projectFiles(llvm::StringRef ProjectRoot) {
  std::vector<std::string> Files;
  auto Add = [&](llvm::StringRef Relative) {
    llvm::SmallString<256> Path(ProjectRoot);
    llvm::sys::path::append(Path, Relative);
    Files.push_back(std::string(Path));
  };
  std::optional<GitResult> Listed =
      runGit({"-C", ProjectRoot.str(), "ls-files", "-z", "--cached", "--others",
              "--exclude-standard"});
  if (Listed && Listed->Status == 0) {
    llvm::SmallVector<llvm::StringRef> Names;
    llvm::StringRef(Listed->Out).split(Names, '\0', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Name : Names)
      Add(Name);
    return Files;
  }
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(ProjectRoot, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (It->type() == llvm::sys::fs::file_type::regular_file)
      Files.push_back(It->path());
  }
  return Files;
}

LoadedDiff resolveDiff(llvm::ArrayRef<FileDiff> Files,
                       llvm::StringRef ProjectRoot) {
  LoadedDiff Diff;
  llvm::SmallString<256> Root(ProjectRoot);
  llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  Diff.ProjectRoot = std::string(Root);
  for (const FileDiff &File : Files) {
    const std::string &Named =
        File.NewPath.empty() ? File.OldPath : File.NewPath;
    if (Named.empty())
      continue;
    llvm::SmallString<256> Absolute(Named);
    if (!llvm::sys::path::is_absolute(Absolute)) {
      Absolute = Root;
      llvm::sys::path::append(Absolute, Named);
    }
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    if (!pathInside(Absolute, Root)) {
      Diff.OutsideFiles.push_back(Named);
      continue;
    }
    if (File.NewPath.empty() || File.Binary)
      continue;
    Diff.Lines.add(canonical(Absolute), File.AddedLines);
  }
  return Diff;
}

llvm::Expected<LoadedDiff> loadDiff(llvm::StringRef Source,
                                    llvm::StringRef Directory) {
  std::optional<std::string> WorkTree = gitWorkTreeRoot(Directory);
  if (Source == "-") {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Input =
        llvm::MemoryBuffer::getSTDIN();
    if (!Input)
      return problem("cannot read the diff from standard input: " +
                     Input.getError().message() +
                     "; pipe a unified diff into --diff=-");
    llvm::Expected<std::vector<FileDiff>> Files =
        parseUnifiedDiff((*Input)->getBuffer());
    if (!Files)
      return problem("the diff on standard input is not a unified diff (" +
                     llvm::toString(Files.takeError()) +
                     "); pipe the output of 'git diff' or 'diff -u' into "
                     "--diff=-");
    // Empty input is a diff with no changes; text with no file in it (an
    // error message piped in by mistake) would hide every finding.
    llvm::StringRef Text = (*Input)->getBuffer().trim();
    if (Files->empty() && !Text.empty())
      return problem("the diff on standard input names no file (it starts "
                     "with '" +
                     printable(firstLine(Text), 60) +
                     "'); pipe the output of 'git diff' or 'diff -u' into "
                     "--diff=-");
    return resolveDiff(*Files, WorkTree.value_or(Directory.str()));
  }

  if (Source.empty() || Source.starts_with("-"))
    return problem("--diff='" + Source +
                   "' is not a git revision; pass --diff=<rev> such as "
                   "--diff=origin/main, or --diff=- to read a diff from "
                   "standard input");
  if (!llvm::sys::findProgramByName("git"))
    return problem("--diff=" + Source +
                   " needs git, which is not in PATH; install git, or pipe "
                   "a unified diff into --diff=-");
  if (!WorkTree)
    return problem("'" + Directory +
                   "' is not inside a git work tree, so --diff=" + Source +
                   " has nothing to compare; run in the repository, or pipe "
                   "a unified diff into --diff=-");
  std::optional<GitResult> Result =
      runGit({"-C", *WorkTree, "diff", "-U0", "--no-color", "--no-ext-diff",
              "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
              Source.str(), "--"});
  if (!Result)
    return problem("cannot run git for --diff=" + Source +
                   "; check that git works in '" + *WorkTree + "'");
  if (Result->Status != 0)
    return problem("git diff " + Source + " failed in '" + *WorkTree +
                   "': " + firstLine(Result->Err) +
                   "; pass a revision of that repository to --diff");
  llvm::Expected<std::vector<FileDiff>> Files = parseUnifiedDiff(Result->Out);
  if (!Files)
    return problem("cannot read the output of git diff " + Source + " (" +
                   llvm::toString(Files.takeError()) +
                   "); pipe a diff into --diff=- instead");
  return resolveDiff(*Files, *WorkTree);
}

} // namespace gpuguard::output
