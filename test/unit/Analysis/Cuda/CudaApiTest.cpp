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
