//===--- Sarif.h - SARIF 2.1.0 output ----------------------------*- C++
//-*-===//
///
/// \file
/// `--format=sarif` writes one SARIF 2.1.0 log with one run, the format code
/// scanning services (GitHub, GitLab, Azure DevOps) and IDE viewers read.
/// Each check is a rule whose help links to its page under the docs URL;
/// each finding is a result with its location relative to the project root
/// (uriBaseId %SRCROOT%), its notes as related locations, its fixes, and a
/// fingerprint that survives edits elsewhere in the file.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_SARIF_H
#define GPUGUARD_OUTPUT_SARIF_H

#include "Output/Finding.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace gpuguard::output {

struct SarifTool {
  std::string Version;
  /// Base URL of the docs directory, ending in '/'.
  std::string DocsUrl;
  /// Absolute path the relative paths of the findings start from.
  std::string ProjectRoot;
};

/// Writes the log of \p Findings, in the order given, with a rule for each
/// of \p RuleIds and for each check that reported. Each of \p Unanalysed is
/// an error notification of the run's invocation, which then did not
/// succeed.
void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings,
                llvm::ArrayRef<std::string> RuleIds, const SarifTool &Tool,
                llvm::ArrayRef<NotAnalysed> Unanalysed = {});

/// \p Path with every byte outside RFC 3986's unreserved characters and '/'
/// percent-encoded.
std::string percentEncodePath(llvm::StringRef Path);

/// "file:///..." for an absolute path.
std::string fileUri(llvm::StringRef AbsolutePath);

/// The docs page of \p Check under \p DocsUrl
/// (`checks/<module>/<check>.md`); empty for compiler diagnostics.
std::string checkDocsUrl(llvm::StringRef DocsUrl, llvm::StringRef Check);

/// One sentence saying what \p Check flags, from its docs page.
std::string checkSummary(llvm::StringRef Check);

/// How sure \p Check is in the default profile, from its docs page's
/// `Precision:` line (CodeQL's levels: very-high, high, medium, low); empty
/// for compiler diagnostics.
llvm::StringRef checkPrecision(llvm::StringRef Check);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_SARIF_H
