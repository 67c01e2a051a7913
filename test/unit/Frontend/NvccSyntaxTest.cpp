//===--- NvccSyntaxTest.cpp -----------------------------------------------===//
//
// Juxtaposed asm operands are recognised at the second operand's string, and
// nowhere else: not in the template, not after a comma, not outside asm.
//
//===----------------------------------------------------------------------===//

#include "Frontend/NvccSyntax.h"
#include "gtest/gtest.h"
#include <string>

using namespace gpuguard::frontend;

namespace {

/// Whether the source is juxtaposed at the last `"` of \p Marker in it.
bool juxtaposedAt(const std::string &Source, const std::string &Marker) {
  std::size_t At = Source.find(Marker);
  EXPECT_NE(At, std::string::npos) << Marker;
  return isJuxtaposedAsmOperand(Source, At + Marker.rfind('"'));
}

TEST(NvccSyntaxTest, OperandsWithoutCommaAreJuxtaposed) {
  std::string Source = "__device__ void f(int v, void *p) {\n"
                       "  asm volatile(\"st.u8 [%1], %0;\" ::\"r\"(v) "
                       "\"l\"(p) : \"memory\");\n}\n";
  EXPECT_TRUE(juxtaposedAt(Source, "(v) \""));
  std::string Outputs = "void g(int r, void *p) {\n"
                        "  __asm__ __volatile__(\"ld %0, [%1];\" : "
                        "\"=r\"(r)\n      \"=l\"(p));\n}\n";
  EXPECT_TRUE(juxtaposedAt(Outputs, "(r)\n      \""));
}

TEST(NvccSyntaxTest, WellFormedOperandsAreNot) {
  std::string Source = "void f(int v, void *p) {\n"
                       "  asm volatile(\"st.u8 [%1], %0;\" ::\"r\"(v), "
                       "\"l\"(p) : \"memory\");\n}\n";
  EXPECT_FALSE(juxtaposedAt(Source, "(v), \""));
  // The template string itself follows the opening parenthesis.
  EXPECT_FALSE(juxtaposedAt(Source, "volatile(\""));
}

TEST(NvccSyntaxTest, StringsOutsideAsmOperandsAreNot) {
  // Adjacent to a call's parenthesis, but not in an asm statement.
  std::string Call = "void f() { g(h(1) \"x\"); }\n";
  EXPECT_FALSE(juxtaposedAt(Call, "(1) \""));
  // Inside asm parentheses but before the first colon: the template.
  std::string Template = "void f() { asm(\"a\" (1) \"b\"); }\n";
  EXPECT_FALSE(juxtaposedAt(Template, "(1) \""));
  // After the asm statement has closed.
  std::string After = "void f(int v) { asm(\"\" :: \"r\"(v)); g(v) \"x\"; }\n";
  EXPECT_FALSE(juxtaposedAt(After, "g(v) \""));
  // A word that merely ends in asm.
  std::string Word = "void f(int v) { plasm(\"\" :: \"r\"(v) \"x\"); }\n";
  EXPECT_FALSE(juxtaposedAt(Word, "(v) \""));
}

TEST(NvccSyntaxTest, OffsetsOutOfRangeAreNot) {
  EXPECT_FALSE(isJuxtaposedAsmOperand("", 0));
  EXPECT_FALSE(isJuxtaposedAsmOperand("\"", 0));
  EXPECT_FALSE(isJuxtaposedAsmOperand("asm(", 10));
}

} // namespace
