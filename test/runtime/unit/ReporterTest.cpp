//===- ReporterTest.cpp - The host reporter -------------------------------===//
//
// Site tables, one report per site, counts under many threads, max_reports,
// the summary line, the report formats and GPUGUARD_OPTIONS.
//
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include "gpuguard/report.h"
#include "gpuguard/rt.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace gpuguard::rt;

namespace {

constexpr unsigned long long Key = 0xabc123ULL;
constexpr unsigned SiteCount = 8;

const SiteInfo Sites[SiteCount] = {
    {"/p/a.cu", 1, 2, "k0", "cuda-unchecked-index", IndexBound, -1, "i"},
    {"/p/a.cu", 3, 4, "k1", "cuda-unchecked-index", IndexBound, -1, "j"},
    {"/p/a.cu", 5, 6, "k2", "cuda-div-by-zero", NonZeroDivisor, -1, "d"},
    {"/p/a.cu", 7, 8, "k3", "cuda-nan-to-index", FiniteBeforeCast, -1, "f"},
    {"/p/b.cpp", 9, 1, "train", "torch-inplace-autograd", TorchSavedForBackward,
     -1, "sigmoid"},
    {"/p/b.cpp", 11, 3, "train", "torch-inplace-autograd", TorchInplaceWrite, 4,
     "add_"},
    {"/p/b.cpp", 13, 5, "train", "torch-index-range", TorchEmbeddingRange, -1,
     "ids"},
    {"/p/b.cpp", 15, 7, "train", "torch-div-by-zero", TorchNonZero, -1, "den"},
};
const SiteTableRegistrar Registrar(Key, Sites, SiteCount,
                                   GPUGUARD_SITE_TABLE_ABI_VERSION);

// The same table registered again (a header included by two files).
const SiteTableRegistrar Again(Key, Sites, SiteCount,
                               GPUGUARD_SITE_TABLE_ABI_VERSION);

Record makeRecord(unsigned Index, long long Value0, long long Value1) {
  Record R = {};
  R.FileKey = Key;
  R.Index = Index;
  R.Values[0] = static_cast<unsigned long long>(Value0);
  R.Values[1] = static_cast<unsigned long long>(Value1);
  R.Tags[0] = SignedValue;
  R.Tags[1] = SignedValue;
  R.Ready = 1;
  return R;
}

class ReporterTest : public ::testing::Test {
protected:
  void SetUp() override { reset(detail::Options()); }
  void TearDown() override {
    detail::Options Quiet;
    Quiet.PrintSummary = false;
    detail::resetForTesting(Quiet, nullptr);
  }
  void reset(const detail::Options &O) {
    detail::resetForTesting(O, [this](const std::string &Line) {
      std::lock_guard<std::mutex> Lock(LinesMutex);
      Lines.push_back(Line);
    });
  }

  std::mutex LinesMutex;
  std::vector<std::string> Lines;
};

TEST_F(ReporterTest, LooksUpRegisteredSites) {
  EXPECT_EQ(detail::lookupSite(SiteRef{Key, 2}), &Sites[2]);
  EXPECT_EQ(detail::lookupSite(SiteRef{Key, SiteCount}), nullptr);
  EXPECT_EQ(detail::lookupSite(SiteRef{Key + 1, 0}), nullptr);
}

TEST_F(ReporterTest, ReportsEachSiteOnceAndCountsTheRest) {
  for (int I = 0; I < 5; ++I)
    detail::reportRecord(makeRecord(0, 100 + I, 50),
                         detail::RecordOrigin::Device);
  detail::reportRecord(makeRecord(1, 7, 3), detail::RecordOrigin::Device);
  ASSERT_EQ(Lines.size(), 2u);
  // The first occurrence is the one reported.
  EXPECT_NE(Lines[0].find("(index 100, bound 50)"), std::string::npos);
  EXPECT_EQ(detail::occurrences(SiteRef{Key, 0}), 5u);
  EXPECT_EQ(detail::occurrences(SiteRef{Key, 1}), 1u);
  detail::Totals T = detail::totals();
  EXPECT_EQ(T.Errors, 6u);
  EXPECT_EQ(T.Sites, 2u);
  EXPECT_EQ(T.Printed, 2u);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: 6 runtime error(s) at 2 site(s)");
}

TEST_F(ReporterTest, DeviceRecordFormat) {
  Record R = makeRecord(0, 1024, 1000);
  R.Block[0] = 3;
  R.Block[1] = 1;
  R.Block[2] = 2;
  R.Thread[0] = 255;
  R.Thread[1] = 4;
  R.Thread[2] = 5;
  detail::reportRecord(R, detail::RecordOrigin::Device);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/p/a.cu:1:2: runtime error: index 'i' out of bounds "
                      "(index 1024, bound 1000) in kernel k0, block (3,1,2) "
                      "thread (255,4,5) [cuda-unchecked-index]");
}

TEST_F(ReporterTest, RecordOfUnregisteredSite) {
  Record R = makeRecord(3, 1, 2);
  R.FileKey = 0x77;
  detail::reportRecord(R, detail::RecordOrigin::Device);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "<unknown site 0x77#3>: runtime error: check failed "
                      "(1, 2) in kernel ?, block (0,0,0) thread (0,0,0) "
                      "[gpuguard]");
}

TEST_F(ReporterTest, HostReportFormats) {
  reportHost(Sites[6], "embedding index out of range",
             "index 1000, num_embeddings 1000");
  reportHost(Sites[7], "zero denominator", "");
  reportHost(Sites[5], "in-place write to a tensor autograd saved", "version 0",
             Sites[4], "saved for backward");
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0], "/p/b.cpp:13:5: runtime error: embedding index out of "
                      "range (index 1000, num_embeddings 1000) in train "
                      "[torch-index-range]");
  EXPECT_EQ(Lines[1], "/p/b.cpp:15:7: runtime error: zero denominator in "
                      "train [torch-div-by-zero]");
  EXPECT_EQ(Lines[2], "/p/b.cpp:11:3: runtime error: in-place write to a "
                      "tensor autograd saved (version 0) in train, saved for "
                      "backward at /p/b.cpp:9:1 [torch-inplace-autograd]");
  EXPECT_EQ(formatLocation(Sites[4]), "/p/b.cpp:9:1");
  // Host reports are counted at the site of their table entry.
  reportHost(Sites[6], "embedding index out of range", "index 1001");
  EXPECT_EQ(detail::occurrences(SiteRef{Key, 6}), 2u);
  EXPECT_EQ(Lines.size(), 3u);
}

TEST_F(ReporterTest, HandMadeSiteInfoIsItsOwnSite) {
  SiteInfo Loose = {"/p/c.cpp",      1,  1,    "f", "torch-mixed-device",
                    TorchSameDevice, -1, "add"};
  reportHost(Loose, "tensors on different devices", "cpu, meta");
  reportHost(Loose, "tensors on different devices", "cpu, meta");
  EXPECT_EQ(Lines.size(), 1u);
  EXPECT_EQ(detail::totals().Sites, 1u);
  EXPECT_EQ(detail::totals().Errors, 2u);
}

TEST_F(ReporterTest, ManyThreadsLoseAndTearNothing) {
  constexpr unsigned Threads = 64;
  constexpr unsigned PerThread = 4000;
  std::vector<std::thread> Workers;
  for (unsigned T = 0; T < Threads; ++T)
    Workers.emplace_back([T] {
      for (unsigned I = 0; I < PerThread; ++I) {
        unsigned Site = (T + I) % 4;
        // Every field names the writer (T) and its record (I), so that a
        // record torn between two writers shows.
        Record R = makeRecord(Site, T * 100000 + I, T);
        R.Block[0] = T;
        R.Block[1] = I;
        R.Block[2] = T + I;
        R.Thread[0] = I;
        R.Thread[1] = T;
        R.Thread[2] = Site;
        detail::reportRecord(R, detail::RecordOrigin::Device);
        if (I % 50 == 0)
          reportHost(Sites[6], "embedding index out of range",
                     "index " + std::to_string(T * 100000 + I) + ", writer " +
                         std::to_string(T));
      }
    });
  for (std::thread &W : Workers)
    W.join();
  const unsigned long long HostReports = Threads * (PerThread / 50);
  detail::Totals Total = detail::totals();
  EXPECT_EQ(Total.Errors, Threads * PerThread + HostReports);
  EXPECT_EQ(Total.Sites, 5u);
  for (unsigned Site = 0; Site < 4; ++Site)
    EXPECT_EQ(detail::occurrences(SiteRef{Key, Site}), Threads * PerThread / 4);
  EXPECT_EQ(detail::occurrences(SiteRef{Key, 6}), HostReports);
  // One whole line per site, each the report of one real record: all its
  // fields from the same writer and record, at the site that record was for.
  ASSERT_EQ(Lines.size(), 5u);
  std::set<std::string> Prefixes;
  for (const std::string &Line : Lines) {
    SCOPED_TRACE(Line);
    std::string Prefix = Line.substr(0, Line.find(": runtime error"));
    Prefixes.insert(Prefix);
    EXPECT_EQ(Line.find('\n'), std::string::npos);
    unsigned long long Value = 0, Writer = 0;
    if (Prefix == "/p/b.cpp:13:5") {
      ASSERT_EQ(std::sscanf(Line.c_str(),
                            "/p/b.cpp:13:5: runtime error: embedding index "
                            "out of range (index %llu, writer %llu) in train "
                            "[torch-index-range]",
                            &Value, &Writer),
                2);
      EXPECT_EQ(Value / 100000, Writer);
      EXPECT_EQ(Value % 100000 % 50, 0u);
      EXPECT_LT(Writer, Threads);
      continue;
    }
    unsigned Site = SiteCount;
    for (unsigned S = 0; S < 4; ++S)
      if (Prefix == formatLocation(Sites[S]))
        Site = S;
    ASSERT_LT(Site, 4u);
    const char *Formats[] = {"(index %llu, bound %llu)",
                             "(index %llu, bound %llu)", "(divisor %llu)",
                             "(value %llu)"};
    const char *Open = std::strchr(Line.c_str(), '(');
    ASSERT_NE(Open, nullptr);
    int Parsed = std::sscanf(Open, Formats[Site], &Value, &Writer);
    ASSERT_EQ(Parsed, Site < 2 ? 2 : 1);
    unsigned long long T = Value / 100000, I = Value % 100000;
    if (Site < 2)
      EXPECT_EQ(Writer, T);
    EXPECT_LT(T, Threads);
    EXPECT_LT(I, PerThread);
    EXPECT_EQ((T + I) % 4, Site);
    std::string Grid = ", block (" + std::to_string(T) + "," +
                       std::to_string(I) + "," + std::to_string(T + I) +
                       ") thread (" + std::to_string(I) + "," +
                       std::to_string(T) + "," + std::to_string(Site) + ") [";
    EXPECT_NE(Line.find(Grid), std::string::npos) << Grid;
  }
  EXPECT_EQ(Prefixes.size(), 5u);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: " + std::to_string(Total.Errors) +
                " runtime error(s) at 5 site(s)");
}

TEST_F(ReporterTest, MaxReportsLimitsPrintedSitesNotCounts) {
  detail::Options O;
  O.MaxReports = 2;
  reset(O);
  // Sites fail in an order other than that of the table.
  for (unsigned Site : {2u, 0u, 3u, 1u})
    for (int Repeat = 0; Repeat < 3; ++Repeat)
      detail::reportRecord(makeRecord(Site, 1, 0),
                           detail::RecordOrigin::Device);
  // The first two sites to fail are the ones printed, in that order.
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[0].rfind("/p/a.cu:5:6: runtime error: ", 0), 0u) << Lines[0];
  EXPECT_EQ(Lines[1].rfind("/p/a.cu:1:2: runtime error: ", 0), 0u) << Lines[1];
  detail::Totals T = detail::totals();
  EXPECT_EQ(T.Errors, 12u);
  EXPECT_EQ(T.Sites, 4u);
  EXPECT_EQ(T.Printed, 2u);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: 12 runtime error(s) at 4 site(s); 2 site(s) "
            "not printed (max_reports=2)");
}

TEST_F(ReporterTest, SummaryCountsDroppedRecords) {
  EXPECT_EQ(detail::summaryLine(), "");
  detail::reportRecord(makeRecord(0, 5, 4), detail::RecordOrigin::Device);
  detail::addDroppedRecords(1000);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: 1 runtime error(s) at 1 site(s); 1000 "
            "record(s) dropped (device buffer full)");
}

TEST_F(ReporterTest, LogPathAppendsToPerProcessFile) {
  char Directory[] = "/tmp/gpuguard-rt-XXXXXX";
  ASSERT_NE(mkdtemp(Directory), nullptr);
  detail::Options O;
  O.LogPath = std::string(Directory) + "/log";
  detail::resetForTesting(O, nullptr);
  detail::reportRecord(makeRecord(2, 0, 0), detail::RecordOrigin::Device);
  detail::reportRecord(makeRecord(3, 0, 0), detail::RecordOrigin::Device);
  detail::resetForTesting(detail::Options(), nullptr); // Closes the file.
  std::string Path = O.LogPath + "." + std::to_string(::getpid());
  std::ifstream File(Path);
  ASSERT_TRUE(File.good()) << Path;
  std::stringstream Text;
  Text << File.rdbuf();
  EXPECT_EQ(Text.str(),
            "/p/a.cu:5:6: runtime error: division by zero in 'd' (divisor 0) "
            "in kernel k2, block (0,0,0) thread (0,0,0) [cuda-div-by-zero]\n"
            "/p/a.cu:7:8: runtime error: non-finite value 'f' before an "
            "integer cast (value 0) in kernel k3, block (0,0,0) thread "
            "(0,0,0) [cuda-nan-to-index]\n");
  std::remove(Path.c_str());
  ::rmdir(Directory);
}

TEST(ReporterDeathTest, HaltOnErrorAbortsAfterTheReport) {
#ifdef GTEST_FLAG_SET
  GTEST_FLAG_SET(death_test_style, "threadsafe");
#else
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
#endif
  EXPECT_DEATH(
      {
        detail::Options O;
        O.HaltOnError = true;
        detail::resetForTesting(O, nullptr);
        detail::reportRecord(makeRecord(1, 9, 8), detail::RecordOrigin::Device);
      },
      "/p/a.cu:3:4: runtime error: index 'j' out of bounds \\(index 9, bound "
      "8\\)");
}

//===--- GPUGUARD_OPTIONS -------------------------------------------------===//

TEST(OptionsTest, Defaults) {
  std::vector<std::string> Warnings;
  detail::Options O = detail::parseOptions(nullptr, Warnings);
  EXPECT_FALSE(O.HaltOnError);
  EXPECT_EQ(O.MaxReports, 20u);
  EXPECT_EQ(O.LogPath, "stderr");
  EXPECT_TRUE(O.PrintSummary);
  O = detail::parseOptions("", Warnings);
  EXPECT_EQ(O.MaxReports, 20u);
  EXPECT_TRUE(Warnings.empty());
}

TEST(OptionsTest, ParsesEveryOption) {
  std::vector<std::string> Warnings;
  detail::Options O = detail::parseOptions(
      "halt_on_error=1:max_reports=3:log_path=/tmp/x:print_summary=0",
      Warnings);
  EXPECT_TRUE(Warnings.empty());
  EXPECT_TRUE(O.HaltOnError);
  EXPECT_EQ(O.MaxReports, 3u);
  EXPECT_EQ(O.LogPath, "/tmp/x");
  EXPECT_FALSE(O.PrintSummary);
  // Empty items and the last of repeated keys.
  O = detail::parseOptions(":max_reports=0::max_reports=7:", Warnings);
  EXPECT_TRUE(Warnings.empty());
  EXPECT_EQ(O.MaxReports, 7u);
}

TEST(OptionsTest, BadOptionsWarnOnceEachAndAreIgnored) {
  std::vector<std::string> Warnings;
  detail::Options O = detail::parseOptions(
      "halt_on_eror=1:max_reports=lots:print_summary=2:log_path=:"
      "max_reports=99999999999:halt_on_error=1",
      Warnings);
  ASSERT_EQ(Warnings.size(), 5u);
  EXPECT_EQ(Warnings[0],
            "gpuguard: ignoring GPUGUARD_OPTIONS entry 'halt_on_eror=1': "
            "unknown option (known: halt_on_error, max_reports, log_path, "
            "print_summary, report_leaks)");
  EXPECT_EQ(Warnings[1], "gpuguard: ignoring GPUGUARD_OPTIONS entry "
                         "'max_reports=lots': expected a number of reports, "
                         "e.g. max_reports=20");
  EXPECT_EQ(Warnings[2], "gpuguard: ignoring GPUGUARD_OPTIONS entry "
                         "'print_summary=2': expected print_summary=0 or "
                         "print_summary=1");
  EXPECT_NE(Warnings[3].find("'log_path='"), std::string::npos);
  EXPECT_NE(Warnings[4].find("'max_reports=99999999999'"), std::string::npos);
  // Everything else still applies; the bad ones leave the defaults.
  EXPECT_TRUE(O.HaltOnError);
  EXPECT_EQ(O.MaxReports, 20u);
  EXPECT_TRUE(O.PrintSummary);
  EXPECT_EQ(O.LogPath, "stderr");
}

TEST(OptionsTest, ManyBadOptionsAreCountedAfterTheFirstTen) {
  std::string Junk;
  for (int I = 0; I < 25000; ++I)
    Junk += "junk" + std::to_string(I) + "=1:";
  Junk += std::string("ctrl\x01\x1b[2J=1:") + std::string(100, 'k') + "=1";
  Junk += ":max_reports=3";
  std::vector<std::string> Warnings;
  detail::Options O = detail::parseOptions(Junk.c_str(), Warnings);
  ASSERT_EQ(Warnings.size(), 11u);
  EXPECT_NE(Warnings[9].find("'junk9=1'"), std::string::npos);
  EXPECT_EQ(Warnings[10], "gpuguard: ignoring 24992 more GPUGUARD_OPTIONS "
                          "entries; fix the variable");
  EXPECT_EQ(O.MaxReports, 3u);
  // Control characters and length never reach the terminal raw.
  Warnings.clear();
  detail::parseOptions("ctrl\x01\x1b[2J=1", Warnings);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("'ctrl??[2J=1'"), std::string::npos);
  Warnings.clear();
  detail::parseOptions((std::string(100, 'k') + "=1").c_str(), Warnings);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("'" + std::string(60, 'k') + "...'"),
            std::string::npos);
}

} // namespace
