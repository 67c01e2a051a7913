//===--- Sarif.h - SARIF 2.1.0 output ---------------------------*- C++ -*-===//
///
/// \file
/// `--format=sarif` writes one SARIF 2.1.0 log with one run, the format code
/// scanning services (GitHub, GitLab, Azure DevOps) and IDE viewers read.
/// Each check is a rule that carries its help from the check's docs page and
/// links to the page under the docs URL when one is given; each finding in
/// the project is a result with its location relative to the project root
/// (uriBaseId %SRCROOT%), its notes as related locations, its fixes, and a
/// fingerprint that survives edits elsewhere in the file. Findings outside
/// the root, and inputs not analysed, are notifications of the invocation.
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

/// The most results GitHub code scanning accepts in one run; a log with
/// more is rejected whole.
constexpr size_t MaxSarifResults = 25000;

/// Writes the log of \p Findings, in the order given, with a rule for each
/// of \p RuleIds and for each check that reported. Each of \p Unanalysed is
/// an error notification of the run's invocation, which then did not
/// succeed. Findings outside the project root or without a file are
/// notifications too, and past MaxSarifResults results the rest (warnings
/// before errors) are left out and counted in a notification.
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

/// The first sentence of \p Paragraph, for a rule's shortDescription.
std::string firstSentence(llvm::StringRef Paragraph);

/// A rule's help in Markdown from a check's docs page \p Page, found at
/// \p PagePath under the docs: the first paragraph and the sections "Why it
/// matters", "Example" and "Suppressing a finding". Links relative to the
/// page point under \p DocsUrl, or, when it is empty, become their text.
std::string helpFromPage(llvm::StringRef Page, llvm::StringRef DocsUrl,
                         llvm::StringRef PagePath);

/// The help of \p Check's rule (see helpFromPage); empty for compiler
/// diagnostics.
std::string checkHelpMarkdown(llvm::StringRef DocsUrl, llvm::StringRef Check);

/// One sentence saying what \p Check flags, from its docs page.
std::string checkSummary(llvm::StringRef Check);

/// How sure \p Check is in the default profile, from its docs page's
/// `Precision:` line (CodeQL's levels: very-high, high, medium, low); empty
/// for compiler diagnostics.
llvm::StringRef checkPrecision(llvm::StringRef Check);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_SARIF_H
