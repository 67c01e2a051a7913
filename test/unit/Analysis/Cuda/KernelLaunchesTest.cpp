//===--- KernelLaunchesTest.cpp - Tests of KernelLaunches, LaunchArguments ===//

#include "Analysis/Cuda/KernelLaunches.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/LaunchArguments.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::cuda;
using namespace gpuguard::test;

namespace {

constexpr const char *Prelude = R"(
[[noreturn]] void fail();
#define host_assert(c) ((c) ? (void)0 : fail())
int ceil_div(int a, int b) { return (a + b - 1) / b; }
__global__ void kernel(float *p, int n) {}
)";

class KernelLaunchesTest : public ::testing::Test {
protected:
  /// Parses the prelude and `void host(int n, int m) { <Body> }`.
  void parse(const std::string &Body) {
    Unit = parseCuda(std::string(Prelude) +
                     "void host(float *p, int n, int m) {\n" + Body + "\n}\n");
    ASSERT_TRUE(Unit);
    Launches = std::make_unique<KernelLaunches>(Unit->getASTContext());
  }
  const clang::FunctionDecl &kernel() {
    return *findFunction(Unit->getASTContext(), "kernel");
  }
  /// Whether each launch of the kernel, in order, has a rounded-up grid.
  std::vector<bool> roundedUp() {
    std::vector<bool> Result;
    for (const KernelLaunch &Launch : Launches->of(kernel()))
      Result.push_back(Launch.RoundedUpExtent != nullptr);
    return Result;
  }
  /// Whether each launch of the kernel has a configuration no device rejects.
  std::vector<bool> fixed() {
    std::vector<bool> Result;
    for (const KernelLaunch &Launch : Launches->of(kernel()))
      Result.push_back(hasFixedValidConfiguration(
          *llvm::cast<clang::CUDAKernelCallExpr>(Launch.Site),
          Unit->getASTContext()));
    return Result;
  }
  std::optional<ZeroArgument> zeroArgument() {
    const clang::FunctionDecl &Kernel = kernel();
    return zeroArgumentFor(Kernel, *Kernel.getParamDecl(1), *Launches,
                           Unit->getASTContext());
  }

  std::unique_ptr<clang::ASTUnit> Unit;
  std::unique_ptr<KernelLaunches> Launches;
};

TEST_F(KernelLaunchesTest, RoundedUpGrids) {
  parse("kernel<<<(n + 255) / 256, 256>>>(p, n);\n"
        "kernel<<<(n + m - 1) / m, m>>>(p, n);\n"
        "int blocks = ceil_div(n, 128);\n"
        "kernel<<<blocks, 128>>>(p, n);\n"
        "dim3 grid(n / 16 + (n % 16 != 0), 4);\n"
        "kernel<<<grid, dim3(16, 16)>>>(p, n);\n"
        "kernel<<<n / 256, 256>>>(p, n);\n"
        "kernel<<<64, 256>>>(p, n);");
  EXPECT_EQ(roundedUp(),
            (std::vector<bool>{true, true, true, true, false, false}));
}

// Which of the grid's dimensions are rounded up: a dim3's arguments each in
// their place, an integer grid along x.
TEST_F(KernelLaunchesTest, RoundedUpDimensions) {
  parse("kernel<<<(n + 255) / 256, 256>>>(p, n);\n"
        "kernel<<<dim3(m, (n + 511) / 512, 1), dim3(1, 256, 1)>>>(p, n);\n"
        "dim3 grid(ceil_div(n, 16), ceil_div(m, 16));\n"
        "kernel<<<grid, dim3(16, 16)>>>(p, n);\n"
        "dim3 copy = dim3(m, 2, ceil_div(n, 4));\n"
        "kernel<<<copy, 4>>>(p, n);\n"
        "kernel<<<n / 256, 256>>>(p, n);");
  std::vector<unsigned> Dimensions;
  for (const KernelLaunch &Launch : Launches->of(kernel()))
    Dimensions.push_back(Launch.RoundedUpDimensions);
  EXPECT_EQ(Dimensions, (std::vector<unsigned>{1, 2, 3, 4, 0}));
  EXPECT_EQ(Launches->firstRoundedUpLaunch(kernel(), 4),
            &Launches->of(kernel())[3]);
  EXPECT_FALSE(Launches->firstRoundedUpLaunch(kernel(), 0));
}

// The extent expressions of each launch's grid, as source text.
TEST_F(KernelLaunchesTest, ConfigurationExtents) {
  parse("kernel<<<n / 256, 256>>>(p, n);\n"
        "dim3 grid(n, m);\n"
        "kernel<<<grid, 1>>>(p, n);\n"
        "const dim3 copy = grid;\n"
        "kernel<<<copy, 1>>>(p, n);\n"
        "dim3 changed(n);\n"
        "changed.y = m;\n"
        "kernel<<<changed, 1>>>(p, n);");
  std::vector<std::string> Found;
  for (const KernelLaunch &Launch : Launches->of(kernel())) {
    const auto *Call = llvm::cast<clang::CUDAKernelCallExpr>(Launch.Site);
    std::optional<llvm::SmallVector<const clang::Expr *, 3>> Extents =
        configurationExtents(Call->getConfig()->getArg(0),
                             Unit->getASTContext());
    std::string Text = Extents ? "" : "<none>";
    for (const clang::Expr *Extent :
         Extents.value_or(llvm::SmallVector<const clang::Expr *, 3>{}))
      Text += (Text.empty() ? "" : ", ") +
              (Extent ? quoteSource(Extent, Unit->getASTContext()) : "1");
    Found.push_back(Text);
  }
  EXPECT_EQ(Found, (std::vector<std::string>{"n / 256, 1, 1", "n, m, 1",
                                             "n, m, 1", "<none>"}));
}

// A rounded-up grid whose division the launcher requires to be exact, by
// an assert or an early exit before the launch, covers its count exactly.
TEST_F(KernelLaunchesTest, RoundedUpGridsRequiredExact) {
  parse("if (n % 4 == 0) {\n"
        "  host_assert(n % (m * 4) == 0);\n"
        "  kernel<<<(n + m * 4 - 1) / (m * 4), m>>>(p, n);\n"
        "}\n"
        "if (n % 128 != 0) return;\n"
        "kernel<<<ceil_div(n, 128), 128>>>(p, n);\n"
        "kernel<<<(m + 255) / 256, 256>>>(p, n);\n"
        "host_assert(m > 0 && !(m % 64));\n"
        "kernel<<<m / 64 + (m % 64 != 0), 64>>>(p, n);\n"
        "host_assert(n % 16 == 0 || m == 0);\n"
        "kernel<<<ceil_div(m, 16), 16>>>(p, n);\n"
        "if (m % 32) { m = 0; }\n"
        "kernel<<<ceil_div(m, 32), 32>>>(p, n);");
  // The third launch's count `m` is not the asserted `n`; the fifth's
  // assert allows a remainder when `m` is zero, and `n` is the other count;
  // the sixth's branch does not exit.
  EXPECT_EQ(roundedUp(),
            (std::vector<bool>{false, false, true, false, true, true}));
}

TEST_F(KernelLaunchesTest, FixedValidConfigurations) {
  parse("kernel<<<64, 256>>>(p, n);\n"
        "const int threads = 128;\n"
        "kernel<<<dim3(8, 8), dim3(threads)>>>(p, n);\n"
        "dim3 block(16, 16);\n"
        "kernel<<<1, block>>>(p, n);\n"
        // A grid computed at run time can be 0.
        "kernel<<<n, 256>>>(p, n);\n"
        // 512 threads can run out of registers.
        "kernel<<<1, 512>>>(p, n);\n"
        // Dynamic shared memory can pass the limit with the static.
        "kernel<<<1, 64, 1024>>>(p, n);\n"
        "dim3 changed(16);\n"
        "changed.x = m;\n"
        "kernel<<<1, changed>>>(p, n);");
  EXPECT_EQ(fixed(),
            (std::vector<bool>{true, true, true, false, false, false, false}));
}

TEST_F(KernelLaunchesTest, LeastConstantBlockExtent) {
  auto Least = [&](unsigned Axis) {
    return Launches->leastConstantBlockExtent(kernel(), Axis);
  };
  parse("#define BDIMX 16\n"
        "dim3 block(BDIMX, 8);\n"
        "kernel<<<(n + 15) / 16, block>>>(p, n);\n"
        "const int threads = 32;\n"
        "kernel<<<n, dim3(threads, 4)>>>(p, n);");
  EXPECT_EQ(Least(0), 16);
  EXPECT_EQ(Least(1), 4);
  // The extents a dim3 is not given are 1.
  EXPECT_EQ(Least(2), 1);
  parse("kernel<<<n, 256>>>(p, n);");
  EXPECT_EQ(Least(0), 256);
  EXPECT_EQ(Least(1), 1);
  // One launch whose block is not a constant, and none at all.
  parse("kernel<<<n, 256>>>(p, n);\nkernel<<<n, m>>>(p, n);");
  EXPECT_EQ(Least(0), std::nullopt);
  parse("dim3 block(16);\nblock.x = m;\nkernel<<<n, block>>>(p, n);");
  EXPECT_EQ(Least(0), std::nullopt);
  parse("");
  EXPECT_EQ(Least(0), std::nullopt);
}

TEST_F(KernelLaunchesTest, ZeroArguments) {
  parse("const int small = 1000 / 1024;\n"
        "kernel<<<1, 32>>>(p, small);");
  ASSERT_TRUE(zeroArgument());
  EXPECT_EQ(zeroArgument()->Kind, ZeroArgumentKind::Zero);

  parse("const int chunks = n / 1024;\n"
        "kernel<<<1, 32>>>(p, chunks);");
  ASSERT_TRUE(zeroArgument());
  EXPECT_EQ(zeroArgument()->Kind, ZeroArgumentKind::TruncatingQuotient);

  parse("kernel<<<1, 32>>>(p, n - m);");
  ASSERT_TRUE(zeroArgument());
  EXPECT_EQ(zeroArgument()->Kind, ZeroArgumentKind::Difference);

  // A non-zero constant, a ratio of two sizes, a plain value, `n - 1`, and
  // a local that changes.
  parse("const int groups = 4096 / 32;\n"
        "kernel<<<1, 32>>>(p, groups);\n"
        "kernel<<<1, 32>>>(p, n / m);\n"
        "kernel<<<1, 32>>>(p, n);\n"
        "kernel<<<1, 32>>>(p, n - 1);\n"
        "int q = n / m;\n"
        "q = 1;\n"
        "kernel<<<1, 32>>>(p, q);");
  EXPECT_FALSE(zeroArgument());
}

} // namespace
