//===--- SarifTest.cpp ----------------------------------------------------===//
//
// The SARIF log: rules' descriptions and help from the checks' pages, results
// kept inside the project root and within code scanning's limits.
//
//===----------------------------------------------------------------------===//

#include "Output/Sarif.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace gpuguard::output;

namespace {

TEST(SarifTest, ShortDescriptionIsTheFirstSentence) {
  EXPECT_EQ(firstSentence("Flags a thing. It matters because."),
            "Flags a thing.");
  // Abbreviations, decimals and code do not end a sentence.
  EXPECT_EQ(firstSentence("Flags e.g. a 0.5 ratio, k<<<1, 2>>>(...). Then."),
            "Flags e.g. a 0.5 ratio, k<<<1, 2>>>(...).");
  EXPECT_EQ(firstSentence("One sentence only."), "One sentence only.");
}

constexpr const char *Page = R"(# demo-check

Flags a demo. See [the options](#options) and
[real code](../../real-code.md).

## Why it matters

Because [SARIF](https://example.com/sarif) says so.

### A subsection

Kept with its section.

## Measured on real code

Left out: [bench](../../../bench/README.md).

## Example

```cuda
## not a heading inside code
auto f = [x](int y) { return x[y]; };
```

## Options

Left out.

## Suppressing a finding

Add `// NOLINT(demo-check)`.
)";

TEST(SarifTest, HelpTakesTheSummaryAndTheSectionsAReaderNeeds) {
  std::string Help = helpFromPage(Page, "", "checks/demo/demo-check.md");
  EXPECT_EQ(Help, "Flags a demo. See the options and\n"
                  "real code.\n"
                  "\n"
                  "## Why it matters\n"
                  "\n"
                  "Because [SARIF](https://example.com/sarif) says so.\n"
                  "\n"
                  "### A subsection\n"
                  "\n"
                  "Kept with its section.\n"
                  "\n"
                  "\n"
                  "## Example\n"
                  "\n"
                  "```cuda\n"
                  "## not a heading inside code\n"
                  "auto f = [x](int y) { return x[y]; };\n"
                  "```\n"
                  "\n"
                  "\n"
                  "## Suppressing a finding\n"
                  "\n"
                  "Add `// NOLINT(demo-check)`.\n"
                  "\n");
}

TEST(SarifTest, HelpLinksPointUnderTheDocsUrl) {
  std::string Help = helpFromPage(Page, "https://example.org/docs/",
                                  "checks/demo/demo-check.md");
  EXPECT_NE(Help.find("See [the options](https://example.org/docs/checks/demo/"
                      "demo-check.md#options) and\n[real code]("
                      "https://example.org/docs/real-code.md)."),
            std::string::npos)
      << Help;
  EXPECT_NE(Help.find("[SARIF](https://example.com/sarif)"), std::string::npos);
  EXPECT_NE(Help.find("\nFull documentation: https://example.org/docs/checks/"
                      "demo/demo-check.md\n"),
            std::string::npos);
  EXPECT_EQ(Help.find("bench"), std::string::npos);
}

TEST(SarifTest, EveryCheckHasHelpAndCompilerDiagnosticsNone) {
  std::string Help = checkHelpMarkdown("", "cuda-unchecked-index");
  EXPECT_EQ(Help.rfind("Flags a memory access", 0), 0u);
  EXPECT_NE(Help.find("## Suppressing a finding"), std::string::npos);
  EXPECT_EQ(Help.find("## Options"), std::string::npos);
  EXPECT_EQ(checkHelpMarkdown("", "clang-diagnostic-error"), "");
}

Finding findingAt(llvm::StringRef RelativePath, bool InsideRoot, bool IsError,
                  unsigned Line) {
  Finding F;
  F.Check = "cuda-unchecked-index";
  F.Message = "index " + std::to_string(Line);
  F.IsError = IsError;
  F.Where.Path = ("/project/" + RelativePath).str();
  F.Where.RelativePath = InsideRoot ? RelativePath.str() : F.Where.Path;
  F.Where.InsideRoot = InsideRoot;
  F.Where.Line = Line;
  F.Where.Column = 1;
  return F;
}

llvm::json::Object parseRun(llvm::ArrayRef<Finding> Findings) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeSarif(OS, Findings, {}, {"1.0.0", "", "/project"});
  llvm::Expected<llvm::json::Value> Log = llvm::json::parse(Text);
  EXPECT_TRUE(static_cast<bool>(Log));
  return *(*Log->getAsObject()->getArray("runs"))[0].getAsObject();
}

TEST(SarifTest, FindingsOutsideTheRootAreNotifications) {
  Finding NoFile = findingAt("k.cu", true, false, 1);
  NoFile.Where = Location();
  llvm::json::Object Run = parseRun(
      {findingAt("k.cu", true, false, 1),
       findingAt("/usr/local/cuda/include/x.h", false, true, 2), NoFile});
  EXPECT_EQ(Run.getArray("results")->size(), 1u);
  const llvm::json::Object &Invocation =
      *(*Run.getArray("invocations"))[0].getAsObject();
  EXPECT_EQ(Invocation.getBoolean("executionSuccessful"), true);
  const llvm::json::Array &Notifications =
      *Invocation.getArray("toolExecutionNotifications");
  ASSERT_EQ(Notifications.size(), 2u);
  const llvm::json::Object &Header = *Notifications[0].getAsObject();
  EXPECT_EQ(Header.getString("level"), "error");
  EXPECT_EQ(*Header.getObject("associatedRule")->getString("id"),
            "cuda-unchecked-index");
  EXPECT_EQ(Notifications[1].getAsObject()->getArray("locations"), nullptr);
  // No help link, no informationUri without a docs URL.
  const llvm::json::Object &Driver =
      *Run.getObject("tool")->getObject("driver");
  EXPECT_EQ(Driver.get("informationUri"), nullptr);
  EXPECT_EQ((*Driver.getArray("rules"))[0].getAsObject()->get("helpUri"),
            nullptr);
}

TEST(SarifTest, ResultsStayWithinCodeScanningsLimitErrorsFirst) {
  std::vector<Finding> Findings;
  for (unsigned Line = 1; Line <= MaxSarifResults + 2; ++Line)
    Findings.push_back(findingAt("k.cu", true, false, Line));
  Findings.back().IsError = true;
  llvm::json::Object Run = parseRun(Findings);
  const llvm::json::Array &Results = *Run.getArray("results");
  ASSERT_EQ(Results.size(), MaxSarifResults);
  // The error, last in the input, is kept, still last; two warnings are not.
  EXPECT_EQ(Results.back().getAsObject()->getString("level"), "error");
  const llvm::json::Array &Notifications =
      *(*Run.getArray("invocations"))[0].getAsObject()->getArray(
          "toolExecutionNotifications");
  ASSERT_EQ(Notifications.size(), 1u);
  EXPECT_EQ(
      Notifications[0].getAsObject()->getObject("message")->getString("text"),
      "2 finding(s) left out of this log: code scanning rejects a run of "
      "more than 25000 results; hide known findings with --baseline or "
      "split the files with --shard");
}

} // namespace
