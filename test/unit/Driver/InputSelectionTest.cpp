//===--- InputSelectionTest.cpp -------------------------------------------===//

#include "Driver/InputSelection.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "gtest/gtest.h"
#include <map>

using namespace gpuguard;

namespace {

using Files = std::vector<std::string>;

TEST(InputSelectionTest, CheckableSourcesAreCAndCppAndCuda) {
  for (const char *File : {"k.cu", "k.cuh", "a.cpp", "a.cc", "a.cxx", "a.c++",
                           "a.C", "a.c", "/src/dir.d/x.cu"})
    EXPECT_TRUE(isCheckableSource(File)) << File;
  for (const char *File :
       {"a.h", "a.hpp", "notes.txt", "Makefile", "a.cu.o", "a.ptx", "cu"})
    EXPECT_FALSE(isCheckableSource(File)) << File;
}

TEST(InputSelectionTest, DatabaseSourcesAreFilteredAndSorted) {
  std::string Error;
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> Database =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          R"([
  {"directory": "/src", "file": "/src/z.cu", "command": "nvcc -c z.cu"},
  {"directory": "/src", "file": "/src/gen.inc", "command": "cc -c gen.inc"},
  {"directory": "/src", "file": "/src/a.cpp", "command": "c++ -c a.cpp"},
  {"directory": "/src", "file": "/src/m.c", "command": "cc -c m.c"}
])",
          Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Database) << Error;
  EXPECT_EQ(checkableSources(*Database),
            Files({"/src/a.cpp", "/src/m.c", "/src/z.cu"}));
}

TEST(InputSelectionTest, ParsesKOfN) {
  llvm::Expected<ShardSpec> Shard = parseShard("2/4");
  ASSERT_TRUE(static_cast<bool>(Shard)) << llvm::toString(Shard.takeError());
  EXPECT_EQ(Shard->K, 2u);
  EXPECT_EQ(Shard->N, 4u);
  Shard = parseShard("1/1");
  ASSERT_TRUE(static_cast<bool>(Shard)) << llvm::toString(Shard.takeError());
  EXPECT_EQ(Shard->K, 1u);
  EXPECT_EQ(Shard->N, 1u);
}

std::string shardError(llvm::StringRef Text) {
  llvm::Expected<ShardSpec> Shard = parseShard(Text);
  if (Shard)
    return "accepted as " + std::to_string(Shard->K) + "/" +
           std::to_string(Shard->N);
  return llvm::toString(Shard.takeError());
}

TEST(InputSelectionTest, RejectsWhatIsNotKOfN) {
  for (const char *Text : {"", "2", "2/", "/4", "a/b", "2/4/8", "-1/4"})
    EXPECT_EQ(shardError(Text),
              "--shard='" + std::string(Text) +
                  "' is not of the form K/N; pass e.g. --shard=2/4 for the "
                  "second of four shards")
        << Text;
}

TEST(InputSelectionTest, RejectsShardsOutOfRange) {
  EXPECT_EQ(shardError("1/0"), "--shard=1/0 is out of range; N, the number "
                               "of shards, must be at least 1");
  EXPECT_EQ(shardError("0/4"), "--shard=0/4 is out of range; K must be "
                               "between 1 and N (--shard=1/4 to --shard=4/4)");
  EXPECT_EQ(shardError("5/4"), "--shard=5/4 is out of range; K must be "
                               "between 1 and N (--shard=1/4 to --shard=4/4)");
}

TEST(InputSelectionTest, DealsSortedFilesRoundRobinKeepingInputOrder) {
  Files Inputs = {"/t/c.cu", "/t/a.cu", "/t/e.cu", "/t/b.cu", "/t/d.cu"};
  EXPECT_EQ(selectShard(Inputs, {1, 2}),
            Files({"/t/c.cu", "/t/a.cu", "/t/e.cu"}));
  EXPECT_EQ(selectShard(Inputs, {2, 2}), Files({"/t/b.cu", "/t/d.cu"}));
  EXPECT_EQ(selectShard(Inputs, {3, 3}), Files({"/t/c.cu"}));
  EXPECT_EQ(selectShard(Inputs, {1, 1}), Inputs);
  EXPECT_EQ(selectShard(Inputs, {7, 7}), Files());
}

TEST(InputSelectionTest, OneFileNamedTwiceIsInOneShard) {
  // Both spellings of a.cu go to the shard that a.cu, dealt once, falls in.
  Files Inputs = {"/t/a.cu", "/t/sub/../a.cu", "/t/b.cu"};
  EXPECT_EQ(selectShard(Inputs, {1, 2}), Files({"/t/a.cu", "/t/sub/../a.cu"}));
  EXPECT_EQ(selectShard(Inputs, {2, 2}), Files({"/t/b.cu"}));
}

TEST(InputSelectionTest, EveryFileIsInExactlyOneShard) {
  Files Inputs;
  for (int I = 0; I < 23; ++I)
    Inputs.push_back("/t/unit_" + std::to_string(I) + ".cu");
  for (unsigned N : {1u, 2u, 5u, 23u, 30u}) {
    std::map<std::string, int> Seen;
    for (unsigned K = 1; K <= N; ++K) {
      Files Shard = selectShard(Inputs, {K, N});
      // Shards differ in size by at most one file.
      EXPECT_LE(Shard.size(), (Inputs.size() + N - 1) / N);
      EXPECT_GE(Shard.size(), Inputs.size() / N);
      for (const std::string &File : Shard)
        ++Seen[File];
    }
    EXPECT_EQ(Seen.size(), Inputs.size()) << N;
    for (const auto &[File, Count] : Seen)
      EXPECT_EQ(Count, 1) << File << " in " << N << " shards";
  }
}

} // namespace
