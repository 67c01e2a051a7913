//===--- CudaApiTest.cpp - Tests of CudaApi -------------------------------===//

#include "Analysis/Cuda/CudaApi.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"
#include <functional>

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// The status type, a call that returns one, and a handler that checks it
/// and hands it back.
constexpr const char *StatusHandler = R"(
enum cudaError { cudaSuccess, cudaErrorInvalidValue };
typedef enum cudaError cudaError_t;
__device__ cudaError_t cudaDeviceSynchronize();
__device__ void report(cudaError_t);
__device__ cudaError_t checkCuda(cudaError_t result) {
  if (result != cudaSuccess)
    report(result);
  return result;
}
)";

// A handler hands back the status it was given, on every return; a wrapper
// that makes a call, or returns another status on some path, makes its own.
TEST(CudaApiTest, StatusHandlersPassTheirArgumentThrough) {
  auto Unit = parseCuda(std::string(StatusHandler) + R"(
__device__ cudaError_t checkOrReset(cudaError_t result) {
  if (result != cudaSuccess)
    return cudaSuccess;
  return result;
}
__device__ cudaError_t synchronize() { return cudaDeviceSynchronize(); }
__device__ int passInt(int value) { return value; }
__device__ cudaError_t declaredOnly(cudaError_t result);
__device__ void caller() { declaredOnly(cudaSuccess); }
)");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  llvm::SmallVector<llvm::StringRef, 2> Types = {"cudaError_t", "cudaError"};
  auto Passes = [&](const char *Name) {
    return passesStatusThrough(*findFunction(Context, Name), Types, Context);
  };
  EXPECT_TRUE(Passes("checkCuda"));
  EXPECT_FALSE(Passes("checkOrReset"));
  EXPECT_FALSE(Passes("synchronize"));
  EXPECT_FALSE(Passes("passInt"));
  // Without a body in view, nothing is known of what it returns.
  const clang::FunctionDecl *Caller = findFunction(Context, "caller");
  const auto *Body = llvm::cast<clang::CompoundStmt>(Caller->getBody());
  const auto *Call = llvm::cast<clang::CallExpr>(Body->body_front());
  EXPECT_FALSE(passesStatusThrough(*Call->getDirectCallee(), Types, Context));
}

// A status is read where it is used, unless a handler that only hands it
// back is given it and its own result is dropped.
TEST(CudaApiTest, StatusesReadOrOnlyPassedBack) {
  auto Unit = parseCuda(std::string(StatusHandler) + R"(
__device__ cudaError_t passBack(cudaError_t result) { return result; }
__device__ void check(cudaError_t result) {}
__device__ void calls() {
  cudaDeviceSynchronize();
  passBack(cudaDeviceSynchronize());
  checkCuda(cudaDeviceSynchronize());
  check(cudaDeviceSynchronize());
  if (passBack((cudaDeviceSynchronize())) != cudaSuccess)
    return;
  cudaError_t kept = passBack(passBack(cudaDeviceSynchronize()));
}
)");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  llvm::SmallVector<llvm::StringRef, 2> Types = {"cudaError_t", "cudaError"};
  // The synchronisations, in source order.
  std::vector<bool> Read;
  std::function<void(const clang::Stmt *)> Visit = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
        Call && Call->getDirectCallee() &&
        Call->getDirectCallee()->getName() == "cudaDeviceSynchronize")
      Read.push_back(isStatusRead(*Call, Types, Context));
    for (const clang::Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(findFunction(Context, "calls")->getBody());
  EXPECT_EQ(Read, (std::vector<bool>{false, false, true, true, true, true}));
}

} // namespace

TEST(CudaApiTest, ReadinessQueries) {
  EXPECT_TRUE(isReadinessQuery("cudaEventQuery"));
  EXPECT_TRUE(isReadinessQuery("cudaStreamQuery"));
  EXPECT_TRUE(isReadinessQuery("cuStreamQuery"));
  EXPECT_FALSE(isReadinessQuery("cudaEventSynchronize"));
  EXPECT_FALSE(isReadinessQuery("cudaGetLastError"));
}

TEST(CudaApiTest, ProfilerControls) {
  EXPECT_TRUE(isProfilerControl("cudaProfilerStart"));
  EXPECT_TRUE(isProfilerControl("cudaProfilerStop"));
  EXPECT_TRUE(isProfilerControl("cuProfilerStop"));
  EXPECT_FALSE(isProfilerControl("cudaProfilerInitialize"));
  EXPECT_FALSE(isProfilerControl("cudaDeviceSynchronize"));
}

TEST(CudaApiTest, StatusesThatBecomeTheLastError) {
  EXPECT_TRUE(isLastErrorStatusType("cudaError_t"));
  EXPECT_TRUE(isLastErrorStatusType("CUresult"));
  EXPECT_FALSE(isLastErrorStatusType("cublasStatus_t"));
  EXPECT_FALSE(isLastErrorStatusType("ncclResult_t"));
  EXPECT_FALSE(isLastErrorStatusType(""));
  // Every default library status is one that is lost when dropped.
  llvm::SmallVector<llvm::StringRef, 16> Library;
  llvm::StringRef(DefaultLibraryStatusTypes).split(Library, ';');
  EXPECT_GE(Library.size(), 10u);
  for (llvm::StringRef Type : Library)
    EXPECT_FALSE(isLastErrorStatusType(Type)) << Type.str();
}

TEST(CudaApiTest, TeardownOfRuntimeAndLibraries) {
  EXPECT_TRUE(isTeardownApi("cudaFree"));
  EXPECT_TRUE(isTeardownApi("cuCtxDestroy"));
  EXPECT_TRUE(isTeardownApi("cublasDestroy"));
  EXPECT_TRUE(isTeardownApi("cublasLtDestroy"));
  EXPECT_TRUE(isTeardownApi("cusparseDestroySpMat"));
  EXPECT_TRUE(isTeardownApi("curandDestroyGenerator"));
  EXPECT_TRUE(isTeardownApi("cufftDestroy"));
  EXPECT_TRUE(isTeardownApi("ncclCommDestroy"));
  EXPECT_TRUE(isTeardownApi("ncclCommAbort"));
  EXPECT_FALSE(isTeardownApi("cublasCreate"));
  EXPECT_FALSE(isTeardownApi("cufftPlan1d"));
  EXPECT_FALSE(isTeardownApi("ncclCommInitAll"));
  // A destroy of a library that is not one of CUDA's: the user's own.
  EXPECT_FALSE(isTeardownApi("myDestroy"));
}

namespace {

/// Whether the first call of `query` in `f`, after \p Body's declarations,
/// has its outcome checked through its output.
bool checkedThroughOutput(const std::string &Body) {
  auto Unit = parseCuda("int query(int *out, void **ptr);\n"
                        "void fail();\n"
                        "extern \"C\" int printf(const char *, ...);\n"
                        "int f(int n) {\n" +
                        Body + "\n  return 0;\n}\n");
  if (!Unit)
    return false;
  const clang::CallExpr *Query =
      findFirstCall(*Unit->getASTContext().getTranslationUnitDecl(), "query");
  EXPECT_TRUE(Query) << "no call of 'query'";
  return Query && isCheckedThroughOutput(*Query, Unit->getASTContext());
}

} // namespace

TEST(CudaApiTest, OutcomeCheckedThroughAnOutput) {
  EXPECT_TRUE(checkedThroughOutput(
      "int count = 0;\nquery(&count, 0);\nif (count < 1) fail();"));
  // Through a cast of the address, and in a nested block.
  EXPECT_TRUE(checkedThroughOutput("void *p = 0;\nint c = 0;\n"
                                   "if (n) {\n  query(&c, (void **)&p);\n"
                                   "  if (!p) return 1;\n}"));
  // An output with no value before the call: a failure leaves it unset.
  EXPECT_FALSE(checkedThroughOutput(
      "int count;\nquery(&count, 0);\nif (count) fail();"));
  // The next statement tests something else, or is no test.
  EXPECT_FALSE(checkedThroughOutput(
      "int count = 0;\nquery(&count, 0);\nif (n) fail();"));
  EXPECT_FALSE(checkedThroughOutput("int count = 0;\nquery(&count, 0);\n"
                                    "n += count;\nif (count) fail();"));
  // The status itself is used: that is a check of its own, not this one.
  EXPECT_FALSE(checkedThroughOutput(
      "int count = 0;\nint s = query(&count, 0);\nif (count) fail();"));
  // The last statement of its block.
  EXPECT_FALSE(checkedThroughOutput("int count = 0;\nquery(&count, 0);"));
  // Printed first, as it stands after a failure, then tested.
  EXPECT_TRUE(checkedThroughOutput(
      "int v = 0;\nquery(&v, 0);\n"
      "printf(\"version %d.%d\\n\", v / 1000, (v % 100) / 10);\n"
      "printf(\"checking\\n\");\nif (v < 11040) fail();"));
  // A statement between that uses the output for more than printing, or
  // that is no print.
  EXPECT_FALSE(checkedThroughOutput("int v = 0;\nquery(&v, 0);\n"
                                    "printf(\"%d\\n\", query(&v, 0));\n"
                                    "if (v < 1) fail();"));
  EXPECT_FALSE(checkedThroughOutput(
      "int v = 0;\nquery(&v, 0);\nfail();\nif (v < 1) fail();"));
}

TEST(CudaApiTest, LaunchConfigurations) {
  auto Unit = parseCuda("__global__ void k(int n) {}\n"
                        "int other(int);\n"
                        "void host(int n) { k<<<1, 32>>>(other(n)); }\n");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  std::vector<const clang::CUDAKernelCallExpr *> Launches =
      findLaunches(*Context.getTranslationUnitDecl());
  ASSERT_EQ(Launches.size(), 1u);
  ASSERT_TRUE(Launches.front()->getConfig());
  EXPECT_TRUE(isLaunchConfiguration(*Launches.front()->getConfig(), Context));
  const clang::CallExpr *Argument =
      findFirstCall(*Context.getTranslationUnitDecl(), "other");
  ASSERT_TRUE(Argument);
  EXPECT_FALSE(isLaunchConfiguration(*Argument, Context));
}
