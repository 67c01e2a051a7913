//===--- SourceTextTest.cpp -----------------------------------------------===//

#include "Analysis/Core/SourceText.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// The quoted text of every argument of a call of `use` in \p Code.
std::vector<std::string> quotedArguments(const std::string &Code) {
  auto Unit = parseCuda("void use(int);\n" + Code);
  if (!Unit)
    return {};
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    clang::ASTContext &Context;
    std::vector<std::string> Quoted;
    explicit Collector(clang::ASTContext &Context) : Context(Context) {}
    bool VisitCallExpr(clang::CallExpr *Call) {
      const clang::FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getName() == "use")
        Quoted.push_back(quoteSource(Call->getArg(0), Context));
      return true;
    }
  } Visit(Unit->getASTContext());
  Visit.TraverseDecl(Unit->getASTContext().getTranslationUnitDecl());
  return Visit.Quoted;
}

using Texts = std::vector<std::string>;

TEST(SourceTextTest, WrittenText) {
  EXPECT_EQ(quotedArguments("void f(int a, int b) { use(a   +\n b); }"),
            Texts({"a + b"}));
}

TEST(SourceTextTest, LongTextIsShortened) {
  std::string Sum = "a";
  for (int I = 0; I < 30; ++I)
    Sum += " + a";
  Texts Quoted = quotedArguments("void f(int a) { use(" + Sum + "); }");
  ASSERT_EQ(Quoted.size(), 1u);
  EXPECT_EQ(Quoted[0].size(), 60u);
  EXPECT_TRUE(llvm::StringRef(Quoted[0]).ends_with("..."));
}

TEST(SourceTextTest, TextInAMacroBody) {
  // A binding macro's body: quoted as the body spells it, across its line
  // continuations; a macro argument as the call writes it; an expansion
  // mixing body and arguments as the code uses the macro.
  EXPECT_EQ(quotedArguments("#define BIND(name) \\\n"
                            "  void name(int a, int b) { use(a * \\\n"
                            "                                b); }\n"
                            "BIND(g)\n"
                            "#define USE(x) use(x)\n"
                            "void h(int c) { USE(c + 1); }\n"
                            "#define SCALE(a, b) use((a) * (b) + 1)\n"
                            "void s(int x, int y) { SCALE(x, y); }\n"
                            "#define N 64\n"
                            "#define AT(i, j) use((i) + (j) * N)\n"
                            "void k(int i) { AT(i, 2); }\n"),
            Texts({"a * b", "c + 1", "SCALE(x, y)", "AT(i, 2)"}));
}

} // namespace
