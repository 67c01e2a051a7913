//===--- ComparedValuesTest.cpp - Tests of ComparedValues -----------------===//

#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/ExprShape.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

class ComparedValuesTest : public ::testing::Test {
protected:
  /// Parses `__device__ void f(int i, int n, int d) { <Body> }`.
  const ComparedValues &compared(const std::string &Body) {
    Unit = parseCuda("__device__ int min(int a, int b);\n"
                     "__device__ void f(int i, int n, int d) {\n" +
                     Body + "\n}\n");
    Function = findFunction(Unit->getASTContext(), "f");
    Compared.emplace(*Function, Unit->getASTContext());
    return *Compared;
  }
  const clang::VarDecl *param(unsigned Index) {
    return Function->getParamDecl(Index);
  }

  std::unique_ptr<clang::ASTUnit> Unit;
  const clang::FunctionDecl *Function = nullptr;
  std::optional<ComparedValues> Compared;
};

TEST_F(ComparedValuesTest, OrderingComparisonsAndClamps) {
  const ComparedValues &C = compared("if (i >= n) return; int k = min(d, 4);");
  EXPECT_TRUE(C.boundingComparison(param(0)));
  EXPECT_TRUE(C.boundingComparison(param(1)));
  EXPECT_TRUE(C.boundingComparison(param(2)));
  EXPECT_EQ(C.boundedOperands().size(), 4u);
}

TEST_F(ComparedValuesTest, EveryComparisonOfAValueInSourceOrder) {
  const ComparedValues &C =
      compared("if (i >= 1) d = 0; if (i <= n - 2) d = 1; int k = min(i, n);");
  const auto *Ref = clang::DeclRefExpr::Create(
      Unit->getASTContext(), clang::NestedNameSpecifierLoc(),
      clang::SourceLocation(), const_cast<clang::VarDecl *>(param(0)), false,
      clang::SourceLocation(), param(0)->getType(), clang::VK_LValue);
  llvm::SmallVector<const clang::Expr *, 4> All = C.boundingComparisons(Ref);
  ASSERT_EQ(All.size(), 3u);
  EXPECT_EQ(All.front(), C.boundingComparison(param(0)));
  EXPECT_TRUE(llvm::isa<clang::CallExpr>(All.back()));
  // Both operands of each; `d` is never compared.
  EXPECT_EQ(C.boundedOperands().size(), 6u);
  EXPECT_FALSE(C.boundingComparison(param(2)));
}

TEST_F(ComparedValuesTest, EqualityIsNotABound) {
  const ComparedValues &C = compared("if (i == n) return;");
  EXPECT_FALSE(C.boundingComparison(param(0)));
  EXPECT_FALSE(C.boundingComparison(param(1)));
}

TEST_F(ComparedValuesTest, ValuesStrictlyBelowABound) {
  const ComparedValues &C = compared("if (i >= n) return; if (n > d) return;"
                                     "if (n < i) return; if (d <= n) return;");
  auto Below = C.valuesBelow(*param(1));
  // `i >= n` and `n > d` keep `i` and `d` below `n` on one edge; `n < i`
  // and `d <= n` keep `n` below `i` and `d` instead.
  ASSERT_EQ(Below.size(), 2u);
  EXPECT_EQ(Below[0].Value, C.boundedOperands()[0]);
  EXPECT_EQ(Below[1].Value, C.boundedOperands()[3]);
  for (unsigned Other : {0u, 2u}) {
    auto AboveN = C.valuesBelow(*param(Other));
    ASSERT_EQ(AboveN.size(), 1u);
    EXPECT_EQ(asLocalVariable(AboveN[0].Value), param(1));
  }
}

TEST_F(ComparedValuesTest, ZeroTests) {
  const ComparedValues &C =
      compared("if (d == 0) return; if (!n) return; if (i > 1) return;");
  EXPECT_TRUE(C.isZeroTested(param(2)));
  EXPECT_TRUE(C.isZeroTested(param(1)));
  // `i > 1` compares with one, not zero.
  EXPECT_FALSE(C.isZeroTested(param(0)));
  const ComparedValues &Lower = compared("if (d < 1) return;");
  EXPECT_TRUE(Lower.isZeroTested(param(2)));
}

} // namespace
