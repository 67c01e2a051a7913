//===--- DereferencedParametersTest.cpp -----------------------------------===//

#include "Analysis/Cuda/DereferencedParameters.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

constexpr const char *Helpers = R"(
struct int4 { int x, y, z, w; };
__device__ int4 __ldcs(const int4 *p);
__device__ int atomicAdd(int *p, int v);
__device__ int load(const int *p) { return *p; }
__device__ int first(const int *p) { return p[0]; }
__device__ int4 vector(const int *p) {
  return __ldcs(reinterpret_cast<const int4 *>(p));
}
__device__ int twice(const int *p) { return load(p) + 1; }
__device__ void store(int *p, int v) { *reinterpret_cast<int *>(p) = v; }
__device__ int second(const int *p) { return p[1]; }
__device__ bool aligned(const int *p) { return ((unsigned long long)p & 15) == 0; }
__device__ int moved(const int *p) { p += 4; return *p; }
__device__ int recursive(const int *p, int n) {
  return n ? recursive(p, n - 1) : 0;
}
)";

/// The calls in `use`'s body, in source order.
class CallCollector : public clang::RecursiveASTVisitor<CallCollector> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    Calls.push_back(Call);
    return true;
  }
  std::vector<const clang::CallExpr *> Calls;
};

class DereferencedParametersTest : public ::testing::Test {
protected:
  /// Whether the call of \p Callee in `use` accesses its argument \p Arg.
  bool dereferences(const std::string &Callee, unsigned Arg = 0) {
    if (!Unit) {
      Unit = parseCuda(std::string(Helpers) +
                       "__device__ void use(int *q, int n) {\n"
                       "  load(q); first(q); vector(q); twice(q); store(q, 1);"
                       "  second(q); aligned(q); moved(q); recursive(q, n);"
                       "  atomicAdd(q, 1);\n"
                       "}\n");
      if (!Unit)
        return false;
      Analysis =
          std::make_unique<DereferencedParameters>(Unit->getASTContext());
      CallCollector Collector;
      Collector.TraverseDecl(const_cast<clang::FunctionDecl *>(
          findFunction(Unit->getASTContext(), "use")));
      Calls = Collector.Calls;
    }
    for (const clang::CallExpr *Call : Calls)
      if (const clang::FunctionDecl *Function = Call->getDirectCallee();
          Function && Function->getName() == Callee)
        return Analysis->dereferences(*Call, Arg);
    ADD_FAILURE() << "no call of " << Callee;
    return false;
  }

  std::unique_ptr<clang::ASTUnit> Unit;
  std::unique_ptr<DereferencedParameters> Analysis;
  std::vector<const clang::CallExpr *> Calls;
};

TEST_F(DereferencedParametersTest, HelpersThatAccessTheElement) {
  EXPECT_TRUE(dereferences("load"));
  EXPECT_TRUE(dereferences("first"));
  EXPECT_TRUE(dereferences("vector"));
  EXPECT_TRUE(dereferences("twice"));
  EXPECT_TRUE(dereferences("store"));
  EXPECT_FALSE(dereferences("store", 1));
}

TEST_F(DereferencedParametersTest, HelpersThatDoNot) {
  // Another element, the address only, a moved pointer, and recursion.
  EXPECT_FALSE(dereferences("second"));
  EXPECT_FALSE(dereferences("aligned"));
  EXPECT_FALSE(dereferences("moved"));
  EXPECT_FALSE(dereferences("recursive"));
}

TEST_F(DereferencedParametersTest, IntrinsicsByName) {
  EXPECT_TRUE(dereferences("atomicAdd"));
  EXPECT_TRUE(isDereferencingIntrinsic("__ldg"));
  EXPECT_TRUE(isDereferencingIntrinsic("__stcs"));
  EXPECT_TRUE(isDereferencingIntrinsic("atomicCAS"));
  EXPECT_FALSE(isDereferencingIntrinsic("__syncthreads"));
}

} // namespace
