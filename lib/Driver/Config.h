//===--- Config.h - Configuration and output files of a run ----*- C++ -*-===//
///
/// \file
/// The parts of a run that read or write files besides the sources: checking
/// .clang-tidy files up front (so that a malformed one stops only the files
/// it governs, with one clear line), spotting Checks globs that match no
/// check, and writing --export-fixes atomically.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_CONFIG_H
#define GPUGUARD_DRIVER_CONFIG_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace gpuguard {

/// Parses configuration YAML; the error names \p Source, line and column.
llvm::Expected<clang::tidy::ClangTidyOptions>
parseConfigText(llvm::StringRef Text, llvm::StringRef Source);

/// Reads the .clang-tidy files that govern a source file, nearest first, the
/// way clang-tidy does (following InheritParentConfig), and remembers each
/// directory's verdict.
class ConfigValidator {
public:
  /// A one-line description of the first unreadable or malformed
  /// configuration file governing \p AbsolutePath, if there is one.
  std::optional<std::string> validateFor(llvm::StringRef AbsolutePath);

private:
  std::optional<std::string> validateDirectory(llvm::StringRef Directory);
  llvm::StringMap<std::optional<std::string>> Verdicts;
};

/// The positive globs of \p Checks that match none of \p Known.
std::vector<std::string> unknownCheckGlobs(llvm::StringRef Checks,
                                           const llvm::StringSet<> &Known);

/// Writes the findings and fixes as YAML for clang-apply-replacements, to a
/// temporary file renamed over \p Path, so that \p Path is whole or untouched.
/// Reports and returns false on failure.
bool writeExportedFixes(llvm::StringRef Path, llvm::StringRef MainFile,
                        const std::vector<clang::tidy::ClangTidyError> &Errors);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_CONFIG_H
