//===--- CacheEvictionTest.cpp - Caches kept under a size -----------------===//

#include "Support/CacheEviction.h"
#include "TemporaryDirectoryTest.h"
#include "gtest/gtest.h"
#include <chrono>

using namespace gpuguard::support;

namespace {

class CacheEvictionTest : public gpuguard::test::TemporaryDirectoryTest {
protected:
  /// An item of \p Files, 100 bytes, used \p MinutesAgo.
  CachedItem item(std::vector<std::string> Names, int MinutesAgo) {
    CachedItem Item;
    for (const std::string &Name : Names)
      Item.Files.push_back(write(Name, "x"));
    Item.Bytes = 100;
    Item.Used =
        std::chrono::system_clock::now() - std::chrono::minutes(MinutesAgo);
    return Item;
  }
  bool exists(llvm::StringRef Name) {
    return llvm::sys::fs::exists(path(Name));
  }
};

TEST_F(CacheEvictionTest, NothingGoesUnderTheLimit) {
  evictLeastRecentlyUsed({item({"a"}, 3), item({"b"}, 2)}, 200);
  EXPECT_TRUE(exists("a"));
  EXPECT_TRUE(exists("b"));
}

TEST_F(CacheEvictionTest, OldestGoFirstDownToThreeQuarters) {
  // 400 bytes over a limit of 300: down to 225, so two items go.
  evictLeastRecentlyUsed({item({"new"}, 1), item({"old.entry", "old.pch"}, 9),
                          item({"middle"}, 5), item({"older"}, 7)},
                         300);
  EXPECT_FALSE(exists("old.entry"));
  EXPECT_FALSE(exists("old.pch"));
  EXPECT_FALSE(exists("older"));
  EXPECT_TRUE(exists("middle"));
  EXPECT_TRUE(exists("new"));
}

TEST_F(CacheEvictionTest, KeepsTheItemJustStored) {
  std::vector<CachedItem> Items = {item({"kept"}, 9), item({"other"}, 5),
                                   item({"newest"}, 1)};
  evictLeastRecentlyUsed(Items, 150, path("kept"));
  EXPECT_TRUE(exists("kept"));
  EXPECT_FALSE(exists("other"));
  EXPECT_FALSE(exists("newest"));
}

} // namespace
