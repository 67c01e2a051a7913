//===--- FloatConversionsTest.cpp - Tests of FloatConversions -------------===//

#include "Analysis/Core/FloatConversions.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// Parses `__device__ void f(float a, float b, int *out) { <Body> }` and
/// returns the lines, counted from the signature, of the conversions its
/// first division feeds.
class FloatConversionsTest : public ::testing::Test {
protected:
  std::vector<unsigned> linesFedByDivision(const std::string &Body) {
    Unit = parseCuda("__device__ void f(float a, float b, int *out) {\n" +
                     Body + "\n}\n");
    if (!Unit)
      return {};
    clang::ASTContext &Context = Unit->getASTContext();
    const clang::FunctionDecl *Function = findFunction(Context, "f");
    const clang::BinaryOperator *Division = findFirstDivision(*Function);
    if (!Division)
      return {};
    const clang::SourceManager &Sources = Context.getSourceManager();
    unsigned Signature =
        Sources.getSpellingLineNumber(Function->getBody()->getBeginLoc());
    std::vector<unsigned> Lines;
    for (const FloatToIntegerConversion &Conversion :
         conversionsFedBy(*Division, *Function->getBody()))
      Lines.push_back(Sources.getSpellingLineNumber(Conversion.Loc) -
                      Signature);
    return Lines;
  }
  std::unique_ptr<clang::ASTUnit> Unit;
};

TEST_F(FloatConversionsTest, DirectConversions) {
  // The implicit conversion of the store; other values' conversions are not
  // fed by the division.
  EXPECT_EQ(linesFedByDivision("out[0] = a / b;\n"
                               "out[1] = static_cast<int>(a * b);\n"
                               "out[2] = (int)(a / b + a);"),
            (std::vector<unsigned>{1}));
}

TEST_F(FloatConversionsTest, ThroughFloatingLocals) {
  EXPECT_EQ(linesFedByDivision("float q = a / b;\n"
                               "float r = q + 1.0f;\n"
                               "out[0] = r;\n"
                               "out[1] = a;"),
            (std::vector<unsigned>{3}));
}

TEST_F(FloatConversionsTest, IntegerLocalsEndTheFlow) {
  // `i` already holds an integer: the conversion happened at its definition.
  EXPECT_EQ(linesFedByDivision("int i = a / b;\n"
                               "out[0] = i;"),
            (std::vector<unsigned>{1}));
}

TEST_F(FloatConversionsTest, ExplicitCastIsOneConversion) {
  EXPECT_TRUE(getFloatToIntegerConversion(nullptr) == std::nullopt);
  EXPECT_EQ(linesFedByDivision("out[0] = (long)(int)(a / b);"),
            (std::vector<unsigned>{1}));
}

} // namespace
