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

namespace {

/// \p Source with its spaced launch chevrons joined, or "unchanged".
std::string joined(const std::string &Source) {
  std::optional<std::string> Text = joinSpacedLaunchChevrons(Source);
  if (!Text)
    return "unchanged";
  EXPECT_EQ(Text->size(), Source.size());
  return *Text;
}

TEST(NvccSyntaxTest, SpacedLaunchChevronsAreJoined) {
  // Visual Studio's formatting of a launch, as simple-knn and the Gaussian
  // splatting rasteriser are written.
  EXPECT_EQ(joined("boxMinMax << <(P + 255) / 256, 256 >> > (P, pts);"),
            "boxMinMax <<< (P + 255) / 256, 256 >>>  (P, pts);");
  EXPECT_EQ(joined("k<< <grid, block>> >(a);"), "k<<< grid, block>>> (a);");
  // Shifts inside the configuration are not its end.
  EXPECT_EQ(joined("k << <(n >> 5), (m >> 1) >> > (a);"),
            "k <<< (n >> 5), (m >> 1) >>>  (a);");
  // One side spaced, the other joined.
  EXPECT_EQ(joined("k<<<g, b >> >(a);"), "k<<<g, b >>> (a);");
  EXPECT_EQ(joined("k << <g, b>>>(a);"), "k <<< g, b>>>(a);");
  // Each launch of several.
  EXPECT_EQ(joined("f << <1, 1 >> > ();\ng << <2, 2 >> > ();"),
            "f <<< 1, 1 >>>  ();\ng <<< 2, 2 >>>  ();");
}

TEST(NvccSyntaxTest, OtherChevronsStay) {
  EXPECT_EQ(joined("k<<<g, b>>>(a);"), "unchanged");
  EXPECT_EQ(joined("std::cout << x << std::endl;"), "unchanged");
  // `operator<< <>` names a specialisation of operator<<.
  EXPECT_EQ(joined("friend std::ostream &operator<< <>(std::ostream &, "
                   "const Box<T> &);"),
            "unchanged");
  // Shifts and comparisons: `a << <=` is no launch, nor is a spaced opener
  // with no launch's arguments after its close.
  EXPECT_EQ(joined("bool b = x << <= y;"), "unchanged");
  EXPECT_EQ(joined("v << <g, b >> > w;"), "unchanged");
  EXPECT_EQ(joined("x = a >> > b;"), "unchanged");
}

} // namespace
