//===--- Reporter.h - What happens to each file's findings ------*- C++ -*-===//
///
/// \file
/// The driver hands each checked file's findings to the Reporter, which
/// keeps those the run should report and writes the machine-readable
/// outputs at the end:
/// - with --diff, only findings on lines the diff added or changed;
/// - with --baseline, not those the baseline lists (counting repeats);
/// - with --write-baseline, every finding before the baseline filter goes
///   to the new baseline;
/// - with --format=sarif or github, the findings are collected and written
///   once, sorted, to standard output or atomically to --output.
/// The text format stays clang-tidy's own, printed by the driver. Compile
/// errors are never hidden and never enter a baseline: they say that a file
/// was not fully checked.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_REPORTER_H
#define GPUGUARD_OUTPUT_REPORTER_H

#include "Output/Baseline.h"
#include "Output/DiffSource.h"
#include "Output/Finding.h"
#include "Output/Fingerprint.h"
#include "Output/SourceFiles.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuguard::output {

enum class Format { Text, Sarif, GitHub };

struct ReporterOptions {
  Format OutputFormat = Format::Text;
  /// Where SARIF or GitHub output goes; empty for standard output.
  std::string OutputPath;
  /// Paths in every output and in baselines are relative to it. Empty for
  /// the working directory.
  std::string ProjectRoot;
  /// Base URL of the docs for SARIF's helpUri and informationUri; empty for
  /// none (the rules carry their help text either way).
  std::string DocsUrl;
  std::string ToolVersion;
  std::string BaselinePath;
  std::string WriteBaselinePath;
  /// --diff's value ("-" or a git revision); empty without --diff.
  std::string DiffSource;
  /// Where the git work tree of the inputs is looked for, and what the
  /// diff's paths are relative to outside one; empty for the working
  /// directory.
  std::string DiffDirectory;
  /// argv[0], to find the installed docs.
  const char *Argv0 = "gpuguard";
};

class Reporter {
public:
  using MessageSink = std::function<void(const llvm::Twine &)>;

  /// Reads the baseline and the diff, before any file is checked. The error
  /// is one line naming the file or option and the fix. \p Warn receives a
  /// line for each file the diff names outside the project.
  static llvm::Expected<std::unique_ptr<Reporter>>
  create(ReporterOptions Options, const MessageSink &Warn);

  /// Whether the driver prints the findings as clang-tidy text.
  bool printsText() const { return Options.OutputFormat == Format::Text; }
  /// Where a reader finds the diagnostics this run printed: "shown above",
  /// or the SARIF or GitHub output.
  std::string whereDiagnosticsGo() const {
    if (printsText())
      return "shown above";
    std::string Kind =
        Options.OutputFormat == Format::Sarif ? "SARIF" : "GitHub annotations";
    return Options.OutputPath.empty()
               ? "in the " + Kind + " on standard output"
               : "in the " + Kind + " in '" + Options.OutputPath + "'";
  }
  /// Whether the rules of the output list the enabled checks, so that the
  /// driver should call noteEnabledChecks.
  bool wantsEnabledChecks() const {
    return Options.OutputFormat == Format::Sarif;
  }
  bool hasDiff() const { return Diff.has_value(); }
  /// The existing files the diff added lines to, sorted.
  std::vector<std::string> changedFiles() const;
  /// The directory the diff's paths are relative to; empty without --diff.
  std::string diffRoot() const { return Diff ? Diff->ProjectRoot : ""; }

  /// Takes one checked file's findings and returns those to report, in
  /// their order. A finding already taken from another file (in a header
  /// both include) is dropped.
  std::vector<clang::tidy::ClangTidyError>
  take(std::vector<clang::tidy::ClangTidyError> Errors);

  void noteEnabledChecks(llvm::ArrayRef<std::string> Checks);

  /// Records that \p Path was not analysed, or not fully, and why: a
  /// notification in SARIF, an error annotation for GitHub.
  void noteNotAnalysed(llvm::StringRef Path, std::string Message);

  /// Writes the SARIF or GitHub output and the new baseline, and says
  /// through \p Note how many findings the baseline and the diff hid.
  /// Returns a one-line problem for each output file that could not be
  /// written.
  std::vector<std::string> finish(const MessageSink &Note);

private:
  explicit Reporter(ReporterOptions Options) : Options(std::move(Options)) {}
  bool filters() const;
  /// \p Path relative to the project root, without a line.
  Location locateFile(llvm::StringRef Path) const;
  Location locate(llvm::StringRef Path, unsigned Offset,
                  llvm::StringRef *LineText = nullptr);
  std::string render();

  ReporterOptions Options;
  std::optional<Baseline> Accepted;
  std::optional<LoadedDiff> Diff;
  SourceFiles Sources;
  FingerprintNumbering Numbering;
  llvm::StringSet<> Taken;
  llvm::StringMap<std::string> CanonicalPaths;
  std::set<std::string> EnabledChecks;
  std::vector<Finding> Reported;
  std::vector<NotAnalysed> Unanalysed;
  std::vector<BaselineEntry> NewBaseline;
  unsigned HiddenByBaseline = 0;
  unsigned HiddenByDiff = 0;
};

/// How many of \p Errors --warnings-as-errors made errors.
unsigned
countWarningsAsErrors(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_REPORTER_H
