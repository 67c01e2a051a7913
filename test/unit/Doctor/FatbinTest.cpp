//===--- FatbinTest.cpp ---------------------------------------------------===//
//
// Fat binaries built byte by byte: entries of both kinds across two fat
// binaries with padding between, and the malformed ones refused.
//
//===----------------------------------------------------------------------===//

#include "Doctor/Fatbin.h"
#include "llvm/Support/Endian.h"
#include "gtest/gtest.h"
#include <string>

using namespace gpuguard::doctor;

namespace {

void put16(std::string &Bytes, uint16_t V) {
  char Buffer[2];
  llvm::support::endian::write16le(Buffer, V);
  Bytes.append(Buffer, 2);
}
void put32(std::string &Bytes, uint32_t V) {
  char Buffer[4];
  llvm::support::endian::write32le(Buffer, V);
  Bytes.append(Buffer, 4);
}
void put64(std::string &Bytes, uint64_t V) {
  char Buffer[8];
  llvm::support::endian::write64le(Buffer, V);
  Bytes.append(Buffer, 8);
}

/// One entry: a 64-byte header (kind, version, header size, payload size,
/// ..., the architecture at offset 28) and its payload.
std::string entry(uint16_t Kind, uint32_t Arch, size_t Payload) {
  std::string Bytes;
  put16(Bytes, Kind);
  put16(Bytes, 0x101);
  put32(Bytes, 64);
  put64(Bytes, Payload);
  put64(Bytes, 0);
  put32(Bytes, 0x00010008);
  put32(Bytes, Arch);
  Bytes.resize(64, '\0');
  Bytes.append(Payload, 'x');
  return Bytes;
}

std::string fatbin(const std::string &Entries) {
  std::string Bytes;
  put32(Bytes, 0xBA55ED50);
  put16(Bytes, 1);
  put16(Bytes, 16);
  put64(Bytes, Entries.size());
  return Bytes + Entries;
}

TEST(FatbinTest, EntriesOfEveryFatBinary) {
  std::string Section = fatbin(entry(2, 80, 13) + entry(2, 90, 8));
  Section.resize((Section.size() + 7) & ~size_t(7), '\0');
  Section += fatbin(entry(1, 90, 24));
  Section.append(8, '\0');
  llvm::Expected<std::vector<EmbeddedCode>> Codes = parseFatbins(Section);
  ASSERT_TRUE(bool(Codes)) << llvm::toString(Codes.takeError());
  ASSERT_EQ(Codes->size(), 3u);
  EXPECT_EQ(archName((*Codes)[0]), "sm_80");
  EXPECT_EQ(archName((*Codes)[1]), "sm_90");
  EXPECT_EQ(archName((*Codes)[2]), "compute_90");
}

TEST(FatbinTest, MalformedBytesAreRefused) {
  llvm::Expected<std::vector<EmbeddedCode>> NoMagic =
      parseFatbins(std::string(24, 'z'));
  EXPECT_FALSE(bool(NoMagic));
  llvm::consumeError(NoMagic.takeError());

  std::string Truncated = fatbin(entry(2, 80, 100));
  Truncated.resize(Truncated.size() - 50);
  llvm::Expected<std::vector<EmbeddedCode>> Short = parseFatbins(Truncated);
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(llvm::toString(Short.takeError()).find("runs past"),
            std::string::npos);

  llvm::Expected<std::vector<EmbeddedCode>> Empty = parseFatbins("");
  ASSERT_TRUE(bool(Empty));
  EXPECT_TRUE(Empty->empty());
}

} // namespace
