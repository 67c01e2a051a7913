//===--- SourceFiles.h - Byte offsets to lines and columns ------*- C++ -*-===//
///
/// \file
/// clang-tidy reports a finding as a file and a byte offset. The output
/// formats want a line, a column and the line's text; this reads each file
/// once and answers from its line table.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_SOURCEFILES_H
#define GPUGUARD_OUTPUT_SOURCEFILES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <optional>
#include <vector>

namespace gpuguard::output {

struct TextPosition {
  /// 1-based.
  unsigned Line = 0;
  /// 1-based, in Unicode code points (a UTF-8 continuation byte does not
  /// start a column).
  unsigned Column = 0;
  /// The whole line, without its line break.
  llvm::StringRef LineText;
};

class SourceFiles {
public:
  /// Where \p Offset falls in \p Path; nullopt when the file cannot be read
  /// or is shorter than the offset.
  std::optional<TextPosition> locate(llvm::StringRef Path, unsigned Offset);

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    /// Offset of the first byte of each line.
    std::vector<unsigned> LineStarts;
  };
  const File *load(llvm::StringRef Path);

  llvm::StringMap<std::unique_ptr<File>> Files;
};

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_SOURCEFILES_H
