//===--- MessagesTest.cpp -------------------------------------------------===//
//
// gpuguard's own messages stay one readable line whatever text they quote.
//
//===----------------------------------------------------------------------===//

#include "Driver/Messages.h"
#include "gtest/gtest.h"

using namespace gpuguard;

namespace {

TEST(MessagesTest, ControlCharactersAreEscaped) {
  EXPECT_EQ(escapeControlCharacters(llvm::StringRef("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(escapeControlCharacters("line\nnext\r\x1b[31m\x7f"),
            "line\\x0anext\\x0d\\x1b[31m\\x7f");
  // Tabs, printable text and UTF-8 are kept as they are.
  EXPECT_EQ(escapeControlCharacters("k.cu:\t'é' ok"), "k.cu:\t'é' ok");
}

} // namespace
