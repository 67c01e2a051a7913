//===--- CallSitesTest.cpp - Tests of CallSites ---------------------------===//

#include "Analysis/Core/CallSites.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

TEST(CallSitesTest, CallersOfEachFunction) {
  auto Unit = parseCuda(R"(
__device__ int leaf(int x) { return x; }
template <class T> __device__ T twice(T x) { return leaf(x) + leaf(x); }
__device__ int user(int x) { return twice(x); }
__device__ int unused(int x) { return x; }
struct S {
  __device__ int method(int x) { return leaf(x); }
};
)");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  CallSites Calls(Context);
  auto CallerNames = [&](const char *Callee) {
    std::vector<std::string> Names;
    for (const CallSite &Site : Calls.callersOf(*findFunction(Context, Callee)))
      Names.push_back(Site.Caller->getNameAsString());
    return Names;
  };
  // The instantiation for int (in the template's own body the calls are
  // dependent, with no callee yet), and the method.
  EXPECT_EQ(CallerNames("leaf"),
            (std::vector<std::string>{"twice", "twice", "method"}));
  EXPECT_EQ(CallerNames("user"), std::vector<std::string>{});
  EXPECT_EQ(CallerNames("unused"), std::vector<std::string>{});
  EXPECT_EQ(CallerNames("twice"), std::vector<std::string>{"user"});
  EXPECT_FALSE(Calls.all().empty());
}

// Each call's enclosing function: the function itself, or a lambda's call
// operator for a call in the lambda.
TEST(CallSitesTest, EnclosingFunctions) {
  auto Unit = parseCuda(R"(
__device__ int leaf(int x) { return x; }
__device__ int outer(int x) {
  auto inner = [](int y) { return leaf(y); };
  return inner(leaf(x));
}
)");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  CallSites Calls(Context);
  std::vector<std::string> Names;
  for (const CallSite &Site : Calls.callersOf(*findFunction(Context, "leaf")))
    Names.push_back(enclosingFunction(*Site.Call, Context)->getNameAsString());
  EXPECT_EQ(Names, (std::vector<std::string>{"operator()", "outer"}));
}

// The function that writes the code, through nested lambdas, and the
// statement of it that holds the call: the outermost lambda.
TEST(CallSitesTest, DefiningFunctions) {
  auto Unit = parseCuda(R"(
__device__ int leaf(int x) { return x; }
__device__ int outer(int x) {
  int before = leaf(x);
  return [&] { return [&] { return leaf(before); }(); }();
}
)");
  ASSERT_TRUE(Unit);
  clang::ASTContext &Context = Unit->getASTContext();
  CallSites Calls(Context);
  std::vector<std::string> Names, Holders;
  for (const CallSite &Site : Calls.callersOf(*findFunction(Context, "leaf"))) {
    const clang::Stmt *Holder = nullptr;
    const clang::FunctionDecl *Defining =
        definingFunction(*Site.Call, Context, Holder);
    ASSERT_TRUE(Defining);
    Names.push_back(Defining->getNameAsString());
    Holders.push_back(Holder->getStmtClassName());
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"outer", "outer"}));
  EXPECT_EQ(Holders, (std::vector<std::string>{"CallExpr", "LambdaExpr"}));
}

} // namespace
