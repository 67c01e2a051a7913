//===--- ResultUseTest.cpp - Tests of ResultUse ---------------------------===//

#include "Analysis/Core/ResultUse.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// Declarations the snippets print with: a printf family and a stream.
constexpr const char *OutputDeclarations = R"cpp(
extern "C" __host__ __device__ int printf(const char *, ...);
extern "C" __host__ __device__ int sprintf(char *, const char *, ...);
__host__ __device__ int logf(const char *, float);
namespace std {
template <class C> struct basic_ostream {
  __host__ __device__ basic_ostream &operator<<(float);
  __host__ __device__ basic_ostream &operator<<(int);
};
typedef basic_ostream<char> ostream;
struct ofstream : basic_ostream<char> {};
} // namespace std
struct Sink {
  __host__ __device__ Sink &operator<<(float);
};
)cpp";

/// Parses `__host__ __device__ void f(...) { <Body> }` and asks whether its
/// first division is only formatted for output.
class ResultUseTest : public ::testing::Test {
protected:
  bool firstDivisionIsOnlyFormatted(const std::string &Body) {
    Unit = parseCuda(std::string(OutputDeclarations) +
                     "__host__ __device__ void f(float a, float b, int *out, "
                     "float *v, std::ostream &os, std::ofstream &file, Sink "
                     "&sink, char *buf) {\n" +
                     Body + "\n}\n");
    if (!Unit)
      return false;
    clang::ASTContext &Context = Unit->getASTContext();
    const clang::BinaryOperator *Division =
        findFirstDivision(*findFunction(Context, "f"));
    EXPECT_TRUE(Division);
    return Division && isOnlyFormatted(*Division, Context, Kind);
  }
  std::unique_ptr<clang::ASTUnit> Unit;
  FormattedValue Kind = FormattedValue::FloatingPoint;
};

TEST_F(ResultUseTest, PrintedQuotientsAreOnlyFormatted) {
  EXPECT_TRUE(firstDivisionIsOnlyFormatted("printf(\"%f\", a / b);"));
  // A percentage of elapsed times, through casts and arithmetic.
  EXPECT_TRUE(firstDivisionIsOnlyFormatted(
      "printf(\"%d %5.2f%%\", 1, (float)(a - 1) / (float)(b - 2) * 100);"));
  EXPECT_TRUE(
      firstDivisionIsOnlyFormatted("sprintf(buf, \"%f\", -(a / b) + 1);"));
  EXPECT_TRUE(
      firstDivisionIsOnlyFormatted("printf(\"%f\", a > 0 ? a / b : 0.0f);"));
  EXPECT_TRUE(firstDivisionIsOnlyFormatted("os << a / b;"));
  EXPECT_TRUE(firstDivisionIsOnlyFormatted("file << a / b;"));
}

TEST_F(ResultUseTest, ArithmeticValuesOnlyFormatted) {
  // An integer quotient printed through integer arithmetic: not followed
  // for floating-point values, followed for any arithmetic value.
  const char *Printed = "printf(\"%d\", (int)a / 1000 + 1);";
  EXPECT_FALSE(firstDivisionIsOnlyFormatted(Printed));
  Kind = FormattedValue::Arithmetic;
  EXPECT_TRUE(firstDivisionIsOnlyFormatted(Printed));
  EXPECT_TRUE(firstDivisionIsOnlyFormatted("printf(\"%f\", a / b);"));
  // Still not when it is stored or indexes.
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("out[0] = (int)a / 2;"));
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("printf(\"%f\", v[(int)a / 2]);"));
}

TEST_F(ResultUseTest, PrintCalls) {
  auto Unit = parseCuda(std::string(OutputDeclarations) +
                        "__host__ __device__ void f(float a, std::ostream &os, "
                        "Sink &sink) {\n"
                        "  printf(\"%f\", a);\n  os << a;\n  sink << a;\n"
                        "  logf(\"%f\", a);\n}\n");
  ASSERT_TRUE(Unit);
  const auto *Body = llvm::cast<clang::CompoundStmt>(
      findFunction(Unit->getASTContext(), "f")->getBody());
  std::vector<bool> Prints;
  for (const clang::Stmt *S : Body->body())
    Prints.push_back(isPrintCall(*llvm::cast<clang::Expr>(S)));
  EXPECT_EQ(Prints, (std::vector<bool>{true, true, false, false}));
}

TEST_F(ResultUseTest, UsedQuotientsAreNotOnlyFormatted) {
  // Stored, converted to an integer, used as a condition, or given to a
  // function that is not a printf, or to a stream that is not std's.
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("v[0] = a / b;"));
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("printf(\"%d\", (int)(a / b));"));
  EXPECT_FALSE(
      firstDivisionIsOnlyFormatted("printf(\"%f\", v[(int)(a / b)]);"));
  EXPECT_FALSE(
      firstDivisionIsOnlyFormatted("printf(\"%d\", a / b > 1.0f ? 1 : 0);"));
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("logf(\"q\", a / b);"));
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("sink << a / b;"));
  EXPECT_FALSE(firstDivisionIsOnlyFormatted("float q = a / b;\n"
                                            "printf(\"%f\", q);"));
}

TEST_F(ResultUseTest, DiscardedAndUsedValues) {
  Unit = parseCuda("__device__ int g();\n"
                   "__device__ void f(int *out) {\n"
                   "  g();\n"
                   "  (void)g();\n"
                   "  out[0] = g();\n"
                   "}\n");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  struct CallFinder : clang::RecursiveASTVisitor<CallFinder> {
    std::vector<const clang::CallExpr *> Calls;
    bool VisitCallExpr(clang::CallExpr *Call) {
      Calls.push_back(Call);
      return true;
    }
  } Finder;
  Finder.TraverseStmt(
      const_cast<clang::Stmt *>(findFunction(Context, "f")->getBody()));
  ASSERT_EQ(Finder.Calls.size(), 3u);
  EXPECT_EQ(getResultUse(*Finder.Calls[0], Context), ResultUse::Discarded);
  EXPECT_EQ(getResultUse(*Finder.Calls[1], Context),
            ResultUse::DiscardedByVoidCast);
  EXPECT_EQ(getResultUse(*Finder.Calls[2], Context), ResultUse::Used);
}

} // namespace
