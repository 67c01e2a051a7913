//===--- ExprShapeTest.cpp - Tests of ExprShape ---------------------------===//

#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/SourceText.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// Parses `int g; __device__ int f(int a, int b, long c) { <Body> }` and
/// hands the expression of its `return` to the tests.
class ExprShapeTest : public ::testing::Test {
protected:
  const clang::Expr *returned(const std::string &Body) {
    Unit = parseCuda("__device__ int g;\n"
                     "__device__ int f(int a, int b, long c) {\n" +
                     Body + "\n}\n");
    if (!Unit)
      return nullptr;
    const clang::FunctionDecl *Function =
        findFunction(Unit->getASTContext(), "f");
    const auto *Body0 = llvm::cast<clang::CompoundStmt>(Function->getBody());
    const auto *Return = llvm::cast<clang::ReturnStmt>(Body0->body_back());
    return Return->getRetValue();
  }
  clang::ASTContext &context() { return Unit->getASTContext(); }

  /// The binary operator \p Body returns (`return a - b;`), or null.
  const clang::BinaryOperator *returnedOperator(const std::string &Body) {
    const clang::Expr *E = returned(Body);
    return E ? llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreImpCasts())
             : nullptr;
  }

  /// The names of the terms flattenSum() finds, and their constant.
  std::pair<std::vector<std::string>, int64_t> sumOf(const std::string &Body) {
    const clang::Expr *E = returned(Body);
    llvm::SmallVector<const clang::Expr *, 4> Terms;
    int64_t Constant = 0;
    flattenSum(E, context(), Terms, Constant);
    std::vector<std::string> Names;
    for (const clang::Expr *Term : Terms) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Term);
      Names.push_back(Ref ? Ref->getDecl()->getNameAsString() : "<expr>");
    }
    return {Names, Constant};
  }

  /// The first `for` statement of `f` as parsed from \p Loop, with locals
  /// a, b, Steps and k in scope, or null.
  const clang::ForStmt *firstLoop(const std::string &Loop) {
    Unit = parseCuda("__device__ int f(int a, int b) {\n"
                     "  constexpr int Steps = 4;\n"
                     "  int k;\n  " +
                     Loop + " {}\n  return 0;\n}\n");
    if (!Unit)
      return nullptr;
    const clang::FunctionDecl *Function = findFunction(context(), "f");
    const auto *Body = llvm::cast<clang::CompoundStmt>(Function->getBody());
    for (const clang::Stmt *S : Body->body())
      if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
        return For;
    return nullptr;
  }

  std::unique_ptr<clang::ASTUnit> Unit;
};

TEST_F(ExprShapeTest, StripIndexCastsKeepsFloatConversions) {
  const clang::Expr *E = returned("return (int)(long)a;");
  ASSERT_TRUE(E);
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(stripIndexCasts(E));
  ASSERT_TRUE(Ref);
  EXPECT_EQ(Ref->getDecl()->getName(), "a");
  // Where NaN becomes an index, the conversion stays.
  E = returned("float x = a; return (int)x;");
  ASSERT_TRUE(E);
  EXPECT_TRUE(llvm::isa<clang::CastExpr>(stripIndexCasts(E)));
}

TEST_F(ExprShapeTest, IntegerConstants) {
  EXPECT_EQ(integerConstant(returned("return 3 * 4 - 2;"), context()), 10);
  EXPECT_EQ(integerConstant(returned("return a;"), context()), std::nullopt);
}

TEST_F(ExprShapeTest, SumsFlattenIntoTermsAndAConstant) {
  auto [Names, Constant] = sumOf("return a + b - 3 + 4;");
  EXPECT_EQ(Names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Constant, 1);
  // A subtracted variable is one term, kept whole.
  std::tie(Names, Constant) = sumOf("return a - b;");
  EXPECT_EQ(Names, (std::vector<std::string>{"<expr>"}));
  EXPECT_EQ(Constant, 0);
}

TEST_F(ExprShapeTest, FractionsOfAValue) {
  // Parses `return (Part) - a;`, the difference whose sides are asked.
  auto IsFractionOfA = [&](const std::string &Part) {
    const clang::BinaryOperator *Minus =
        returnedOperator("return (" + Part + ") - a;");
    return Minus && isFractionOf(Minus->getLHS(), Minus->getRHS(), context());
  };
  EXPECT_TRUE(IsFractionOfA("a / 2"));
  EXPECT_TRUE(IsFractionOfA("(int)(0.8f * a)"));
  EXPECT_TRUE(IsFractionOfA("a * 3 / 4"));
  EXPECT_TRUE(IsFractionOfA("(long)a / 8"));
  EXPECT_FALSE(IsFractionOfA("a / 1"));
  EXPECT_FALSE(IsFractionOfA("(int)(1.5f * a)"));
  EXPECT_FALSE(IsFractionOfA("a * 5 / 4"));
  EXPECT_FALSE(IsFractionOfA("b / 2"));
  EXPECT_FALSE(IsFractionOfA("a / b"));
  EXPECT_FALSE(IsFractionOfA("a"));

  // A local stands for its initialiser while nothing changes it.
  const clang::BinaryOperator *Minus =
      returnedOperator("int half = a / 2; return a - half;");
  ASSERT_TRUE(Minus);
  llvm::SmallPtrSet<const clang::VarDecl *, 4> MayChange;
  EXPECT_TRUE(
      isFractionOf(Minus->getRHS(), Minus->getLHS(), context(), &MayChange));
  EXPECT_FALSE(isFractionOf(Minus->getRHS(), Minus->getLHS(), context()));
  MayChange.insert(asLocalVariable(Minus->getRHS()->IgnoreImpCasts()));
  EXPECT_FALSE(
      isFractionOf(Minus->getRHS(), Minus->getLHS(), context(), &MayChange));
}

TEST_F(ExprShapeTest, DifferencesThatMeet) {
  auto CanMeet = [&](const std::string &Difference) {
    const clang::BinaryOperator *Minus =
        returnedOperator("return " + Difference + ";");
    return Minus && differenceCanMeet(*Minus, context());
  };
  EXPECT_TRUE(CanMeet("a - b"));
  EXPECT_TRUE(CanMeet("a - b / 2"));
  EXPECT_FALSE(CanMeet("a - 1"));
  EXPECT_FALSE(CanMeet("4 - b"));
  EXPECT_FALSE(CanMeet("a - a / 2"));
  EXPECT_FALSE(CanMeet("a / 4 - a"));
  EXPECT_FALSE(CanMeet("a + b"));
}

TEST_F(ExprShapeTest, PackedTriangleRowCounts) {
  // The row count as written, or <none>.
  auto RowCountOf = [&](const std::string &Index) -> std::string {
    const clang::Expr *E = returned("return " + Index + ";");
    const clang::Expr *Rows =
        E ? packedTriangleRowCount(E, context()) : nullptr;
    return Rows ? quoteSource(Rows, context()) : "<none>";
  };
  EXPECT_EQ(RowCountOf("a * (a + 1) / 2"), "a + 1");
  EXPECT_EQ(RowCountOf("((a + 1) * a) / 2"), "a + 1");
  EXPECT_EQ(RowCountOf("(a * (a - 1)) >> 1"), "a");
  EXPECT_EQ(RowCountOf("(a + 1) * (a + 2) / 2 - 1"), "<none>");
  EXPECT_EQ(RowCountOf("(a + 1) * (a + 2) / 2"), "a + 2");
  EXPECT_EQ(RowCountOf("(int)(c * (c + 1) / 2)"), "c + 1");
  EXPECT_EQ(RowCountOf("(a + b) * (a + b + 1) / 2"), "a + b + 1");
  // Not a triangular number: other factors, divisors or offsets.
  EXPECT_EQ(RowCountOf("a * (b + 1) / 2"), "<none>");
  EXPECT_EQ(RowCountOf("a * (a + 2) / 2"), "<none>");
  EXPECT_EQ(RowCountOf("a * (a + 1) / 4"), "<none>");
  EXPECT_EQ(RowCountOf("a * (a + 1)"), "<none>");
  EXPECT_EQ(RowCountOf("(a + 1) / 2"), "<none>");
}

TEST_F(ExprShapeTest, CountedLoopShapes) {
  auto Shape = [&](const std::string &Loop) -> std::optional<CountedLoop> {
    const clang::ForStmt *For = firstLoop(Loop);
    return For ? countedLoop(*For, context()) : std::nullopt;
  };
  std::optional<CountedLoop> Up = Shape("for (int i = a; i < b; ++i)");
  ASSERT_TRUE(Up);
  EXPECT_EQ(Up->Counter->getName(), "i");
  EXPECT_EQ(Up->Test, clang::BO_LT);
  EXPECT_EQ(Up->Step, 1);
  // Read with the counter on the left; an assignment as the init.
  std::optional<CountedLoop> Down = Shape("for (k = b; 0 < k; k -= 2)");
  ASSERT_TRUE(Down);
  EXPECT_EQ(Down->Counter->getName(), "k");
  EXPECT_EQ(Down->Test, clang::BO_GT);
  EXPECT_EQ(Down->Step, -2);
  std::optional<CountedLoop> Doubling =
      Shape("for (int i = 1; i <= b; i *= 2)");
  ASSERT_TRUE(Doubling);
  EXPECT_EQ(Doubling->Test, clang::BO_LE);
  EXPECT_FALSE(Doubling->Step);
  EXPECT_EQ(Shape("for (int i = 0; i < Steps; i += Steps)")->Step, 4);
  EXPECT_EQ(Shape("for (int i = 0; i < b; i--)")->Step, -1);
  EXPECT_EQ(Shape("for (int i = 0; i < b; k++)")->Step, std::nullopt);
  EXPECT_FALSE(Shape("for (int i = 0; a < b; ++i)"));
  EXPECT_FALSE(Shape("for (int i = 0, j = 0; i < b; ++i)"));
  EXPECT_FALSE(Shape("for (int i; i < b; ++i)"));
  EXPECT_FALSE(Shape("for (;;)"));
}

TEST_F(ExprShapeTest, UnchangedInitializersAndLoopCounters) {
  Unit = parseCuda("__device__ int f(int a, int n = 256) {\n"
                   "  int k = a * 2;\n"
                   "  int &r = a;\n"
                   "  int m = 3;\n"
                   "  m += 1;\n"
                   "  int u;\n"
                   "  for (int i = 0; i < n; ++i) {}\n"
                   "  for (int p = 0, q = 0; p < n; ++p) {}\n"
                   "  return k + n + r + m + u;\n"
                   "}\n");
  ASSERT_TRUE(Unit);
  const clang::FunctionDecl *Function = findFunction(context(), "f");
  llvm::SmallPtrSet<const clang::VarDecl *, 8> MayChange;
  collectAssignedVariables(Function->getBody(), MayChange);
  const auto *Body = llvm::cast<clang::CompoundStmt>(Function->getBody());
  const auto *Return = llvm::cast<clang::ReturnStmt>(Body->body_back());
  llvm::SmallVector<const clang::Expr *, 5> Terms;
  int64_t Constant = 0;
  flattenSum(Return->getRetValue(), context(), Terms, Constant);
  ASSERT_EQ(Terms.size(), 5u);
  auto InitText = [&](const clang::Expr *Term) -> std::string {
    const clang::Expr *Init = unchangedInitializer(Term, MayChange);
    return Init ? quoteSource(Init, context()) : "<none>";
  };
  EXPECT_EQ(InitText(Terms[0]), "a * 2");
  // A parameter holds what the call passes, not its default argument.
  EXPECT_EQ(InitText(Terms[1]), "<none>");
  // A reference, a reassigned local and one without an initialiser.
  EXPECT_EQ(InitText(Terms[2]), "<none>");
  EXPECT_EQ(InitText(Terms[3]), "<none>");
  EXPECT_EQ(InitText(Terms[4]), "<none>");

  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> Counters;
  collectLoopCounters(Function->getBody(), Counters);
  ASSERT_EQ(Counters.size(), 1u);
  EXPECT_EQ(Counters.begin()->first->getName(), "i");
}

TEST_F(ExprShapeTest, VariableWritesByKind) {
  Unit = parseCuda("__device__ int total;\n"
                   "__device__ void take(int *);\n"
                   "__device__ void f(int n) {\n"
                   "  int a = 1, b = 2, c = 3, d = 4, e = 5;\n"
                   "  a = n * 2;\n"
                   "  a = n;\n"
                   "  b += n;\n"
                   "  ++c;\n"
                   "  take(&d);\n"
                   "  total = e;\n"
                   "  n = e;\n"
                   "}\n");
  ASSERT_TRUE(Unit);
  const clang::FunctionDecl *Function = findFunction(context(), "f");
  VariableWrites Writes = collectVariableWrites(Function->getBody());
  auto Named = [&](const auto &Map, llvm::StringRef Name) {
    std::vector<std::string> Values;
    for (const auto &[Var, Written] : Map)
      if (Var->getName() == Name)
        for (const clang::Expr *Value : Written)
          Values.push_back(quoteSource(Value, context()));
    return Values;
  };
  auto ChangedOtherwise = [&](llvm::StringRef Name) {
    return llvm::any_of(
        Writes.ChangedOtherwise,
        [&](const clang::VarDecl *Var) { return Var->getName() == Name; });
  };
  // Plain assignments in source order; initialisers are not writes.
  EXPECT_EQ(Named(Writes.Assigned, "a"),
            (std::vector<std::string>{"n * 2", "n"}));
  EXPECT_FALSE(ChangedOtherwise("a"));
  EXPECT_EQ(Named(Writes.Combined, "b"), std::vector<std::string>{"n"});
  EXPECT_TRUE(ChangedOtherwise("b"));
  EXPECT_TRUE(ChangedOtherwise("c"));
  EXPECT_TRUE(ChangedOtherwise("d"));
  EXPECT_FALSE(ChangedOtherwise("e"));
  // Globals and parameters are named directly too.
  EXPECT_EQ(Named(Writes.Assigned, "total"), std::vector<std::string>{"e"});
  EXPECT_EQ(Named(Writes.Assigned, "n"), std::vector<std::string>{"e"});
}

TEST_F(ExprShapeTest, LoopsEnteredAtLeastOnce) {
  auto Enters = [&](const std::string &Loop) {
    const clang::ForStmt *For = firstLoop(Loop);
    return For && entersAtLeastOnce(*For, context());
  };
  EXPECT_TRUE(Enters("for (int i = 0; i < 2000; ++i)"));
  EXPECT_TRUE(Enters("for (int i = 0; i < Steps; i++)"));
  EXPECT_TRUE(Enters("for (k = 3; k >= 1; --k)"));
  EXPECT_TRUE(Enters("for (int i = 1; 8 > i; i *= 2)"));
  EXPECT_TRUE(Enters("for (int i = 0; i != 4; ++i)"));
  EXPECT_FALSE(Enters("for (int i = 0; i < 0; ++i)"));
  EXPECT_FALSE(Enters("for (int i = 0; i < a; ++i)"));
  EXPECT_FALSE(Enters("for (int i = a; i < 4; ++i)"));
  EXPECT_FALSE(Enters("for (int i = 0; b < 4; ++i)"));
  EXPECT_FALSE(Enters("for (;;)"));
}

TEST_F(ExprShapeTest, LoopsOverWholeTiles) {
  auto Whole = [&](const std::string &Loop) {
    const clang::ForStmt *For = firstLoop(Loop);
    if (!For)
      return false;
    const auto *Test = llvm::cast<clang::BinaryOperator>(For->getCond());
    const auto *Quotient = llvm::dyn_cast<clang::BinaryOperator>(
        Test->getRHS()->IgnoreParenImpCasts());
    // The width the index scales the counter by: the quotient's divisor,
    // or the bound where there is no quotient.
    const clang::Expr *Width = Quotient ? Quotient->getRHS() : Test->getRHS();
    return visitsWholeTilesOnly(*For, *Width, context());
  };
  EXPECT_TRUE(Whole("for (int t = 0; t < a / Steps; ++t)"));
  EXPECT_TRUE(Whole("for (int t = 0; t < a / b; t++)"));
  EXPECT_TRUE(Whole("for (int t = 1; t < (a - 1) / Steps; ++t)"));
  // Rounded up: the last tile is partial.
  EXPECT_FALSE(Whole("for (int t = 0; t < (a + Steps - 1) / Steps; ++t)"));
  EXPECT_FALSE(Whole("for (int t = 0; t < (a + 3) / Steps; ++t)"));
  // Not a quotient, not from a constant, not by ones, not `<`.
  EXPECT_FALSE(Whole("for (int t = 0; t < a; t += Steps)"));
  EXPECT_FALSE(Whole("for (int t = b; t < a / Steps; ++t)"));
  EXPECT_FALSE(Whole("for (int t = 0; t < a / Steps; t += 2)"));
  EXPECT_FALSE(Whole("for (int t = 0; t <= a / Steps; ++t)"));
}

TEST_F(ExprShapeTest, TileWidthMustMatchTheDivisor) {
  const clang::ForStmt *For = firstLoop("for (int t = 0; t < a / Steps; ++t)");
  ASSERT_TRUE(For);
  const auto *Test = llvm::cast<clang::BinaryOperator>(For->getCond());
  // `a` is not the width the quotient divides by.
  const auto *Quotient =
      llvm::cast<clang::BinaryOperator>(Test->getRHS()->IgnoreParenImpCasts());
  EXPECT_FALSE(visitsWholeTilesOnly(*For, *Quotient->getLHS(), context()));
}

TEST_F(ExprShapeTest, BinaryOperationsAsWritten) {
  // In a template, `c < x.size(1)` with an operator< in scope is a call
  // of an unresolved operator until instantiation.
  Unit = parseCuda("struct H {};\nbool operator<(H, H);\n"
                   "template <typename T> bool f(T x, int c) {\n"
                   "  return c < x.size(1);\n}\n"
                   "template <typename T> bool g(T x, int c) {\n"
                   "  return c + x;\n}\n"
                   "bool h(int a, int b) { return a >= b; }\n");
  ASSERT_TRUE(Unit);
  auto Returned = [&](llvm::StringRef Name) {
    const clang::FunctionDecl *F = findFunction(context(), Name);
    const auto *Body = llvm::cast<clang::CompoundStmt>(F->getBody());
    return llvm::cast<clang::ReturnStmt>(Body->body_back())->getRetValue();
  };
  std::optional<BinaryOperation> Dependent = asBinaryOperation(Returned("f"));
  ASSERT_TRUE(Dependent);
  EXPECT_EQ(Dependent->Opcode, clang::BO_LT);
  EXPECT_TRUE(llvm::isa<clang::DeclRefExpr>(Dependent->LHS));
  std::optional<BinaryOperation> Plain =
      asBinaryOperation(Returned("h")->IgnoreImpCasts());
  ASSERT_TRUE(Plain);
  EXPECT_EQ(Plain->Opcode, clang::BO_GE);
  // Arithmetic is not a comparison.
  EXPECT_FALSE(asBinaryOperation(Returned("g")));
}

TEST_F(ExprShapeTest, ReadVariablesOnceEachInOrder) {
  const clang::Expr *E = returned("int l = 1; return b + a * b + g + l;");
  ASSERT_TRUE(E);
  llvm::SmallVector<const clang::VarDecl *, 4> Locals;
  collectReadVariables(E, Locals);
  std::vector<std::string> Names;
  for (const clang::VarDecl *Var : Locals)
    Names.push_back(Var->getNameAsString());
  EXPECT_EQ(Names, (std::vector<std::string>{"b", "a", "l"}));

  llvm::SmallVector<const clang::VarDecl *, 4> All;
  collectReadVariables(E, All, ReadScope::AllVariables);
  EXPECT_EQ(All.size(), 4u);
  EXPECT_EQ(All[2]->getName(), "g");
}

TEST_F(ExprShapeTest, AddressedLocalVariables) {
  const clang::VarDecl *Var =
      addressedLocalVariable(returned("return (int)(long)(void **)&a;"));
  ASSERT_TRUE(Var);
  EXPECT_EQ(Var->getName(), "a");
  // A global's address, and a plain read, name no local.
  EXPECT_FALSE(addressedLocalVariable(returned("return (int)(long)&g;")));
  EXPECT_FALSE(addressedLocalVariable(returned("return a;")));
}

} // namespace
