//===--- UnifiedDiff.h - The lines a unified diff adds ----------*- C++ -*-===//
///
/// \file
/// `--diff` keeps the findings on lines a change added or modified. This
/// reads those lines from a unified diff: `git diff` output (with or without
/// its a/ and b/ prefixes, renames, new, deleted and binary files) or that
/// of `diff -u`, with hunk headers whose line counts are left out and "\ No
/// newline at end of file" markers. Removed lines have no place in the new
/// file, so a hunk that only removes lines adds nothing.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_UNIFIEDDIFF_H
#define GPUGUARD_OUTPUT_UNIFIEDDIFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace gpuguard::output {

/// Lines First to Last of the new file, both included, 1-based.
struct LineRange {
  unsigned First = 0;
  unsigned Last = 0;
  bool operator==(const LineRange &Other) const {
    return First == Other.First && Last == Other.Last;
  }
};

/// One file of a diff. Paths are as the diff names them, without git's
/// "a/" and "b/" prefixes; an empty NewPath means the file was deleted and
/// an empty OldPath that it was created.
struct FileDiff {
  std::string OldPath;
  std::string NewPath;
  bool Binary = false;
  /// Added or modified lines of the new file, sorted and merged.
  std::vector<LineRange> AddedLines;
};

/// Reads \p Text; fails on a malformed hunk (its header, or a hunk with
/// fewer lines than its header counts), naming the line.
llvm::Expected<std::vector<FileDiff>> parseUnifiedDiff(llvm::StringRef Text);

/// The added lines of a diff by absolute path.
class ChangedLines {
public:
  void add(llvm::StringRef AbsolutePath, llvm::ArrayRef<LineRange> Lines);
  bool contains(llvm::StringRef AbsolutePath, unsigned Line) const;
  /// Every file with at least one added line, sorted.
  std::vector<std::string> files() const;

private:
  llvm::StringMap<std::vector<LineRange>> Ranges;
};

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_UNIFIEDDIFF_H
