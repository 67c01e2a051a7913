//===--- ChangedTranslationUnits.cpp - Files a diff asks to check ---------===//

#include "Driver/ChangedTranslationUnits.h"
#include "Driver/InputSelection.h"
#include "Driver/Paths.h"
#include "Frontend/IncludeScan.h"
#include "Output/DiffSource.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"

using namespace clang::tooling;

namespace gpuguard {

std::vector<std::string> changedTranslationUnits(
    const std::vector<std::string> &ChangedFiles, llvm::StringRef DiffRoot,
    const CompilationDatabase *Database, bool CandidatesFromDatabase) {
  std::vector<std::string> Units, Headers;
  for (const std::string &File : ChangedFiles) {
    if (isCheckableSource(File))
      Units.push_back(File);
    // A changed `.cuh` is checked itself and through its includers.
    if (frontend::isHeaderPath(File))
      Headers.push_back(File);
  }
  if (Headers.empty())
    return Units;
  std::vector<std::string> Candidates;
  if (Database && CandidatesFromDatabase)
    Candidates = Database->getAllFiles();
  if (Candidates.empty())
    Candidates = output::projectFiles(DiffRoot);
  auto RealPath = [](llvm::StringRef Path) {
    llvm::SmallString<256> Real;
    return llvm::sys::fs::real_path(Path, Real) ? makeAbsolute(Path)
                                                : std::string(Real);
  };
  llvm::StringSet<> Chosen;
  for (const std::string &Unit : Units)
    Chosen.insert(RealPath(Unit));
  frontend::IncluderFinder Finder(Headers);
  for (const std::string &Candidate : Candidates) {
    if (!isCheckableSource(Candidate) ||
        !llvm::sys::fs::is_regular_file(Candidate) ||
        Chosen.contains(RealPath(Candidate)))
      continue;
    std::vector<std::string> SearchDirs;
    if (Database)
      for (const CompileCommand &Command :
           Database->getCompileCommands(Candidate))
        llvm::append_range(SearchDirs, frontend::includeSearchDirs(Command));
    if (Finder.includesMatch(Candidate, SearchDirs)) {
      Chosen.insert(RealPath(Candidate));
      Units.push_back(Candidate);
    }
  }
  llvm::sort(Units);
  return Units;
}

} // namespace gpuguard
