//===--- ContentHashTest.cpp - Names for bytes ----------------------------===//

#include "Support/ContentHash.h"
#include "gtest/gtest.h"

using namespace gpuguard::support;

namespace {

TEST(ContentHashTest, NamesBytesWith32HexDigits) {
  std::string Empty = contentHash("");
  EXPECT_EQ(Empty.size(), 32u);
  EXPECT_EQ(Empty.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(contentHash("kernel"), contentHash(std::string("kernel")));
  EXPECT_NE(contentHash("kernel"), contentHash("kernel "));
  EXPECT_NE(contentHash("a"), Empty);
}

TEST(ContentHashTest, RecognisesItsOwnShape) {
  EXPECT_TRUE(isContentHash(contentHash("kernel")));
  EXPECT_FALSE(isContentHash("0123456789abcdef"));
  EXPECT_FALSE(isContentHash(contentHash("kernel") + ".pch"));
  EXPECT_FALSE(isContentHash("g123456789abcdef0123456789abcdef"));
}

} // namespace
