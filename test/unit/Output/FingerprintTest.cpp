//===--- FingerprintTest.cpp ----------------------------------------------===//
//
// Fingerprints name a finding by its check, file and line text, never its
// line number; baselines and the output formats' escaping.
//
//===----------------------------------------------------------------------===//

#include "Output/Fingerprint.h"
#include "Output/Baseline.h"
#include "Output/GitHubAnnotations.h"
#include "Output/Sarif.h"
#include "gtest/gtest.h"

using namespace gpuguard::output;

namespace {

TEST(FingerprintTest, NormalizesWhitespace) {
  EXPECT_EQ(normalizeLineText("  out[i] \t=  0.0f;  \r"), "out[i] = 0.0f;");
  EXPECT_EQ(normalizeLineText(""), "");
  EXPECT_EQ(normalizeLineText(" \t "), "");
}

TEST(FingerprintTest, HashDependsOnCheckPathAndText) {
  std::string Hash =
      lineHash("cuda-unchecked-index", "src/k.cu", "out[i] = 0;");
  EXPECT_EQ(Hash.size(), 32u);
  EXPECT_EQ(Hash.find_first_not_of("0123456789abcdef"), std::string::npos);
  // Re-indenting keeps it.
  EXPECT_EQ(lineHash("cuda-unchecked-index", "src/k.cu", "\t  out[i]  = 0;"),
            Hash);
  EXPECT_NE(lineHash("cuda-div-by-zero", "src/k.cu", "out[i] = 0;"), Hash);
  EXPECT_NE(lineHash("cuda-unchecked-index", "src/j.cu", "out[i] = 0;"), Hash);
  EXPECT_NE(lineHash("cuda-unchecked-index", "src/k.cu", "out[j] = 0;"), Hash);
  // The separators keep the fields apart.
  EXPECT_NE(lineHash("ab", "c", "d"), lineHash("a", "bc", "d"));
}

TEST(FingerprintTest, HashIsPinned) {
  // Baselines store these values: a change here needs a new
  // BaselineFormatVersion and FingerprintKey.
  EXPECT_EQ(lineHash("cuda-unchecked-index", "k.cu", "out[i] = 0.0f;"),
            "356842a448175df85514e1d8d650fdd1");
}

TEST(FingerprintTest, NumberingCountsRepeatsOfEachHash) {
  FingerprintNumbering Numbering;
  EXPECT_EQ(Numbering.next("aa"), "aa:0");
  EXPECT_EQ(Numbering.next("bb"), "bb:0");
  EXPECT_EQ(Numbering.next("aa"), "aa:1");
  EXPECT_EQ(Numbering.next("aa"), "aa:2");
}

std::string baselineError(llvm::StringRef Text) {
  llvm::Expected<Baseline> Parsed = Baseline::parse(Text, "b.json");
  if (Parsed) {
    ADD_FAILURE() << "the baseline parsed";
    return "";
  }
  return llvm::toString(Parsed.takeError());
}

TEST(BaselineTest, RoundTripCountsRepeats) {
  std::string Text =
      renderBaseline({{"ff:0", "cuda-unchecked-index", "b.cu", "second"},
                      {"ee:0", "cuda-unchecked-index", "a.cu", "first"},
                      {"ee:0", "cuda-unchecked-index", "a.cu", "first"}},
                     "1.2.3");
  EXPECT_EQ(Text, R"({
  "format": "gpuguard-baseline",
  "formatVersion": 1,
  "gpuguardVersion": "1.2.3",
  "findings": [
    {
      "fingerprint": "ee:0",
      "check": "cuda-unchecked-index",
      "path": "a.cu",
      "message": "first"
    },
    {
      "fingerprint": "ee:0",
      "check": "cuda-unchecked-index",
      "path": "a.cu",
      "message": "first"
    },
    {
      "fingerprint": "ff:0",
      "check": "cuda-unchecked-index",
      "path": "b.cu",
      "message": "second"
    }
  ]
}
)");
  llvm::Expected<Baseline> Parsed = Baseline::parse(Text, "b.json");
  ASSERT_TRUE(static_cast<bool>(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_TRUE(Parsed->consume("ee:0"));
  EXPECT_TRUE(Parsed->consume("ee:0"));
  EXPECT_FALSE(Parsed->consume("ee:0"));
  EXPECT_TRUE(Parsed->consume("ff:0"));
  EXPECT_FALSE(Parsed->consume("gg:0"));
}

TEST(BaselineTest, UnusableFilesSayHowToRegenerate) {
  EXPECT_EQ(baselineError("{"),
            "baseline 'b.json' is not valid JSON ([1:1, byte=1]: Expected "
            "object key); regenerate it with --write-baseline=b.json");
  EXPECT_EQ(baselineError("[]"),
            "baseline 'b.json' is not a gpuguard baseline (no \"format\": "
            "\"gpuguard-baseline\"); regenerate it with "
            "--write-baseline=b.json");
  EXPECT_EQ(baselineError(R"({"format": "gpuguard-baseline", "formatVersion": 7,
                              "findings": []})"),
            "baseline 'b.json' has format version 7, but this gpuguard reads "
            "version 1; regenerate it with --write-baseline=b.json");
  EXPECT_EQ(baselineError(R"({"format": "gpuguard-baseline",
                              "formatVersion": 1, "findings": [{}]})"),
            "baseline 'b.json' has a finding without a \"fingerprint\" (entry "
            "1); regenerate it with --write-baseline=b.json");
}

TEST(GitHubAnnotationsTest, Escaping) {
  EXPECT_EQ(escapeAnnotationData("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
  EXPECT_EQ(escapeAnnotationProperty("50% a:b,c\r\nd"),
            "50%25 a%3Ab%2Cc%0D%0Ad");
}

TEST(GitHubAnnotationsTest, OneLinePerFinding) {
  Finding F;
  F.Check = "cuda-unchecked-index";
  F.Message = "index 'i' of 'out[i]' is 100% unguarded";
  F.Where.Path = "/p/dir,1/k:1.cu";
  F.Where.RelativePath = "dir,1/k:1.cu";
  F.Where.Line = 4;
  F.Where.Column = 3;
  F.Notes.push_back({"'i' is computed here", F.Where});
  F.Notes.back().Where.Line = 3;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeAnnotation(OS, F);
  F.IsError = true;
  F.Where = Location();
  F.Notes.clear();
  writeAnnotation(OS, F);
  EXPECT_EQ(Text, "::warning file=dir%2C1/k%3A1.cu,line=4,col=3,"
                  "title=cuda-unchecked-index::index 'i' of 'out[i]' is "
                  "100%25 unguarded%0Adir,1/k:1.cu:3:3: note: 'i' is "
                  "computed here\n"
                  "::error title=cuda-unchecked-index::index 'i' of 'out[i]' "
                  "is 100%25 unguarded\n");
}

TEST(SarifTest, UrisAndDocsLinks) {
  EXPECT_EQ(percentEncodePath("src/a b/caf\xc3\xa9#1.cu"),
            "src/a%20b/caf%C3%A9%231.cu");
  EXPECT_EQ(fileUri("/p/a b.cu"), "file:///p/a%20b.cu");
  EXPECT_EQ(checkDocsUrl("https://x/docs/", "cuda-unchecked-index"),
            "https://x/docs/checks/cuda/cuda-unchecked-index.md");
  EXPECT_EQ(checkDocsUrl("https://x/docs/", "clang-diagnostic-error"), "");
  EXPECT_NE(checkSummary("cuda-unchecked-index"), "cuda-unchecked-index");
}

} // namespace
