//===--- DivisorEvidenceTest.cpp - Tests of DivisorEvidence ---------------===//

#include "Analysis/Cuda/DivisorEvidence.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Core/NonZeroAnalysis.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::cuda;
using namespace gpuguard::test;

namespace {

const char *Declarations = R"(
extern __device__ const int warpSize;
struct Config { int count; int sizes[4]; };
template <typename T> struct Info { T *data; int sizes[4]; };
__device__ void use(int);
)";

/// The initialiser of the local `v` in `f`, after \p Code.
class ValueOfV {
public:
  explicit ValueOfV(const std::string &Code)
      : Unit(parseCuda(std::string(Declarations) + Code)) {}
  const clang::Expr *get() {
    if (!Unit)
      return nullptr;
    const clang::FunctionDecl *F = findFunction(Unit->getASTContext(), "f");
    const clang::VarDecl *V = F ? findVariable(*F, "v") : nullptr;
    EXPECT_TRUE(V && V->getInit()) << "no local 'v' in 'f'";
    return V && V->getInit() ? V->getInit()->IgnoreParenImpCasts() : nullptr;
  }

private:
  std::unique_ptr<clang::ASTUnit> Unit;
};

bool launchExtent(const std::string &Value) {
  ValueOfV V("__global__ void f(dim3 d, int n) { int v = " + Value + "; }");
  const clang::Expr *E = V.get();
  return E && isLaunchExtent(E);
}

TEST(DivisorEvidenceTest, LaunchExtentsArePositive) {
  EXPECT_TRUE(launchExtent("blockDim.x"));
  EXPECT_TRUE(launchExtent("gridDim.z"));
  EXPECT_TRUE(launchExtent("warpSize"));
  EXPECT_TRUE(launchExtent("d.y"));
  EXPECT_FALSE(launchExtent("threadIdx.x"));
  EXPECT_FALSE(launchExtent("blockIdx.y"));
  EXPECT_FALSE(launchExtent("n"));
}

std::string nameLoaded(const std::string &Value) {
  ValueOfV V("__global__ void f(const int *counts, Config *cfg, Config s,\n"
             "                  int b) { int v = " +
             Value + "; }");
  const clang::Expr *E = V.get();
  return E ? loadedName(E).str() : "<no value>";
}

TEST(DivisorEvidenceTest, NameOfWhatALoadReads) {
  EXPECT_EQ(nameLoaded("counts[b]"), "counts");
  EXPECT_EQ(nameLoaded("*(counts + b)"), "counts");
  EXPECT_EQ(nameLoaded("*(b + counts)"), "counts");
  EXPECT_EQ(nameLoaded("s.sizes[b]"), "sizes");
  EXPECT_EQ(nameLoaded("cfg->count"), "count");
  EXPECT_EQ(nameLoaded("b * 2"), "");
}

bool elementLoad(const std::string &Value) {
  ValueOfV V("template <typename T>\n"
             "__global__ void f(const int *counts, Config *cfg, Config s,\n"
             "                  const Config &r, Info<T> info, int b) {\n"
             "  int v = " +
             Value + ";\n}\n");
  const clang::Expr *E = V.get();
  return E && isElementLoad(E);
}

TEST(DivisorEvidenceTest, ElementsOfArraysNotOfDescriptors) {
  EXPECT_TRUE(elementLoad("counts[b]"));
  EXPECT_TRUE(elementLoad("*counts"));
  // Through a pointer the array is in memory like any other.
  EXPECT_TRUE(elementLoad("cfg->sizes[b]"));
  // A configuration field, and a descriptor's fixed array reached by value
  // or reference, also in a template, hold a shape set up front.
  EXPECT_FALSE(elementLoad("cfg->count"));
  EXPECT_FALSE(elementLoad("s.sizes[b]"));
  EXPECT_FALSE(elementLoad("r.sizes[b]"));
  EXPECT_FALSE(elementLoad("info.sizes[b]"));
}

TEST(DivisorEvidenceTest, CountWordsOfCamelAndSnakeCase) {
  CountWords Counts("count; num ;NNZ;n");
  EXPECT_TRUE(Counts.isCountName("numValid"));
  EXPECT_TRUE(Counts.isCountName("valid_count"));
  EXPECT_TRUE(Counts.isCountName("nSamples"));
  EXPECT_TRUE(Counts.isCountName("row_nnz"));
  EXPECT_TRUE(Counts.isCountName("COUNT"));
  EXPECT_FALSE(Counts.isCountName("counter"));
  EXPECT_FALSE(Counts.isCountName("numerator"));
  EXPECT_FALSE(Counts.isCountName("stride"));
  EXPECT_FALSE(Counts.isCountName(""));
  EXPECT_FALSE(CountWords("").isCountName("count"));
}

/// The first division of `f` in \p Code, the translation unit's launches
/// in view, and whether any origin of its divisor has evidence of a zero;
/// \p FromLaunch is set when a launch is the evidence.
bool zeroShown(const std::string &Code, bool *FromLaunch = nullptr) {
  auto Unit = parseCuda(std::string(Declarations) + Code);
  if (!Unit)
    return false;
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *F = findFunction(Context, "f");
  const clang::BinaryOperator *Division = F ? findFirstDivision(*F) : nullptr;
  if (!Division) {
    ADD_FAILURE() << "no division in 'f'";
    return false;
  }
  NonZeroAnalysisOptions Options;
  Options.IsKnownPositive = isLaunchExtent;
  NonZeroAnalysis Analysis(*F, Context, Options);
  ComparedValues Compared(*F, Context);
  KernelLaunches Launches(Context);
  CountWords Counts("count;counts;n");
  for (const ZeroSource &Source : Analysis.zeroSourcesOf(Division->getRHS()))
    if (DivisorEvidence Shown = divisorEvidence(
            Source, *Division->getRHS(), *F, Analysis, Compared,
            [&]() -> const KernelLaunches & { return Launches; }, Counts,
            Context)) {
      if (FromLaunch)
        *FromLaunch = Shown.Launch.has_value();
      return true;
    }
  return false;
}

TEST(DivisorEvidenceTest, ZeroTestedElsewhere) {
  EXPECT_TRUE(zeroShown("__device__ void f(int a, int d) {\n"
                        "  if (d == 0) use(0);\n  use(a / d);\n}"));
  // The original tested, a copy divided; a copy tested, a copy of it
  // divided.
  EXPECT_TRUE(zeroShown("__device__ void f(int a, int d) {\n"
                        "  int k = d;\n  if (!d) use(0);\n  use(a / k);\n}"));
  EXPECT_TRUE(zeroShown("__device__ void f(int a, int d) {\n"
                        "  int k = d;\n  int j = k;\n  if (!k) use(0);\n"
                        "  use(a / j);\n}"));
  EXPECT_FALSE(zeroShown("__device__ void f(int a, int d) { use(a / d); }"));
}

TEST(DivisorEvidenceTest, LaunchesThatPassAZero) {
  const char *Kernel =
      "__global__ void f(int *out, int d) { out[0] = 100 / d; }\n";
  bool FromLaunch = false;
  EXPECT_TRUE(zeroShown(std::string(Kernel) +
                            "void host(int *o, int n) { f<<<1, 1>>>(o, n / "
                            "32); }",
                        &FromLaunch));
  EXPECT_TRUE(FromLaunch);
  EXPECT_TRUE(zeroShown(std::string(Kernel) +
                        "void host(int *o) { f<<<1, 1>>>(o, 0); }"));
  EXPECT_FALSE(zeroShown(std::string(Kernel) +
                         "void host(int *o, int n) { f<<<1, 1>>>(o, n); }"));
  // A plain parameter of a device function: what its callers pass.
  EXPECT_FALSE(zeroShown("__device__ void f(int *out, int d) {\n"
                         "  out[0] = 100 / d;\n}\n"));
}

TEST(DivisorEvidenceTest, DifferencesThatMeet) {
  EXPECT_TRUE(zeroShown("__device__ void f(int hi, int lo) {\n"
                        "  use(10 / (hi - lo));\n}"));
  // Zero at one value of `n` only: no likelier than a parameter's zero.
  EXPECT_FALSE(zeroShown("__device__ void f(int n) { use(10 / (n - 1)); }"));
  // Floating point: two loads are data, equal for a constant column.
  EXPECT_TRUE(zeroShown("__device__ void f(const float *hi, const float *lo,\n"
                        "                  float *out, int c) {\n"
                        "  out[c] = 1.0f / (hi[c] - lo[c]);\n}"));
  EXPECT_FALSE(zeroShown("__device__ void f(float x, float *out) {\n"
                         "  out[0] = 1.0f / (x * 2.0f - x);\n}"));
}

TEST(DivisorEvidenceTest, CountsReadFromMemory) {
  EXPECT_TRUE(zeroShown("__device__ void f(const int *counts, int b, int s) {\n"
                        "  use(s / counts[b]);\n}"));
  // Not a count by its name, a configuration field, a descriptor's shape.
  EXPECT_FALSE(zeroShown("__device__ void f(const int *w, int b, int s) {\n"
                         "  use(s / w[b]);\n}"));
  EXPECT_FALSE(zeroShown("__device__ void f(Config *cfg, int s) {\n"
                         "  use(s / cfg->count);\n}"));
  EXPECT_FALSE(zeroShown("__device__ void f(Config cfg, int s, int d) {\n"
                         "  use(s / cfg.sizes[d]);\n}"));
}

} // namespace
