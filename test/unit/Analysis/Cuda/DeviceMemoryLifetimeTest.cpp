//===--- DeviceMemoryLifetimeTest.cpp -------------------------------------===//
//
// What the lifetime analysis concludes about one function: the findings by
// kind, with the pointer and the allocation they name, and the ownership
// transfers and failure paths that keep it silent.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Cuda/DeviceMemoryLifetime.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

constexpr const char *Api = R"(
typedef unsigned long size_t;
enum cudaError { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
typedef cudaError cudaError_t;
extern "C" {
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
void *malloc(size_t n);
void free(void *p);
}
void keep(float *p);
struct Holder { float *p; };
)";

/// The findings in function `f` of \p Body (appended to the API above), as
/// "kind:pointer:allocator[:releaser]" strings.
std::vector<std::string> findings(const std::string &Body) {
  std::unique_ptr<clang::ASTUnit> Unit = parseCuda(std::string(Api) + Body);
  if (!Unit)
    return {"parse error"};
  const clang::FunctionDecl *F = findFunction(Unit->getASTContext(), "f");
  if (!F)
    return {"no f"};
  std::vector<std::string> Result;
  for (const MemoryLifetimeFinding &Finding :
       analyzeDeviceMemoryLifetime(*F, Unit->getASTContext())) {
    std::string Text;
    switch (Finding.Kind) {
    case MemoryLifetimeFinding::LeakedAtReturn:
      Text = Finding.Site ? "leak" : "leak-at-end";
      break;
    case MemoryLifetimeFinding::OverwrittenBeforeRelease:
      Text = "overwritten";
      break;
    case MemoryLifetimeFinding::MismatchedRelease:
      Text = "mismatch";
      break;
    }
    Text += ":" + Finding.Holder->getNameAsString() + ":" +
            Finding.AllocatedBy.str();
    if (!Finding.ReleasedBy.empty())
      Text += ":" + Finding.ReleasedBy.str();
    Result.push_back(Text);
  }
  return Result;
}

using Strings = std::vector<std::string>;

TEST(DeviceMemoryLifetimeTest, FamiliesByName) {
  EXPECT_EQ(allocatedFamily("cudaMallocManaged"), MemoryFamily::Device);
  EXPECT_EQ(allocatedFamily("cuMemAlloc"), MemoryFamily::Device);
  EXPECT_EQ(allocatedFamily("cudaHostAlloc"), MemoryFamily::PinnedHost);
  EXPECT_EQ(allocatedFamily("cudaMallocArray"), MemoryFamily::Array);
  EXPECT_EQ(allocatedFamily("malloc"), MemoryFamily::HostHeap);
  EXPECT_EQ(allocatedFamily("cudaMemset"), std::nullopt);
  EXPECT_EQ(releasedFamily("cudaFreeAsync"), MemoryFamily::Device);
  EXPECT_EQ(releasedFamily("cuMemFreeHost"), MemoryFamily::PinnedHost);
  EXPECT_EQ(releasedFamily("cudaMalloc"), std::nullopt);
  EXPECT_EQ(releaseFunctionOf(MemoryFamily::PinnedHost), "cudaFreeHost");
  EXPECT_TRUE(isCudaFamily(MemoryFamily::Array));
  EXPECT_FALSE(isCudaFamily(MemoryFamily::NewArray));
}

TEST(DeviceMemoryLifetimeTest, LeaksOnTheErrorPath) {
  EXPECT_EQ(findings("int f(size_t n) {\n"
                     "  float *a, *b;\n"
                     "  if (cudaMalloc((void **)&a, n)) return 1;\n"
                     "  if (cudaMalloc((void **)&b, n)) return 2;\n"
                     "  cudaFree(a); cudaFree(b); return 0;\n"
                     "}\n"),
            Strings{"leak:a:cudaMalloc"});
  EXPECT_EQ(findings("void f(size_t n) {\n"
                     "  float *a;\n"
                     "  cudaMallocHost((void **)&a, n);\n"
                     "}\n"),
            Strings{"leak-at-end:a:cudaMallocHost"});
}

TEST(DeviceMemoryLifetimeTest, FailedAllocationsHoldNothing) {
  // The status, through a variable, compared either way round.
  EXPECT_EQ(findings("int f(size_t n) {\n"
                     "  float *a;\n"
                     "  cudaError_t e = cudaMalloc((void **)&a, n);\n"
                     "  if (cudaSuccess != e) return 1;\n"
                     "  cudaFree(a); return 0;\n"
                     "}\n"),
            Strings{});
  EXPECT_EQ(findings("int f(size_t n) {\n"
                     "  float *a;\n"
                     "  if (!(cudaMalloc((void **)&a, n) == cudaSuccess))\n"
                     "    return 1;\n"
                     "  cudaFree(a); return 0;\n"
                     "}\n"),
            Strings{});
  // A test of a particular error says nothing about success: silent too.
  EXPECT_EQ(findings("int f(size_t n) {\n"
                     "  float *a;\n"
                     "  cudaError_t e = cudaMalloc((void **)&a, n);\n"
                     "  if (e == cudaErrorMemoryAllocation) return 1;\n"
                     "  cudaFree(a); return 0;\n"
                     "}\n"),
            Strings{});
}

TEST(DeviceMemoryLifetimeTest, EscapesAreNotFollowed) {
  for (const char *Escape :
       {"keep(a);", "Holder h; h.p = a;", "float *b = a; (void)b;",
        "auto l = [&] { cudaFree(a); }; l();", "float **pp = &a; (void)pp;",
        "a++;"})
    EXPECT_EQ(findings(std::string("void f(size_t n) {\n"
                                   "  float *a;\n"
                                   "  cudaMalloc((void **)&a, n);\n  ") +
                       Escape + "\n}\n"),
              Strings{})
        << Escape;
  // Borrowing calls and element accesses keep it followed.
  EXPECT_EQ(findings("void f(size_t n) {\n"
                     "  float *a;\n"
                     "  cudaMalloc((void **)&a, n);\n"
                     "  cudaMemset(a + 1, 0, n); a[0] = 1;\n"
                     "}\n"),
            Strings{"leak-at-end:a:cudaMalloc"});
}

TEST(DeviceMemoryLifetimeTest, OverwrittenInALoop) {
  EXPECT_EQ(findings("void f(size_t n, int k) {\n"
                     "  float *a;\n"
                     "  for (int i = 0; i < k; ++i)\n"
                     "    cudaMalloc((void **)&a, n);\n"
                     "  cudaFree(a);\n"
                     "}\n"),
            Strings{"overwritten:a:cudaMalloc"});
  EXPECT_EQ(findings("void f(size_t n, int k) {\n"
                     "  float *a = 0;\n"
                     "  for (int i = 0; i < k; ++i) {\n"
                     "    if (a) cudaFree(a);\n"
                     "    cudaMalloc((void **)&a, n);\n"
                     "  }\n"
                     "  cudaFree(a);\n"
                     "}\n"),
            Strings{});
}

TEST(DeviceMemoryLifetimeTest, MismatchedReleases) {
  EXPECT_EQ(findings("void f(size_t n) {\n"
                     "  float *a, *h = (float *)malloc(n);\n"
                     "  cudaMallocHost((void **)&a, n);\n"
                     "  cudaFree(a); cudaFree(h);\n"
                     "}\n"),
            (Strings{"mismatch:h:malloc:cudaFree",
                     "mismatch:a:cudaMallocHost:cudaFree"}));
  // Told apart by the flag they were allocated under.
  EXPECT_EQ(findings("void f(size_t n, bool pinned) {\n"
                     "  float *a;\n"
                     "  if (pinned) cudaMallocHost((void **)&a, n);\n"
                     "  else cudaMalloc((void **)&a, n);\n"
                     "  if (!pinned) cudaFree(a); else cudaFreeHost(a);\n"
                     "}\n"),
            Strings{});
}

TEST(DeviceMemoryLifetimeTest, NoReturnPathsDoNotLeak) {
  EXPECT_EQ(findings("void exit(int) __attribute__((noreturn));\n"
                     "void f(size_t n, bool bad) {\n"
                     "  float *a;\n"
                     "  cudaMalloc((void **)&a, n);\n"
                     "  if (bad) exit(1);\n"
                     "  cudaFree(a);\n"
                     "}\n"),
            Strings{});
}

} // namespace
