//===--- ChangedTranslationUnits.h - Files a diff asks to check -*- C++ -*-===//
///
/// \file
/// With --diff and no files named, the files to check: those the diff
/// changes, and those that include a header it changes, since a header's
/// findings are reported through the translation units that include it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_CHANGEDTRANSLATIONUNITS_H
#define GPUGUARD_DRIVER_CHANGEDTRANSLATIONUNITS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace gpuguard {

/// The changed sources among \p ChangedFiles (absolute paths) and, when a
/// header is among them, the candidate sources that include one, sorted by
/// path. The candidates are the files of \p Database when
/// \p CandidatesFromDatabase (it came from -p), otherwise the sources of
/// the project at \p DiffRoot (what git lists in its work tree). The include
/// directories of a candidate's commands in \p Database, if given, are
/// searched.
std::vector<std::string>
changedTranslationUnits(const std::vector<std::string> &ChangedFiles,
                        llvm::StringRef DiffRoot,
                        const clang::tooling::CompilationDatabase *Database,
                        bool CandidatesFromDatabase);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_CHANGEDTRANSLATIONUNITS_H
