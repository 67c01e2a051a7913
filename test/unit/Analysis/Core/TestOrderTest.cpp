//===--- TestOrderTest.cpp - Tests of TestOrder ---------------------------===//

#include "Analysis/Core/TestOrder.h"
#include "Analysis/Core/SourceText.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// The reads before their test in `__device__ void f(...) { <Body> }`, as
/// "read / test" pairs.
std::vector<std::string> readsBeforeTests(const std::string &Body) {
  auto Unit = parseCuda("__device__ void f(const int *a, int i, int n, int w) "
                        "{\n" +
                        Body + "\n}\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  std::vector<std::string> Pairs;
  for (const ReadBeforeTest &Found : findReadsBeforeTheirTest(
           *findFunction(Context, "f")->getBody(), Context))
    Pairs.push_back(quoteSource(Found.Read, Context) + " / " +
                    quoteSource(Found.Test, Context));
  return Pairs;
}

using Pairs = std::vector<std::string>;

TEST(TestOrderTest, ReadsBeforeTheTestOfTheirIndex) {
  EXPECT_EQ(readsBeforeTests("while (a[i] < w && i < n) ++i;"),
            Pairs({"a[i] / i < n"}));
  EXPECT_EQ(readsBeforeTests("if (a[i] == w || i >= n) return;"),
            Pairs({"a[i] / i >= n"}));
  // Later in a longer chain, and with the bound on the left.
  EXPECT_EQ(readsBeforeTests("if (a[i] > 0 && w > 0 && n > i) return;"),
            Pairs({"a[i] / n > i"}));
  // An end test of a loop that walks the index towards it.
  EXPECT_EQ(readsBeforeTests("while (a[i] < w && i != n) ++i;\n"
                             "for (; a[i] != w || i == n; i += 2) {}"),
            Pairs({"a[i] / i != n", "a[i] / i == n"}));
}

TEST(TestOrderTest, ReadsAfterOrWithoutTheirTest) {
  // The right order, a test of another value, a lower bound, a test before
  // the read in the same operand, and a constant index.
  EXPECT_EQ(readsBeforeTests("while (i < n && a[i] < w) ++i;\n"
                             "if (a[i] > 0 && w < n) return;\n"
                             "if (a[i] > 0 && i >= 0) return;\n"
                             "if ((i < n && a[i] > 0) && i < w) return;\n"
                             "if (a[0] > 0 && 0 < n) return;\n"
                             "if (a[i] > 0 || i < n) return;\n"
                             // Inequality that is no end test.
                             "if (a[i] > 0 && i != w) return;\n"
                             "while (a[i] < w && i != n) --i;"),
            Pairs());
}

} // namespace
