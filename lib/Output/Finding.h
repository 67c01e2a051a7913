//===--- Finding.h - A finding as the output formats see it -----*- C++ -*-===//
///
/// \file
/// The output formats, baselines and diff filters work on findings with
/// their positions resolved to lines and columns and their paths made
/// relative to the project root, rather than on clang-tidy's byte offsets.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_FINDING_H
#define GPUGUARD_OUTPUT_FINDING_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::output {

/// A place in a source file. A default Location names no file.
struct Location {
  /// Absolute path; empty when the diagnostic has no file.
  std::string Path;
  /// '/'-separated path relative to the project root, or the absolute path
  /// when the file lies outside the root.
  std::string RelativePath;
  bool InsideRoot = false;
  /// 1-based; 0 when the file could not be read.
  unsigned Line = 0;
  /// 1-based, in Unicode code points.
  unsigned Column = 0;

  bool hasFile() const { return !Path.empty(); }
};

struct Note {
  std::string Message;
  Location Where;
};

/// An input the run could not analyse (a crash, compile errors), with why:
/// its findings are missing or incomplete, which a reader of the output
/// must see as plainly as the findings themselves.
struct NotAnalysed {
  std::string Message;
  Location Where;
};

/// One replacement of a fix: the text between Begin and End becomes Text.
struct Edit {
  Location Begin;
  Location End;
  std::string Text;
};

struct Finding {
  /// The check's name, or clang-diagnostic-<kind> for compiler diagnostics.
  std::string Check;
  std::string Message;
  /// An error (compile error, or a warning promoted by
  /// --warnings-as-errors) rather than a warning.
  bool IsError = false;
  Location Where;
  std::vector<Note> Notes;
  std::vector<Edit> Fixes;
  /// See Fingerprint.h; empty when the finding has no file.
  std::string Fingerprint;
};

/// Orders findings by file, line, column, check and message: the order of
/// every machine-readable output.
bool reportedBefore(const Finding &A, const Finding &B);

/// \p Path relative to \p Root, '/'-separated, when it lies inside it
/// (directly, or once symbolic links are resolved); both are absolute.
std::optional<std::string> pathInside(llvm::StringRef Path,
                                      llvm::StringRef Root);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_FINDING_H
