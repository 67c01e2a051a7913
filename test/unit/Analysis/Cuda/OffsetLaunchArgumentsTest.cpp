//===--- OffsetLaunchArgumentsTest.cpp - Tests of OffsetLaunchArguments ---===//

#include "Analysis/Cuda/OffsetLaunchArguments.h"
#include "Analysis/Core/SourceText.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::cuda;
using namespace gpuguard::test;

namespace {

const std::string Prelude = std::string(DeviceAllocationDeclarations) + R"(
cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = 1);
cudaError_t cudaFree(void *p);
void setUp(float **p);
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p[i] *= 2.0f;
}
__global__ void pairs(float *p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i + i] = 0.0f;
}
__global__ void loose(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 4) p[i] = 0.0f;
}
)";

class OffsetLaunchArgumentsTest : public ::testing::Test {
protected:
  /// The offset arguments found for \p Kernel's launches in
  /// `void host(int n, int m, int k) { <Body> }`, as their source text.
  std::vector<std::string> found(const std::string &Body,
                                 const char *Kernel = "scale") {
    Unit = parseCuda(Prelude + "void host(int n, int m, int k) {\n" + Body +
                     "\n}\n");
    if (!Unit)
      return {"<no parse>"};
    clang::ASTContext &Context = Unit->getASTContext();
    KernelLaunches Launches(Context);
    std::vector<std::string> Result;
    for (const OffsetPastAllocation &Past : offsetLaunchesPastAllocation(
             *findFunction(Context, Kernel), Launches, Context))
      Result.push_back(quoteSource(Past.Argument, Context) + " for " +
                       Past.Bound->getName().str());
    return Result;
  }
  std::unique_ptr<clang::ASTUnit> Unit;
};

TEST_F(OffsetLaunchArgumentsTest, OffsetWithTheWholeCount) {
  EXPECT_EQ(
      found("float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
            "scale<<<n, 1>>>(d + k, n);\n"
            "scale<<<n, 1>>>(&d[1], n);\n"
            "scale<<<n, 1>>>(k + d, n);"),
      (std::vector<std::string>{"d + k for n", "&d[1] for n", "k + d for n"}));
}

TEST_F(OffsetLaunchArgumentsTest, CountsMatchAsProducts) {
  EXPECT_EQ(found("float *d; size_t bytes = sizeof(float) * n * m;\n"
                  "cudaMallocManaged((void **)&d, bytes);\n"
                  "scale<<<n, m>>>(d + m, m * n);\n"
                  "scale<<<n, m>>>(d + m, m);"),
            (std::vector<std::string>{"d + m for n"}));
}

TEST_F(OffsetLaunchArgumentsTest, NoEvidence) {
  // The right count for the offset, no offset, a second allocation, a
  // pointer set by another function, another element type, and a kernel
  // that does not index up to its count.
  EXPECT_EQ(
      found("float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
            "scale<<<n, 1>>>(d + k, n - k);\n"
            "scale<<<n, 1>>>(d, n);\n"
            "scale<<<n, 1>>>(d + 0, n);\n"
            "float *e; cudaMalloc((void **)&e, n * sizeof(float));\n"
            "cudaFree(e); cudaMalloc((void **)&e, n * sizeof(float));\n"
            "scale<<<n, 1>>>(e + k, n);\n"
            "float *f; setUp(&f); cudaMalloc((void **)&f, n * sizeof(float));\n"
            "scale<<<n, 1>>>(f + k, n);\n"
            "float *g; cudaMalloc((void **)&g, n * sizeof(double));\n"
            "scale<<<n, 1>>>(g + k, n);"),
      std::vector<std::string>{});
  EXPECT_EQ(found("float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                  "loose<<<n, 1>>>(d + k, n);",
                  "loose"),
            std::vector<std::string>{});
}

// On the allocation itself, an index that steps by two or more elements
// under the bound: `i + i`, `2 * i`.
TEST_F(OffsetLaunchArgumentsTest, ScaledIndexes) {
  EXPECT_EQ(found("float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                  "pairs<<<1, 256>>>(d, n);\n"
                  "scale<<<n, 1>>>(d, n);",
                  "pairs"),
            (std::vector<std::string>{"d for n"}));
  EXPECT_EQ(found("float *d; cudaMalloc((void **)&d, n * sizeof(float));\n"
                  "scale<<<n, 1>>>(d, n);"),
            std::vector<std::string>{});
}

} // namespace
