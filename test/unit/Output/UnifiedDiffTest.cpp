//===--- UnifiedDiffTest.cpp ----------------------------------------------===//
//
// The lines --diff keeps: added lines of the new file from git's and
// diff -u's output, with every header shape, and the files outside the
// project that it leaves out.
//
//===----------------------------------------------------------------------===//

#include "Output/UnifiedDiff.h"
#include "Output/DiffSource.h"
#include "gtest/gtest.h"

using namespace gpuguard::output;

namespace {

std::vector<FileDiff> parse(llvm::StringRef Text) {
  llvm::Expected<std::vector<FileDiff>> Files = parseUnifiedDiff(Text);
  if (!Files) {
    ADD_FAILURE() << llvm::toString(Files.takeError());
    return {};
  }
  return std::move(*Files);
}

std::string parseError(llvm::StringRef Text) {
  llvm::Expected<std::vector<FileDiff>> Files = parseUnifiedDiff(Text);
  if (Files) {
    ADD_FAILURE() << "the diff parsed";
    return "";
  }
  return llvm::toString(Files.takeError());
}

using Ranges = std::vector<LineRange>;

TEST(UnifiedDiffTest, GitDiffWithZeroContext) {
  auto Files = parse("diff --git a/src/k.cu b/src/k.cu\n"
                     "index 1111111..2222222 100644\n"
                     "--- a/src/k.cu\n"
                     "+++ b/src/k.cu\n"
                     "@@ -3,0 +4,2 @@ __global__ void k(float *out) {\n"
                     "+  int j = 0;\n"
                     "+  out[j] = 1;\n"
                     "@@ -10 +12 @@\n"
                     "-  out[i] = 0;\n"
                     "+  out[i] = 2;\n"
                     "@@ -20,2 +22,0 @@\n"
                     "-  gone();\n"
                     "-  gone();\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].OldPath, "src/k.cu");
  EXPECT_EQ(Files[0].NewPath, "src/k.cu");
  EXPECT_FALSE(Files[0].Binary);
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{4, 5}, {12, 12}}));
}

TEST(UnifiedDiffTest, ContextLinesAdvanceTheNewLineNumber) {
  auto Files = parse("--- a/k.cu\n"
                     "+++ b/k.cu\n"
                     "@@ -1,4 +1,5 @@\n"
                     " a\n"
                     "-b\n"
                     "+B\n"
                     "+C\n"
                     " c\n"
                     "\n" // An empty context line, as some tools trim it.
                     "@@ -9 +10,2 @@\n"
                     " x\n"
                     "+y\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].NewPath, "k.cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{2, 3}, {11, 11}}));
}

TEST(UnifiedDiffTest, NewAndDeletedFiles) {
  auto Files = parse("diff --git a/new.cu b/new.cu\n"
                     "new file mode 100644\n"
                     "index 0000000..3333333\n"
                     "--- /dev/null\n"
                     "+++ b/new.cu\n"
                     "@@ -0,0 +1,3 @@\n"
                     "+a\n"
                     "+b\n"
                     "+c\n"
                     "diff --git a/old.cu b/old.cu\n"
                     "deleted file mode 100644\n"
                     "index 4444444..0000000\n"
                     "--- a/old.cu\n"
                     "+++ /dev/null\n"
                     "@@ -1,2 +0,0 @@\n"
                     "-a\n"
                     "-b\n");
  ASSERT_EQ(Files.size(), 2u);
  EXPECT_EQ(Files[0].OldPath, "");
  EXPECT_EQ(Files[0].NewPath, "new.cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{1, 3}}));
  EXPECT_EQ(Files[1].OldPath, "old.cu");
  EXPECT_EQ(Files[1].NewPath, "");
  EXPECT_TRUE(Files[1].AddedLines.empty());
}

TEST(UnifiedDiffTest, Renames) {
  auto Files = parse("diff --git a/old name.cu b/new name.cu\n"
                     "similarity index 90%\n"
                     "rename from old name.cu\n"
                     "rename to new name.cu\n"
                     "--- a/old name.cu\n"
                     "+++ b/new name.cu\n"
                     "@@ -2 +2 @@\n"
                     "-x\n"
                     "+y\n"
                     "diff --git a/a.cu b/sub/a.cu\n"
                     "similarity index 100%\n"
                     "rename from a.cu\n"
                     "rename to sub/a.cu\n");
  ASSERT_EQ(Files.size(), 2u);
  EXPECT_EQ(Files[0].OldPath, "old name.cu");
  EXPECT_EQ(Files[0].NewPath, "new name.cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{2, 2}}));
  EXPECT_EQ(Files[1].OldPath, "a.cu");
  EXPECT_EQ(Files[1].NewPath, "sub/a.cu");
  EXPECT_TRUE(Files[1].AddedLines.empty());
}

TEST(UnifiedDiffTest, BinaryFiles) {
  auto Files = parse("diff --git a/img.png b/img.png\n"
                     "index 5555555..6666666 100644\n"
                     "Binary files a/img.png and b/img.png differ\n"
                     "diff --git a/blob.bin b/blob.bin\n"
                     "index 7777777..8888888 100644\n"
                     "GIT binary patch\n"
                     "literal 12\n"
                     "TcmZ?wbhEHbRA5kGVE_Ui03%@nBme*a\n"
                     "\n"
                     "diff --git a/k.cu b/k.cu\n"
                     "--- a/k.cu\n"
                     "+++ b/k.cu\n"
                     "@@ -1 +1 @@\n"
                     "-a\n"
                     "+b\n");
  ASSERT_EQ(Files.size(), 3u);
  EXPECT_TRUE(Files[0].Binary);
  EXPECT_EQ(Files[0].NewPath, "img.png");
  EXPECT_TRUE(Files[1].Binary);
  EXPECT_EQ(Files[1].NewPath, "blob.bin");
  EXPECT_FALSE(Files[2].Binary);
  EXPECT_EQ(Files[2].AddedLines, (Ranges{{1, 1}}));
}

TEST(UnifiedDiffTest, NoNewlineMarkers) {
  auto Files = parse("--- a/k.cu\n"
                     "+++ b/k.cu\n"
                     "@@ -1,2 +1,2 @@\n"
                     " a\n"
                     "-b\n"
                     "\\ No newline at end of file\n"
                     "+c\n"
                     "\\ No newline at end of file\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{2, 2}}));
}

TEST(UnifiedDiffTest, PlainDiffWithTimestamps) {
  auto Files = parse("--- k.cu.orig\t2024-05-01 10:00:00.000000000 +0200\n"
                     "+++ k.cu\t2024-05-01 10:05:00.000000000 +0200\n"
                     "@@ -1,3 +1,4 @@\n"
                     " a\n"
                     "+b\n"
                     " c\n"
                     " d\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].OldPath, "k.cu.orig");
  EXPECT_EQ(Files[0].NewPath, "k.cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{2, 2}}));
}

TEST(UnifiedDiffTest, HunkLinesThatLookLikeHeaders) {
  // A removed "-- x" and an added "++ y" are content, not file headers.
  auto Files = parse("--- a/k.cu\n"
                     "+++ b/k.cu\n"
                     "@@ -1,2 +1,2 @@\n"
                     "--- x\n"
                     "+++ y\n"
                     " z\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].NewPath, "k.cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{1, 1}}));
}

TEST(UnifiedDiffTest, QuotedPathsAndCarriageReturns) {
  auto Files = parse("diff --git \"a/caf\\303\\251 \\\"x\\\".cu\" "
                     "\"b/caf\\303\\251 \\\"x\\\".cu\"\r\n"
                     "--- \"a/caf\\303\\251 \\\"x\\\".cu\"\r\n"
                     "+++ \"b/caf\\303\\251 \\\"x\\\".cu\"\r\n"
                     "@@ -1 +1 @@\r\n"
                     "-a\r\n"
                     "+b\r\n");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0].NewPath, "caf\xc3\xa9 \"x\".cu");
  EXPECT_EQ(Files[0].AddedLines, (Ranges{{1, 1}}));
}

TEST(UnifiedDiffTest, PrefixesAreStrippedOnlyWhenBothSidesHaveThem) {
  auto Files = parse("diff --git k.cu k.cu\n"
                     "--- k.cu\n"
                     "+++ k.cu\n"
                     "@@ -1 +1 @@\n"
                     "-a\n"
                     "+b\n"
                     "--- a/b/x.cu\n"
                     "+++ b/b/x.cu\n"
                     "@@ -1 +1 @@\n"
                     "-a\n"
                     "+b\n"
                     "--- old/b/y.cu\n"
                     "+++ b/y.cu\n"
                     "@@ -1 +1 @@\n"
                     "-a\n"
                     "+b\n");
  ASSERT_EQ(Files.size(), 3u);
  EXPECT_EQ(Files[0].NewPath, "k.cu");
  EXPECT_EQ(Files[1].NewPath, "b/x.cu");
  EXPECT_EQ(Files[2].NewPath, "b/y.cu");
}

TEST(UnifiedDiffTest, MalformedDiffsNameTheLine) {
  EXPECT_EQ(parseError("--- a/k.cu\n+++ b/k.cu\n@@ -a +1 @@\n"),
            "line 3: malformed hunk header '@@ -a +1 @@'; expected "
            "'@@ -a,b +c,d @@'");
  EXPECT_EQ(parseError("--- a/k.cu\n+++ b/k.cu\n@@ -1,2 +1,2 @@\n a\n"),
            "line 4: the diff ends inside a hunk that expects 1 old and 1 "
            "new line(s) more");
  EXPECT_EQ(parseError("--- a/k.cu\n+++ b/k.cu\n@@ -1 +1 @@\n+a\n+b\n"),
            "line 5: the hunk above still expects 1 old and 0 new line(s)");
  EXPECT_EQ(parseError("@@ -1 +1 @@\n"),
            "line 1: a hunk before its '+++' file header");
  EXPECT_EQ(parseError("+++ b/k.cu\n"),
            "line 1: a '+++' file header without '---'");
}

TEST(UnifiedDiffTest, TextWithoutADiffHasNoFiles) {
  EXPECT_TRUE(parse("").empty());
  EXPECT_TRUE(parse("just some words\nno diff here\n").empty());
}

TEST(ChangedLinesTest, ContainsAndFiles) {
  ChangedLines Lines;
  Lines.add("/p/b.cu", {{3, 5}});
  Lines.add("/p/a.cu", {{1, 1}, {10, 12}});
  Lines.add("/p/a.cu", {{2, 2}});
  Lines.add("/p/empty.cu", {});
  EXPECT_TRUE(Lines.contains("/p/a.cu", 1));
  EXPECT_TRUE(Lines.contains("/p/a.cu", 2));
  EXPECT_FALSE(Lines.contains("/p/a.cu", 3));
  EXPECT_FALSE(Lines.contains("/p/a.cu", 9));
  EXPECT_TRUE(Lines.contains("/p/a.cu", 10));
  EXPECT_TRUE(Lines.contains("/p/a.cu", 12));
  EXPECT_FALSE(Lines.contains("/p/a.cu", 13));
  EXPECT_FALSE(Lines.contains("/p/b.cu", 2));
  EXPECT_TRUE(Lines.contains("/p/b.cu", 4));
  EXPECT_FALSE(Lines.contains("/p/c.cu", 4));
  EXPECT_EQ(Lines.files(), (std::vector<std::string>{"/p/a.cu", "/p/b.cu"}));
}

TEST(ResolveDiffTest, FilesOutsideTheProjectAreSetAside) {
  auto Files = parse("--- a/src/k.cu\n+++ b/src/k.cu\n@@ -1 +1 @@\n-a\n+b\n"
                     "--- a/../other/x.cu\n+++ b/../other/x.cu\n"
                     "@@ -1 +1 @@\n-a\n+b\n"
                     "--- /elsewhere/y.cu\n+++ /elsewhere/y.cu\n"
                     "@@ -1 +1 @@\n-a\n+b\n"
                     "--- /project/abs.cu\n+++ /project/abs.cu\n"
                     "@@ -1 +1,2 @@\n a\n+b\n"
                     "--- a/gone.cu\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n");
  LoadedDiff Diff = resolveDiff(Files, "/project/");
  EXPECT_EQ(Diff.ProjectRoot, "/project");
  EXPECT_EQ(Diff.OutsideFiles,
            (std::vector<std::string>{"../other/x.cu", "/elsewhere/y.cu"}));
  EXPECT_EQ(Diff.Lines.files(),
            (std::vector<std::string>{"/project/abs.cu", "/project/src/k.cu"}));
  EXPECT_TRUE(Diff.Lines.contains("/project/src/k.cu", 1));
  EXPECT_TRUE(Diff.Lines.contains("/project/abs.cu", 2));
  EXPECT_FALSE(Diff.Lines.contains("/project/abs.cu", 1));
}

} // namespace
