//===--- KnownCallsTest.cpp - Tests of KnownCalls -------------------------===//

#include "Analysis/Core/KnownCalls.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

TEST(KnownCallsTest, MinAndMaxFamilies) {
  for (llvm::StringRef Name : {"min", "umin", "llmin", "ullmin"}) {
    MinMaxFunction F = classifyMinMax(Name);
    EXPECT_EQ(F.Kind, MinMaxKind::Min) << Name.str();
    EXPECT_FALSE(F.Floating) << Name.str();
  }
  for (llvm::StringRef Name : {"fmax", "fmaxf", "fmaxl"}) {
    MinMaxFunction F = classifyMinMax(Name);
    EXPECT_EQ(F.Kind, MinMaxKind::Max) << Name.str();
    EXPECT_TRUE(F.Floating) << Name.str();
  }
  EXPECT_FALSE(classifyMinMax("minimum"));
  EXPECT_FALSE(classifyMinMax("abs"));
}

/// Collects the calls of a parsed snippet by callee name.
struct CallCollector : clang::RecursiveASTVisitor<CallCollector> {
  std::map<std::string, const clang::CallExpr *> Calls;
  bool VisitCallExpr(clang::CallExpr *Call) {
    if (const clang::FunctionDecl *Callee = Call->getDirectCallee())
      Calls[Callee->getNameAsString()] = Call;
    return true;
  }
};

TEST(KnownCallsTest, TextToNumber) {
  for (const char *Name : {"atoi", "atol", "strtoul", "stoi", "stoull"})
    EXPECT_TRUE(isTextToNumber(Name)) << Name;
  for (const char *Name : {"atof", "strlen", "rand", "stof"})
    EXPECT_FALSE(isTextToNumber(Name)) << Name;
}

TEST(KnownCallsTest, CallsThatEndAPath) {
  auto Unit = parseCuda(
      "extern \"C\" __device__ void __assertfail(const char *, const char *,\n"
      "    unsigned, const char *, unsigned long);\n"
      "__device__ __attribute__((noreturn)) void fatal();\n"
      "__device__ void log(int);\n"
      "__device__ void f() {\n"
      "  __assertfail(\"\", \"\", 0, \"\", 1); fatal(); log(1);\n"
      "}\n");
  ASSERT_TRUE(Unit);
  CallCollector Collector;
  Collector.TraverseStmt(findFunction(Unit->getASTContext(), "f")->getBody());
  ASSERT_EQ(Collector.Calls.size(), 3u);
  EXPECT_TRUE(isNoReturnCall(Collector.Calls["__assertfail"]));
  EXPECT_TRUE(isNoReturnCall(Collector.Calls["fatal"]));
  EXPECT_FALSE(isNoReturnCall(Collector.Calls["log"]));
}

} // namespace
