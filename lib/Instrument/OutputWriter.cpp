//===--- OutputWriter.cpp - Where instrumented copies go ------------------===//

#include "Instrument/OutputWriter.h"
#include "Support/AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace gpuguard::instrument {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::optional<std::string> prepareOutputDirectory(llvm::StringRef Directory) {
  if (Directory.empty())
    return std::string("no output directory; pass -o <dir> for the "
                       "instrumented copies");
  fs::file_status Status;
  if (!fs::status(Directory, Status) && !fs::is_directory(Status))
    return "output directory '" + Directory.str() +
           "' exists and is not a directory; remove it or pass another -o";
  // Prove it can be created and written now rather than after the first
  // file's analysis, then remove what was created: the copies create it
  // again, so a run that writes no copy leaves no empty directory.
  std::vector<std::string> Created; // The deepest first.
  for (llvm::StringRef Dir = Directory; !Dir.empty() && !fs::exists(Dir);
       Dir = path::parent_path(Dir))
    Created.push_back(Dir.str());
  auto RemoveCreated = [&Created] {
    for (const std::string &Dir : Created)
      fs::remove(Dir);
  };
  if (std::error_code EC = fs::create_directories(Directory)) {
    RemoveCreated();
    return "cannot create output directory '" + Directory.str() +
           "': " + EC.message() + "; pass a writable -o";
  }
  llvm::SmallString<256> Probe;
  int FD = -1;
  if (std::error_code EC = fs::createUniqueFile(
          Directory + "/.gpuguard-probe-%%%%%%", FD, Probe)) {
    RemoveCreated();
    return "cannot write to output directory '" + Directory.str() +
           "': " + EC.message() + "; pass a writable -o";
  }
  fs::closeFile(FD);
  fs::remove(Probe);
  RemoveCreated();
  return std::nullopt;
}

std::string mirroredPath(llvm::StringRef Directory, llvm::StringRef Source) {
  llvm::SmallString<256> Absolute(Source);
  fs::make_absolute(Absolute);
  path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  llvm::StringRef Relative = path::relative_path(Absolute);
  llvm::SmallString<256> Result(Directory);
  path::append(Result, Relative);
  return std::string(Result);
}

/// \p Path with every symbolic link resolved, for a path that may not exist
/// yet: its deepest existing ancestor resolved, the rest appended.
static std::string resolvedPath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  fs::make_absolute(Absolute);
  path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  llvm::StringRef Existing = Absolute;
  while (!Existing.empty() && !fs::exists(Existing))
    Existing = path::parent_path(Existing);
  llvm::SmallString<256> Real;
  if (Existing.empty() || fs::real_path(Existing, Real))
    return std::string(Absolute);
  llvm::StringRef Rest = Absolute.str().substr(Existing.size());
  if (!Rest.empty())
    path::append(Real, Rest);
  return std::string(Real);
}

static bool isWithin(llvm::StringRef Path, llvm::StringRef Directory) {
  if (Directory == "/")
    return true;
  return Path.starts_with(Directory) &&
         (Path.size() == Directory.size() ||
          path::is_separator(Path[Directory.size()]));
}

std::optional<std::string> refuseTarget(llvm::StringRef Directory,
                                        llvm::StringRef Source,
                                        llvm::StringRef Target) {
  std::string RealTarget = resolvedPath(Target);
  std::string RealSource = resolvedPath(Source);
  if (RealTarget == RealSource || fs::equivalent(Target, Source))
    return "refusing to write the instrumented copy of '" + Source.str() +
           "' over the file itself ('" + Target.str() +
           "'); pass an output directory other than '" + Directory.str() +
           "' with -o";
  std::string RealDirectory = resolvedPath(Directory);
  if (!isWithin(RealTarget, RealDirectory))
    return "refusing to write the instrumented copy of '" + Source.str() +
           "' to '" + RealTarget + "': a symbolic link in '" + Directory.str() +
           "' leads out of the output directory; remove the link or pass "
           "another -o";
  return std::nullopt;
}

std::optional<std::string> writeAtomically(llvm::StringRef Path,
                                           llvm::StringRef Text) {
  llvm::StringRef Parent = path::parent_path(Path);
  if (std::error_code EC = fs::create_directories(Parent))
    return "cannot create '" + Parent.str() + "': " + EC.message() +
           "; a file in the output directory may be in the way, remove it";
  if (!fs::is_directory(Parent))
    return "cannot write '" + Path.str() + "': '" + Parent.str() +
           "' is a file; a file in the output directory is in the way, "
           "remove it";
  support::AtomicWriteStep Failed;
  std::error_code EC = support::writeAtomically(Path, Text, &Failed);
  if (!EC)
    return std::nullopt;
  std::string Problem = "cannot write '" + Path.str() + "': " + EC.message();
  switch (Failed) {
  case support::AtomicWriteStep::CreateTemporary:
    return Problem + "; pass a writable -o";
  case support::AtomicWriteStep::Write:
    return Problem + "; check the space left in the output directory";
  case support::AtomicWriteStep::Rename:
    return Problem + "; a directory in the output directory may be in the way";
  }
  llvm_unreachable("every step is named");
}

} // namespace gpuguard::instrument
