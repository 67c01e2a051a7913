//===--- Baseline.h - Findings accepted for now -----------------*- C++ -*-===//
///
/// \file
/// A baseline file lists the findings a project has accepted for now, so
/// that a CI run fails only on new ones. Each entry is keyed by the
/// finding's fingerprint (Fingerprint.h) and keeps the check, the relative
/// path and the message for the people reading it. An entry hides one
/// finding: two equal entries hide two.
///
/// The file is JSON:
///   {"format": "gpuguard-baseline", "formatVersion": 1,
///    "gpuguardVersion": "0.1.0",
///    "findings": [{"fingerprint": "...", "check": "...", "path": "...",
///                  "message": "..."}]}
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_BASELINE_H
#define GPUGUARD_OUTPUT_BASELINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace gpuguard::output {

/// Bumped whenever an older gpuguard could misread the file, including a
/// change to how fingerprints are computed.
inline constexpr unsigned BaselineFormatVersion = 1;

struct BaselineEntry {
  std::string Fingerprint;
  std::string Check;
  std::string Path;
  std::string Message;
};

class Baseline {
public:
  /// Reads \p Path. The error is one line naming the file and how to
  /// regenerate it.
  static llvm::Expected<Baseline> read(llvm::StringRef Path);
  /// Parses \p Text; \p Path names it in errors.
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Path);

  /// True, and one fewer left, when an entry with \p Fingerprint is left.
  bool consume(llvm::StringRef Fingerprint);

private:
  llvm::StringMap<unsigned> Remaining;
};

/// The baseline file of \p Entries, sorted by path, check, fingerprint and
/// message, so that regenerating it changes only what changed.
std::string renderBaseline(std::vector<BaselineEntry> Entries,
                           llvm::StringRef ToolVersion);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_BASELINE_H
