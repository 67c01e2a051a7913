//===--- SourceFiles.cpp - Byte offsets to lines and columns --------------===//

#include "Output/SourceFiles.h"
#include <algorithm>

namespace gpuguard::output {

const SourceFiles::File *SourceFiles::load(llvm::StringRef Path) {
  auto [It, Inserted] = Files.try_emplace(Path);
  if (!Inserted)
    return It->second.get();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return nullptr;
  auto Loaded = std::make_unique<File>();
  Loaded->Buffer = std::move(*Buffer);
  llvm::StringRef Text = Loaded->Buffer->getBuffer();
  Loaded->LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Loaded->LineStarts.push_back(I + 1);
  It->second = std::move(Loaded);
  return It->second.get();
}

std::optional<TextPosition> SourceFiles::locate(llvm::StringRef Path,
                                                unsigned Offset) {
  const File *Source = load(Path);
  if (!Source)
    return std::nullopt;
  llvm::StringRef Text = Source->Buffer->getBuffer();
  if (Offset > Text.size())
    return std::nullopt;
  auto Next = std::upper_bound(Source->LineStarts.begin(),
                               Source->LineStarts.end(), Offset);
  unsigned LineIndex = std::distance(Source->LineStarts.begin(), Next) - 1;
  unsigned Start = Source->LineStarts[LineIndex];
  TextPosition Position;
  Position.Line = LineIndex + 1;
  Position.Column = 1;
  for (char C : Text.slice(Start, Offset))
    if ((static_cast<unsigned char>(C) & 0xC0) != 0x80)
      ++Position.Column;
  size_t End = Text.find('\n', Start);
  Position.LineText = Text.slice(Start, End);
  Position.LineText.consume_back("\r");
  return Position;
}

} // namespace gpuguard::output
