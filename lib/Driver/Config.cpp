//===--- Config.cpp - Configuration and output files of a run -------------===//

#include "Driver/Config.h"
#include "Driver/Messages.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang::tidy;

namespace gpuguard {

llvm::Expected<ClangTidyOptions> parseConfigText(llvm::StringRef Text,
                                                 llvm::StringRef Source) {
  std::string FirstProblem;
  auto Parsed = parseConfigurationWithDiags(
      llvm::MemoryBufferRef(Text, Source), [&](const llvm::SMDiagnostic &D) {
        if (!FirstProblem.empty() || D.getKind() != llvm::SourceMgr::DK_Error)
          return;
        FirstProblem =
            (llvm::Twine(D.getLineNo()) + ":" +
             llvm::Twine(D.getColumnNo() + 1) + ": " + D.getMessage())
                .str();
      });
  if (Parsed)
    return std::move(*Parsed);
  if (FirstProblem.empty())
    FirstProblem = Parsed.getError().message();
  return llvm::createStringError("malformed configuration in '" + Source +
                                 "': " + FirstProblem);
}

std::optional<std::string>
ConfigValidator::validateDirectory(llvm::StringRef Directory) {
  auto Known = Verdicts.find(Directory);
  if (Known != Verdicts.end())
    return Known->second;
  std::optional<std::string> Verdict;
  llvm::SmallString<256> ConfigPath(Directory);
  llvm::sys::path::append(ConfigPath, ".clang-tidy");
  bool InheritParent = true;
  if (llvm::sys::fs::exists(ConfigPath)) {
    auto Buffer = llvm::MemoryBuffer::getFile(ConfigPath);
    if (!Buffer) {
      Verdict = "cannot read '" + std::string(ConfigPath) +
                "': " + Buffer.getError().message();
    } else if (auto Parsed =
                   parseConfigText((*Buffer)->getBuffer(), ConfigPath)) {
      InheritParent = Parsed->InheritParentConfig.value_or(false);
    } else {
      Verdict = llvm::toString(Parsed.takeError());
    }
  }
  llvm::StringRef Parent = llvm::sys::path::parent_path(Directory);
  if (!Verdict && InheritParent && !Parent.empty() && Parent != Directory)
    Verdict = validateDirectory(Parent);
  Verdicts[Directory] = Verdict;
  return Verdict;
}

std::optional<std::string>
ConfigValidator::validateFor(llvm::StringRef AbsolutePath) {
  return validateDirectory(llvm::sys::path::parent_path(AbsolutePath));
}

std::vector<std::string> unknownCheckGlobs(llvm::StringRef Checks,
                                           const llvm::StringSet<> &Known) {
  std::vector<std::string> Unknown;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Checks.split(Items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty() || Item.starts_with("-") ||
        Item.starts_with("clang-diagnostic-") || Item == "*")
      continue;
    GlobList Glob(Item);
    if (llvm::none_of(Known.keys(), [&](llvm::StringRef Name) {
          return Glob.contains(Name);
        }))
      Unknown.push_back(Item.str());
  }
  return Unknown;
}

bool writeExportedFixes(llvm::StringRef Path, llvm::StringRef MainFile,
                        const std::vector<ClangTidyError> &Errors) {
  llvm::SmallString<256> Temporary;
  int FD = -1;
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Model, FD, Temporary)) {
    error("cannot write --export-fixes file '" + Path + "': " + EC.message() +
          "; choose a writable path");
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    exportReplacements(MainFile, Errors, OS);
    OS.close();
    if (OS.has_error()) {
      llvm::sys::fs::remove(Temporary);
      error("cannot write --export-fixes file '" + Path +
            "': " + OS.error().message() + "; choose a writable path");
      OS.clear_error();
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    error("cannot write --export-fixes file '" + Path + "': " + EC.message() +
          "; choose a writable path");
    return false;
  }
  return true;
}

} // namespace gpuguard
