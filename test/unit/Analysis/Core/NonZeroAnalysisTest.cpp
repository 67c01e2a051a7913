//===--- NonZeroAnalysisTest.cpp ------------------------------------------===//

#include "Analysis/Core/NonZeroAnalysis.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

const char *Signature = "__global__ void kernel(int *out, const int *a, int n, "
                        "int m, int hi, int lo, float x, float y) {\n";

bool isDivision(const clang::Stmt *S) {
  const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(S);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case clang::BO_Div:
  case clang::BO_Rem:
  case clang::BO_DivAssign:
  case clang::BO_RemAssign:
    return true;
  default:
    return false;
  }
}

/// Source lines of the divisions in `kernel` whose divisor is not proven
/// non-zero, numbered from the first line of \p Body.
std::vector<unsigned> unprovenLines(const std::string &Body,
                                    NonZeroAnalysisOptions Options = {},
                                    const std::string &Declarations = "") {
  auto Unit = parseCuda(Declarations + Signature + Body + "\n}\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  if (!Function)
    return {};
  NonZeroAnalysis Analysis(*Function, Context, std::move(Options));
  std::vector<unsigned> Lines;
  Analysis.forEachReachable(
      [&](const clang::Stmt *S, const NonZeroFacts &Facts) {
        if (!isDivision(S))
          return;
        const auto *Division = llvm::cast<clang::BinaryOperator>(S);
        if (!Analysis.isNonZero(Division->getRHS(), Facts))
          Lines.push_back(lineInBody(*Function, Division->getOperatorLoc()));
      });
  llvm::sort(Lines);
  return Lines;
}

using Lines = std::vector<unsigned>;

TEST(NonZeroAnalysisTest, ParameterIsNotProven) {
  EXPECT_EQ(unprovenLines("out[0] = 1 / n;\n"
                          "out[1] = 1 % a[0];"),
            Lines({1, 2}));
}

TEST(NonZeroAnalysisTest, ComparisonsWithConstants) {
  EXPECT_EQ(unprovenLines("if (n != 0) out[0] = 1 / n;\n"
                          "if (n > 0) out[1] = 1 / n;\n"
                          "if (0 < n) out[2] = 1 / n;\n"
                          "if (n >= 1) out[3] = 1 / n;\n"
                          "if (n < 0) out[4] = 1 / n;\n"
                          "if (n == 3) out[5] = 1 / n;\n"
                          "if (n >= 0) out[6] = 1 / n;\n"
                          "if (n <= 1) out[7] = 1 / n;\n"
                          "if (x > 0.5f) out[8] = 1 / x;\n"
                          "if (x >= 0.0f) out[9] = 1 / x;"),
            Lines({7, 8, 10}));
}

TEST(NonZeroAnalysisTest, EarlyExitsAndNegations) {
  EXPECT_EQ(unprovenLines("if (n == 0) return;\n"
                          "out[0] = 1 / n;\n"
                          "if (!(m > 0)) return;\n"
                          "out[1] = 1 / m;\n"
                          "if (!hi) return;\n"
                          "out[2] = 1 / hi;"),
            Lines());
}

TEST(NonZeroAnalysisTest, TernariesConjunctionsAndAssert) {
  EXPECT_EQ(unprovenLines("out[0] = n > 0 ? 1 / n : 0;\n"
                          "out[1] = n > 0 ? 0 : 1 / n;\n"
                          "if (n != 0 && m != 0) out[2] = 1 / n + 1 / m;\n"
                          "if (n != 0 || m != 0) out[3] = 1 / n;\n"
                          "if (n == 0 || m == 0) return;\n"
                          "out[4] = 1 / n + 1 / m;\n"
                          "assert(hi != 0);\n"
                          "out[5] = 1 / hi;"),
            Lines({2, 4}));
}

TEST(NonZeroAnalysisTest, JoinKeepsWhatEveryPathImplies) {
  EXPECT_EQ(unprovenLines("int d;\n"
                          "if (m > 0) d = 4; else { if (n == 0) return; d = n; "
                          "}\n"
                          "out[0] = 1 / d;\n"
                          "int e = n;\n"
                          "if (m > 0) e = 1;\n"
                          "out[1] = 1 / e;"),
            Lines({6}));
}

TEST(NonZeroAnalysisTest, ReassignmentEndsAFact) {
  EXPECT_EQ(unprovenLines("if (n == 0) return;\n"
                          "n = a[0];\n"
                          "out[0] = 1 / n;\n"
                          "if (m > 0) { --m; out[1] = 1 / m; }\n"
                          "if (m > 0) { ++m; out[2] = 1 / m; }\n"
                          "if (hi == 0) return;\n"
                          "int *p = &hi;\n"
                          "*p = 0;\n"
                          "out[3] = 1 / hi;"),
            Lines({3, 4, 9}));
}

TEST(NonZeroAnalysisTest, StoresEndFactsAboutMemory) {
  EXPECT_EQ(unprovenLines("if (a[n] == 0) return;\n"
                          "out[0] = 1 / a[n];\n"
                          "out[1] = 1 / a[m];\n"
                          "if (out[n] == 0) return;\n"
                          "out[2] = 1 / out[n];\n"
                          "out[n] = m;\n"
                          "out[3] = 1 / out[n];"),
            Lines({3, 7}));
}

TEST(NonZeroAnalysisTest, Differences) {
  EXPECT_EQ(unprovenLines("out[0] = 1 / (hi - lo);\n"
                          "if (hi > lo) out[1] = 1 / (hi - lo);\n"
                          "if (lo < hi) out[2] = 1 / (lo - hi);\n"
                          "if (hi != lo) out[3] = 1 / (hi - lo);\n"
                          "if (hi >= lo) out[4] = 1 / (hi - lo);\n"
                          "if (n > 1) out[5] = 1 / (n - 1);\n"
                          "if (n >= 2) out[6] = 1 / (n - 1);\n"
                          "if (n > 0) out[7] = 1 / (n - 1);\n"
                          "if (n != 1) out[8] = 1 / (1 - n);"),
            Lines({1, 5, 8}));
}

TEST(NonZeroAnalysisTest, ValuesNonZeroByTheirForm) {
  EXPECT_EQ(unprovenLines("out[0] = 1 / max(n, 1);\n"
                          "out[1] = 1 / max(n, 0);\n"
                          "out[2] = 1 / (n | 1);\n"
                          "out[3] = 1 / (n & 1);\n"
                          "out[4] = 1 / (n < 1 ? 1 : n);\n"
                          "out[5] = 1 / (n < 0 ? 1 : n);\n"
                          "out[6] = 1 / (n == 0 ? 1 : n);\n"
                          "out[7] = 1 / (n + 1);\n"
                          "out[8] = 1 / (abs(n) + 1);\n"
                          "out[9] = 1 / (int)sizeof(float);\n"
                          "x = 1 / (y + 1e-6f);\n"
                          "x = 1 / (1e-6f + y);\n"
                          "x = 1 / (y - 1e-6f);\n"
                          "x = 1 / fmaxf(y, 1e-6f);",
                          {},
                          "__device__ int abs(int);\n"
                          "__device__ float fmaxf(float, float);\n"),
            Lines({2, 4, 6, 8, 13}));
}

TEST(NonZeroAnalysisTest, AssignmentsOfClampedValues) {
  EXPECT_EQ(unprovenLines("n = max(n, 1);\n"
                          "out[0] = 1 / n;\n"
                          "m |= 1;\n"
                          "out[1] = 1 / m;\n"
                          "y += 1e-6f;\n"
                          "x = 1 / y;\n"
                          "hi = max(hi, 0);\n"
                          "out[2] = 1 / hi;"),
            Lines({8}));
}

TEST(NonZeroAnalysisTest, CountersBoundTheLoopExtent) {
  EXPECT_EQ(unprovenLines("for (int i = 0; i < n; ++i)\n"
                          "  out[i] = 1 / n;\n"
                          "out[0] = 1 / n;\n"
                          "for (int j = m; j < hi; ++j)\n"
                          "  out[j] = 1 / hi;\n"
                          "unsigned t = threadIdx.x;\n"
                          "if (t < lo) out[t] = 1 / lo;"),
            Lines({3, 5}));
}

TEST(NonZeroAnalysisTest, LoopsOverARangeHaveALength) {
  // Inside `for (k = lo; k < hi; ++k)` the range [lo, hi) is not empty;
  // after the loop, or once k was reset, or when k may go down, it may be.
  EXPECT_EQ(unprovenLines("for (int k = lo; k < hi; ++k)\n"
                          "  out[k] = 1 / (hi - lo);\n"
                          "out[0] = 1 / (hi - lo);\n"
                          "for (int k = a[n]; k < a[n + 1]; k += 2)\n"
                          "  out[k] = 1 / (a[n + 1] - a[n]);\n"
                          "for (int k = lo; hi > k; k++)\n"
                          "  out[k] = 1 / (lo - hi);\n"
                          "for (int k = lo; k < hi; --k)\n"
                          "  out[k] = 1 / (hi - lo);\n"
                          "for (int k = lo; k < hi; ++k) {\n"
                          "  lo = m;\n"
                          "  out[k] = 1 / (hi - lo);\n"
                          "}\n"
                          "for (int k = lo; k <= hi; ++k)\n"
                          "  out[k] = 1 / (hi - lo);\n"
                          "int k = lo;\n"
                          "k = m;\n"
                          "if (k < hi) out[0] = 1 / (hi - lo);\n"
                          // A local holding the length is the length.
                          "int len = hi - lo;\n"
                          "for (int e = lo; e < hi; ++e)\n"
                          "  out[e] = 1 / len;\n"
                          "out[0] = 1 / len;\n"
                          "for (int e = lo; e < hi; ++e) {\n"
                          "  len = n;\n"
                          "  out[e] = 1 / len;\n"
                          "}"),
            Lines({3, 9, 12, 15, 18, 22, 25}));
}

TEST(NonZeroAnalysisTest, ClientKnownPositiveValues) {
  const char *Body = "out[0] = 1 / extent;\n"
                     "out[1] = 1 / (extent * 2);\n"
                     "int e = extent;\n"
                     "out[2] = 1 / e;\n"
                     "out[3] = 1 / (extent - 1);";
  const char *Declarations = "__device__ int extent;\n";
  EXPECT_EQ(unprovenLines(Body, {}, Declarations), Lines({1, 2, 4, 5}));
  NonZeroAnalysisOptions Options;
  Options.IsKnownPositive = [](const clang::Expr *E) {
    const auto *Ref =
        llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl()->getName() == "extent";
  };
  EXPECT_EQ(unprovenLines(Body, Options, Declarations), Lines({5}));
}

TEST(NonZeroAnalysisTest, TemplateConstants) {
  auto Unit = parseCuda("template <int W, typename T>\n"
                        "__global__ void kernel(int *out, T *t, int n) {\n"
                        "  out[0] = n / W;\n"
                        "  out[1] = n / (W * 2);\n"
                        "  out[2] = n / (int)sizeof(T);\n"
                        "  out[3] = n / n;\n"
                        "  t[0] = t[1] / t[2];\n"
                        "}\n");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  ASSERT_TRUE(Function);
  NonZeroAnalysis Analysis(*Function, Context);
  std::vector<bool> Proven;
  Analysis.forEachReachable(
      [&](const clang::Stmt *S, const NonZeroFacts &Facts) {
        if (isDivision(S))
          Proven.push_back(Analysis.isNonZero(
              llvm::cast<clang::BinaryOperator>(S)->getRHS(), Facts));
      });
  EXPECT_EQ(Proven, std::vector<bool>({true, true, true, false, false}));
}

TEST(NonZeroAnalysisTest, DependentInitialisersOfClassTypes) {
  // `Holder<T> h(n, T(1))` keeps its arguments in a list without a type.
  auto Unit = parseCuda("template <typename T> struct Holder { "
                        "__device__ Holder(int, T); };\n"
                        "template <typename T>\n"
                        "__device__ int kernel(int n) {\n"
                        "  Holder<T> h(n, T(1));\n"
                        "  T acc(0);\n"
                        "  return n / n;\n"
                        "}\n");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  ASSERT_TRUE(Function);
  NonZeroAnalysis Analysis(*Function, Context);
  unsigned Unproven = 0;
  Analysis.forEachReachable(
      [&](const clang::Stmt *S, const NonZeroFacts &Facts) {
        if (isDivision(S) &&
            !Analysis.isNonZero(llvm::cast<clang::BinaryOperator>(S)->getRHS(),
                                Facts))
          ++Unproven;
      });
  EXPECT_EQ(Unproven, 1u);
}

std::string inKernel(const std::string &Body) {
  return std::string(Signature) + Body + "\n}\n";
}

/// The zero sources of the divisors of the divisions in the function
/// `kernel` of \p Code.
struct SourcesOf {
  std::unique_ptr<clang::ASTUnit> Unit;
  llvm::SmallVector<ZeroSource, 1> Sources;

  explicit SourcesOf(const std::string &Code) {
    Unit = parseCuda(Code);
    if (!Unit)
      return;
    clang::ASTContext &Context = Unit->getASTContext();
    const clang::FunctionDecl *Function = findFunction(Context, "kernel");
    if (!Function)
      return;
    NonZeroAnalysis Analysis(*Function, Context);
    Analysis.forEachReachable([&](const clang::Stmt *S, const NonZeroFacts &) {
      if (isDivision(S))
        Sources.append(Analysis.zeroSourcesOf(
            llvm::cast<clang::BinaryOperator>(S)->getRHS()));
    });
  }
};

TEST(NonZeroAnalysisTest, SourcesOfPossiblyZeroValues) {
  SourcesOf Parameter(inKernel("out[0] = 1 / n;"));
  ASSERT_EQ(Parameter.Sources.size(), 1u);
  EXPECT_EQ(Parameter.Sources[0].Kind, ZeroSource::Parameter);
  EXPECT_TRUE(Parameter.Sources[0].Copies.empty());

  SourcesOf Load(inKernel("out[0] = 1 / -a[n];"));
  ASSERT_EQ(Load.Sources.size(), 1u);
  EXPECT_EQ(Load.Sources[0].Kind, ZeroSource::Load);

  SourcesOf Either(inKernel("out[0] = 1 / (m > 0 ? n : a[0]);"));
  ASSERT_EQ(Either.Sources.size(), 2u);
  EXPECT_EQ(Either.Sources[0].Kind, ZeroSource::Parameter);
  EXPECT_EQ(Either.Sources[1].Kind, ZeroSource::Load);

  SourcesOf Members("struct Shape { int n; };\n"
                    "__device__ int kernel(Shape p, const Shape *q) {\n"
                    "  Shape s = *q;\n"
                    "  return 1 / p.n + 1 / q->n + 1 / s.n;\n"
                    "}\n");
  ASSERT_EQ(Members.Sources.size(), 3u);
  EXPECT_EQ(Members.Sources[0].Kind, ZeroSource::Parameter);
  EXPECT_EQ(Members.Sources[1].Kind, ZeroSource::Load);
  EXPECT_EQ(Members.Sources[2].Kind, ZeroSource::Load);

  SourcesOf Neither(inKernel("int k = 3;\n"
                             "out[0] = 1 / (n + 1) + 1 / max(n, m) + 1 / k;"));
  EXPECT_TRUE(Neither.Sources.empty());
}

TEST(NonZeroAnalysisTest, SourcesThroughLocalCopies) {
  SourcesOf Copies(inKernel("int range = hi - lo;\n"
                            "int w = range;\n"
                            "out[0] = 1 / w;"));
  ASSERT_EQ(Copies.Sources.size(), 1u);
  const ZeroSource &Source = Copies.Sources[0];
  EXPECT_EQ(Source.Kind, ZeroSource::Difference);
  ASSERT_EQ(Source.Copies.size(), 2u);
  EXPECT_EQ(Source.Copies[0].Var->getName(), "w");
  EXPECT_EQ(Source.Copies[1].Var->getName(), "range");
  EXPECT_TRUE(
      llvm::isa<clang::BinaryOperator>(Source.Origin->IgnoreParenImpCasts()));

  SourcesOf Subtracted(inKernel("int d = 8;\n"
                                "d -= m;\n"
                                "out[0] = 1 / d;"));
  ASSERT_EQ(Subtracted.Sources.size(), 1u);
  EXPECT_EQ(Subtracted.Sources[0].Kind, ZeroSource::Difference);
}

} // namespace
