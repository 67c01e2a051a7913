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

const std::string Prelude = std::string(DeviceAllocationDeclarations) + R"(
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
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (!Guard && E->isRelationalOp())
      Guard = E;
    return true;
  }
  std::vector<const clang::ArraySubscriptExpr *> Found;
  /// The first comparison.
  const clang::BinaryOperator *Guard = nullptr;
};

class LaunchReachTest : public ::testing::Test {
protected:
  /// Parses `__global__ void k(float *p, int w) { <Kernel> }` and
  /// `void host(int n, char **argv) { <Host> }`; gives `k` and the first
  /// subscript of `k` whose base is `p`.
  std::pair<const clang::FunctionDecl *, const clang::ArraySubscriptExpr *>
  parse(const std::string &Kernel, const std::string &Host) {
    Unit =
        parseCuda(Prelude + "__global__ void k(float *p, int w) {\n" + Kernel +
                  "\n}\nvoid host(int n, char **argv) {\n" + Host + "\n}\n");
    if (!Unit)
      return {};
    const clang::FunctionDecl *K = findFunction(Unit->getASTContext(), "k");
    Visitor = Subscripts();
    Visitor.TraverseDecl(const_cast<clang::FunctionDecl *>(K));
    for (const clang::ArraySubscriptExpr *E : Visitor.Found) {
      const auto *Base =
          llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreImpCasts());
      if (Base && Base->getDecl()->getName() == "p")
        return {K, E};
    }
    ADD_FAILURE() << "no access through p";
    return {};
  }
  /// How far the launches take that subscript.
  std::optional<ReachPastAllocation> reach(const std::string &Kernel,
                                           const std::string &Host) {
    auto [K, Access] = parse(Kernel, Host);
    if (!Access)
      return std::nullopt;
    clang::ASTContext &Context = Unit->getASTContext();
    KernelLaunches Launches(Context);
    return reachPastAllocation(*K, *Access, *Access->getBase(),
                               *Access->getIdx(), Launches, Context);
  }
  /// Whether the launches keep that subscript inside the allocation, given
  /// the kernel's first comparison as the guard of its left side.
  bool keptInside(const std::string &Kernel, const std::string &Host) {
    auto [K, Access] = parse(Kernel, Host);
    if (!Access || !Visitor.Guard) {
      ADD_FAILURE() << "no guard";
      return false;
    }
    clang::ASTContext &Context = Unit->getASTContext();
    KernelLaunches Launches(Context);
    return guardKeepsInsideAllocation(*K, *Access->getBase(), *Access->getIdx(),
                                      *Visitor.Guard->getLHS(), *Visitor.Guard,
                                      Launches, Context);
  }
  /// The launch that takes that subscript past its allocation at the
  /// largest value the kernel's first comparison lets its left side take.
  std::optional<ReachPastAllocation> guardedReach(const std::string &Kernel,
                                                  const std::string &Host) {
    auto [K, Access] = parse(Kernel, Host);
    if (!Access || !Visitor.Guard) {
      ADD_FAILURE() << "no guard";
      return std::nullopt;
    }
    clang::ASTContext &Context = Unit->getASTContext();
    KernelLaunches Launches(Context);
    return guardedReachPastAllocation(*K, *Access->getBase(), *Access->getIdx(),
                                      *Visitor.Guard->getLHS(), *Visitor.Guard,
                                      Launches, Context);
  }
  /// The fewest elements every launch passes `p` in by.
  std::optional<int64_t> leastOffset(const std::string &Host) {
    auto [K, Access] = parse("p[threadIdx.x] = 0.0f;", Host);
    if (!Access)
      return std::nullopt;
    clang::ASTContext &Context = Unit->getASTContext();
    KernelLaunches Launches(Context);
    return leastLaunchOffset(*K, *Access->getBase(), Launches, Context);
  }
  std::unique_ptr<clang::ASTUnit> Unit;
  Subscripts Visitor;
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

const char *HaloRow = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "if (i < w) p[(i + 1) * 8] = 0.0f;";
const char *HaloLaunch = "k<<<(n + 127) / 128, 128>>>(d, n);";

TEST_F(LaunchReachTest, GuardEnoughForTheAllocation) {
  // Row i + 1 of n + 2 rows, or of n + 1: the last row written is row n.
  EXPECT_TRUE(keptInside(
      HaloRow,
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 2) * 8 * sizeof(float));\n") +
          HaloLaunch));
  EXPECT_TRUE(keptInside(
      HaloRow,
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 1) * 8 * sizeof(float));\n") +
          HaloLaunch));
  // An early exit, and an inclusive guard with room for its bound.
  EXPECT_TRUE(keptInside(
      "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "if (i >= w) return;\np[(i + 1) * 8] = 0.0f;",
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 1) * 8 * sizeof(float));\n") +
          HaloLaunch));
  EXPECT_TRUE(keptInside(
      "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "if (i <= w) p[(i + 1) * 8 + 7] = 0.0f;",
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 2) * 8 * sizeof(float));\n") +
          HaloLaunch));
}

TEST_F(LaunchReachTest, GuardTooWeakForTheAllocation) {
  // n rows: row n is past the end.
  EXPECT_FALSE(keptInside(
      HaloRow,
      std::string(
          "float *d; cudaMalloc((void **)&d, n * 8 * sizeof(float));\n") +
          HaloLaunch));
  // `i <= w` lets row n + 1 through.
  EXPECT_FALSE(keptInside(
      "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "if (i <= w) p[(i + 1) * 8] = 0.0f;",
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 1) * 8 * sizeof(float));\n") +
          HaloLaunch));
  // One launch in view is not every launch: a buffer from outside.
  EXPECT_FALSE(keptInside(
      HaloRow, std::string("float *d; cudaMalloc((void **)&d, (n + 2) * 8 * "
                           "sizeof(float));\n") +
                   HaloLaunch + "\nk<<<1, 128>>>((float *)argv[0], n);"));
  // No launch at all.
  EXPECT_FALSE(keptInside(HaloRow, ""));
  // A part that lowers the index needs its least value.
  EXPECT_FALSE(keptInside(
      "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "if (i < w) p[(w - i) * 8] = 0.0f;",
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 2) * 8 * sizeof(float));\n") +
          HaloLaunch));
  // A count the guard's limit does not read: the samples say nothing.
  EXPECT_FALSE(keptInside(
      HaloRow,
      "int m = atoi(argv[1]);\n"
      "float *d; cudaMalloc((void **)&d, (m + 2) * 8 * sizeof(float));\n"
      "k<<<(n + 127) / 128, 128>>>(d, n);"));
}

TEST_F(LaunchReachTest, GuardedReachAtTheLargestValueTheGuardAllows) {
  // n rows and no halo: where `i` is n - 1, row n starts at the end.
  std::optional<ReachPastAllocation> Past = guardedReach(
      HaloRow,
      std::string(
          "float *d; cudaMalloc((void **)&d, n * 8 * sizeof(float));\n") +
          HaloLaunch);
  ASSERT_TRUE(Past);
  EXPECT_EQ(Past->Sample, 1024);
  EXPECT_EQ(Past->GuardedValue, 1023);
  EXPECT_EQ(Past->Reached, 8192);
  EXPECT_EQ(Past->Count, 8192);
  ASSERT_TRUE(Past->GuardedPart);
  EXPECT_EQ(Past->GuardedPart, Visitor.Guard->getLHS());
  // Halo rows below and above: inside.
  EXPECT_FALSE(guardedReach(
      HaloRow,
      std::string(
          "float *d; cudaMalloc((void **)&d, (n + 2) * 8 * sizeof(float));\n") +
          HaloLaunch));
  // A buffer from outside the launcher says nothing.
  EXPECT_FALSE(guardedReach(HaloRow, "k<<<(n + 127) / 128, 128>>>((float "
                                     "*)argv[0], n);"));
}

TEST_F(LaunchReachTest, LeastOffsetOfEveryLaunch) {
  EXPECT_EQ(leastOffset("float *d;\nk<<<1, 32>>>(d + 3, n);"), 3);
  EXPECT_EQ(leastOffset("float *d;\nk<<<1, 32>>>(&d[4], n);\n"
                        "k<<<1, 32>>>(2 + d, n);"),
            2);
  EXPECT_EQ(leastOffset("float *d;\nk<<<1, 32>>>(d + 3, n);\n"
                        "k<<<1, 32>>>(d, n);"),
            0);
  // An offset that is not a constant, and no launch at all.
  EXPECT_EQ(leastOffset("float *d;\nk<<<1, 32>>>(d + 3, n);\n"
                        "k<<<1, 32>>>(d + n, n);"),
            std::nullopt);
  EXPECT_EQ(leastOffset(""), std::nullopt);
}

} // namespace
