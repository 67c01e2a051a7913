//===--- EnclosingNodesTest.cpp - Tests of EnclosingNodes -----------------===//

#include "Analysis/Core/EnclosingNodes.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// Parses `void f(int a, int *p, int **rows) { <Body> }` after declarations
/// of `mark` and `use`; gives the first call of `mark`.
class EnclosingNodesTest : public ::testing::Test {
protected:
  const clang::CallExpr *parse(const std::string &Body) {
    Unit = parseCuda("__host__ __device__ int mark(int);\n"
                     "__host__ __device__ void use(long);\n"
                     "__host__ __device__ void f(int a, int *p, int **rows) "
                     "{\n" +
                     Body + "\n}\n");
    if (!Unit)
      return nullptr;
    const clang::CallExpr *Mark = findFirstCall(
        *const_cast<clang::FunctionDecl *>(findFunction(context(), "f")),
        "mark");
    EXPECT_TRUE(Mark) << "no call of 'mark'";
    return Mark;
  }
  clang::ASTContext &context() { return Unit->getASTContext(); }

  /// The kind of statement or declaration that uses the call's value.
  std::string userKind(const std::string &Body) {
    const clang::CallExpr *Mark = parse(Body);
    if (!Mark)
      return "";
    ValueUser Use = userOf(*Mark, context());
    if (Use.Declaration)
      return Use.Declaration->getDeclKindName();
    return Use.User ? Use.User->getStmtClassName() : "<none>";
  }

  /// The number of statements before the call in each block around it,
  /// innermost first.
  std::vector<unsigned> statementsBefore(const std::string &Body) {
    std::vector<unsigned> Counts;
    const clang::CallExpr *Mark = parse(Body);
    if (!Mark)
      return Counts;
    anyEnclosingBlock(
        *Mark, context(),
        [&](const clang::CompoundStmt &Block, const clang::Stmt &Holder) {
          unsigned Before = 0;
          for (const clang::Stmt *S : Block.body()) {
            if (S == &Holder)
              break;
            ++Before;
          }
          EXPECT_LT(Before, Block.size());
          Counts.push_back(Before);
          return false;
        });
    return Counts;
  }

  std::unique_ptr<clang::ASTUnit> Unit;
};

TEST_F(EnclosingNodesTest, UserPastParenthesesAndImplicitCasts) {
  // The conversion to long and the parentheses are passed.
  EXPECT_EQ(userKind("use((mark(a)));"), "CallExpr");
  EXPECT_EQ(userKind("a = mark(1) + 2;"), "BinaryOperator");
  EXPECT_EQ(userKind("a = (mark(1));"), "BinaryOperator");
  // An explicit cast is a use of its own.
  EXPECT_EQ(userKind("use((long)mark(a));"), "CStyleCastExpr");
  EXPECT_EQ(userKind("mark(a);"), "CompoundStmt");
  EXPECT_EQ(userKind("int b = (mark(a));"), "Var");
  EXPECT_EQ(userKind("if (mark(a)) use(1);"), "IfStmt");
}

TEST_F(EnclosingNodesTest, OperandIsTheOutermostWrapper) {
  const clang::CallExpr *Mark = parse("a = ((mark(1)));");
  ASSERT_TRUE(Mark);
  ValueUser Use = userOf(*Mark, context());
  const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(Use.User);
  ASSERT_TRUE(Assign);
  EXPECT_EQ(Use.Operand, Assign->getRHS());
  EXPECT_NE(Use.Operand, Mark);
}

TEST_F(EnclosingNodesTest, BlocksInnermostFirst) {
  EXPECT_EQ(statementsBefore("use(1);\nuse(2);\nmark(a);"),
            std::vector<unsigned>({2}));
  EXPECT_EQ(statementsBefore("use(1);\n"
                             "if (a) {\n  use(2);\n"
                             "  for (;;) { use(3); use(4); mark(a); }\n}"),
            std::vector<unsigned>({2, 1, 1}));
  // A statement with no block of its own between it and the function.
  EXPECT_EQ(statementsBefore("use(1);\nif (a) mark(a);"),
            std::vector<unsigned>({1}));
}

TEST_F(EnclosingNodesTest, StopsAtTheLambda) {
  // The blocks of the lambda's body only, not of the function around it.
  EXPECT_EQ(statementsBefore("use(1);\nauto g = [&] { use(2); mark(a); };"),
            std::vector<unsigned>({1}));
}

TEST_F(EnclosingNodesTest, StopsWhenTheVisitorSaysSo) {
  const clang::CallExpr *Mark = parse("use(1);\n{ use(2);\n{ mark(a); } }");
  ASSERT_TRUE(Mark);
  unsigned Visited = 0;
  EXPECT_TRUE(anyEnclosingBlock(
      *Mark, context(), [&](const clang::CompoundStmt &, const clang::Stmt &) {
        return ++Visited == 2;
      }));
  EXPECT_EQ(Visited, 2u);
  Visited = 0;
  EXPECT_FALSE(anyEnclosingBlock(
      *Mark, context(), [&](const clang::CompoundStmt &, const clang::Stmt &) {
        ++Visited;
        return false;
      }));
  EXPECT_EQ(Visited, 3u);
}

} // namespace
