//===--- Fatbin.cpp - The GPU code a CUDA binary carries ------------------===//

#include "Doctor/Fatbin.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace gpuguard::doctor {

namespace {

constexpr uint32_t FatbinMagic = 0xBA55ED50;
constexpr size_t FatbinHeaderSize = 16;
constexpr size_t EntryHeaderMinimum = 32;
constexpr uint16_t PtxEntry = 1, ElfEntry = 2;

uint16_t read16(StringRef Bytes, size_t At) {
  return support::endian::read16le(Bytes.data() + At);
}
uint32_t read32(StringRef Bytes, size_t At) {
  return support::endian::read32le(Bytes.data() + At);
}
uint64_t read64(StringRef Bytes, size_t At) {
  return support::endian::read64le(Bytes.data() + At);
}

Error malformed(size_t At, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "malformed fat binary at offset " + Twine(At) +
                               ": " + What);
}

} // namespace

Expected<std::vector<EmbeddedCode>> parseFatbins(StringRef Section) {
  std::vector<EmbeddedCode> Codes;
  size_t Offset = 0;
  while (Offset + FatbinHeaderSize <= Section.size()) {
    if (read32(Section, Offset) != FatbinMagic) {
      // Fat binaries are 8-byte aligned; the rest is padding.
      if (Section.substr(Offset).find_first_not_of('\0') == StringRef::npos)
        break;
      return malformed(Offset, "no fat binary magic");
    }
    uint16_t HeaderSize = read16(Section, Offset + 6);
    uint64_t FatSize = read64(Section, Offset + 8);
    if (HeaderSize < FatbinHeaderSize ||
        FatSize > Section.size() - Offset - HeaderSize)
      return malformed(Offset, "its size runs past the section");
    size_t Entry = Offset + HeaderSize;
    size_t End = Entry + FatSize;
    while (Entry + EntryHeaderMinimum <= End) {
      uint16_t Kind = read16(Section, Entry);
      uint32_t EntryHeaderSize = read32(Section, Entry + 4);
      uint64_t PayloadSize = read64(Section, Entry + 8);
      if (EntryHeaderSize < EntryHeaderMinimum ||
          EntryHeaderSize > End - Entry ||
          PayloadSize > End - Entry - EntryHeaderSize)
        return malformed(Entry, "an entry runs past its fat binary");
      uint32_t Arch = read32(Section, Entry + 28);
      if (Kind == ElfEntry || Kind == PtxEntry)
        Codes.push_back(
            {Kind == ElfEntry ? EmbeddedCode::Sass : EmbeddedCode::Ptx, Arch});
      Entry += EntryHeaderSize + PayloadSize;
    }
    Offset = alignTo(End, 8);
  }
  return Codes;
}

std::string archName(const EmbeddedCode &Code) {
  return (Code.Kind == EmbeddedCode::Sass ? "sm_" : "compute_") +
         std::to_string(Code.Arch);
}

} // namespace gpuguard::doctor
