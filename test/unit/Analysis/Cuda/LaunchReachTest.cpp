//===--- LaunchReachTest.cpp - Tests of LaunchReach -----------------------===//

#include "Analysis/Cuda/LaunchReach.h"
#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::cuda;
using namespace gpuguard::test;

namespace {

constexpr const char *Prelude = R"(
typedef unsigned long size_t;
typedef int cudaError_t;
cudaError_t cudaMalloc(void **p, size_t bytes);
int atoi(const char *text);
int rows, cols;
)";

/// The subscripts of a function, in source order.
class Subscripts : public clang::RecursiveASTVisitor<Subscripts> {
public:
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    Found.push_back(E);
    return true;
  }
  std::vector<const clang::ArraySubscriptExpr *> Found;
};

class LaunchReachTest : public ::testing::Test {
protected:
  /// Parses `__global__ void k(float *p, int w) { <Kernel> }` and
  /// `void host(int n, char **argv) { <Host> }`, and asks how far the
  /// launches take the first subscript of `k` whose base is `p`.
  std::optional<ReachPastAllocation> reach(const std::string &Kernel,
                                           const std::string &Host) {
    Unit = parseCuda(std::string(Prelude) +
                     "__global__ void k(float *p, int w) {\n" + Kernel +
                     "\n}\nvoid host(int n, char **argv) {\n" + Host + "\n}\n");
    if (!Unit)
      return std::nullopt;
    clang::ASTContext &Context = Unit->getASTContext();
    const clang::FunctionDecl *K = findFunction(Context, "k");
    Subscripts Visitor;
    Visitor.TraverseDecl(const_cast<clang::FunctionDecl *>(K));
    KernelLaunches Launches(Context);
    for (const clang::ArraySubscriptExpr *E : Visitor.Found) {
      const auto *Base =
          llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreImpCasts());
      if (Base && Base->getDecl()->getName() == "p")
        return reachPastAllocation(*K, *E, *E->getBase(), *E->getIdx(),
                                   Launches, Context);
    }
    ADD_FAILURE() << "no access through p";
    return std::nullopt;
  }
  std::unique_ptr<clang::ASTUnit> Unit;
};

const char *NextElement = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "p[i + 1] = 0.0f;";

TEST_F(LaunchReachTest, OneElementPastAnExactGrid) {
  std::optional<ReachPastAllocation> Past = reach(
      NextElement, "float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                   "k<<<n / 256, 256>>>(d, n);");
  ASSERT_TRUE(Past);
  EXPECT_EQ(Past->Sample, 1024);
  EXPECT_EQ(Past->Count, 1024);
  EXPECT_EQ(Past->Reached, 1024);
  EXPECT_EQ(Past->Block[0], 3);
  EXPECT_EQ(Past->Thread[0], 255);
  EXPECT_EQ(Past->Dimensions, 1u);
  ASSERT_EQ(Past->Sampled.size(), 1u);
  EXPECT_EQ(Past->Sampled.front()->getName(), "n");
}

TEST_F(LaunchReachTest, RoomForTheElement) {
  EXPECT_FALSE(
      reach(NextElement,
            "float *d; cudaMalloc((void **)&d, (n + 1) * sizeof(float));\n"
            "k<<<n / 256, 256>>>(d, n);"));
  // A grid of one block fewer.
  EXPECT_FALSE(reach(NextElement,
                     "float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                     "k<<<n / 256 - 1, 256>>>(d, n);"));
}

TEST_F(LaunchReachTest, TwoDimensionsThroughLocalsAndGlobals) {
  const char *Kernel =
      "int below = w * 16 * blockIdx.y + 16 * blockIdx.x + w * 16 + "
      "threadIdx.x;\n"
      "p[below] = 0.0f;";
  const char *Host =
      "rows = atoi(argv[1]);\n"
      "cols = atoi(argv[2]);\n"
      "int size = rows * cols;\n"
      "float *d; cudaMalloc((void **)&d, size * sizeof(float));\n"
      "dim3 grid(cols / 16, rows / 16);\n"
      "k<<<grid, dim3(16, 16)>>>(d, cols);";
  std::optional<ReachPastAllocation> Past = reach(Kernel, Host);
  ASSERT_TRUE(Past);
  EXPECT_EQ(Past->Count, 1024 * 1024);
  EXPECT_EQ(Past->Reached, 1024 * 1024 + 1023);
  EXPECT_EQ(Past->Block[1], 63);
  EXPECT_EQ(Past->Dimensions, 2u);
  EXPECT_EQ(Past->Sampled.size(), 2u);
}

TEST_F(LaunchReachTest, UncertainStepsProveNothing) {
  const char *Exact = "float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                      "k<<<n / 256, 256>>>(d, n);";
  ASSERT_TRUE(reach(NextElement, Exact));
  // Not on every thread: under a branch, after a return, in a short
  // circuit or a conditional operator.
  EXPECT_FALSE(reach("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "if (w > 8) p[i + 1] = 0.0f;",
                     Exact));
  EXPECT_FALSE(reach("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "if (w > 8) return;\np[i + 1] = 0.0f;",
                     Exact));
  EXPECT_FALSE(reach("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "float v = w > 8 ? p[i + 1] : 0.0f;",
                     Exact));
  // Not linear in the thread's coordinates.
  EXPECT_FALSE(reach("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "p[(i * i) % 7 + i] = 0.0f;",
                     Exact));
  // Counts the launcher does not compute: a byte count beside an element
  // count, a size from a call, an allocation made twice.
  EXPECT_FALSE(reach(NextElement,
                     "float *d; cudaMalloc((void **)&d, atoi(argv[1]));\n"
                     "k<<<n / 256, 256>>>(d, n);"));
  EXPECT_FALSE(reach(NextElement,
                     "int m = atoi(argv[1]);\n"
                     "float *d; cudaMalloc((void **)&d, m * sizeof(float));\n"
                     "k<<<n / 256, 256>>>(d, n);"));
  EXPECT_FALSE(reach(NextElement,
                     "float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                     "cudaMalloc((void **)&d, n * 2 * sizeof(float));\n"
                     "k<<<n / 256, 256>>>(d, n);"));
  // A count changed on the way.
  EXPECT_FALSE(reach(NextElement,
                     "int m = n; m += 1;\n"
                     "float *d; cudaMalloc((void **)&d, m * sizeof(float));\n"
                     "k<<<n / 256, 256>>>(d, n);"));
}

} // namespace
