//===--- TensorFactsTest.cpp ----------------------------------------------===//

#include "Analysis/Torch/TensorFacts.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::torch;
using namespace gpuguard::test;

namespace {

std::unique_ptr<clang::ASTUnit> parseTorch(const std::string &Code) {
  return gpuguard::test::parseTorch(Code, "void probe(const at::Tensor &);\n");
}

/// What the analysis knows of the argument of the last `probe(...)` call
/// in each of \p Bodies, each the body of a function
/// `(bool flag, at::Tensor unknown)`. One parse serves them all: the header
/// is the slow part.
std::vector<TensorFact> factsAtProbes(const std::vector<std::string> &Bodies) {
  std::string Code;
  for (size_t I = 0; I < Bodies.size(); ++I)
    Code += "void f" + std::to_string(I) +
            "(bool flag, at::Tensor unknown) {\n" + Bodies[I] + "\n}\n";
  auto Unit = parseTorch(Code);
  std::vector<TensorFact> Results(Bodies.size());
  if (!Unit)
    return Results;
  clang::ASTContext &Context = Unit->getASTContext();
  for (size_t I = 0; I < Bodies.size(); ++I) {
    const clang::FunctionDecl *Function =
        findFunction(Context, "f" + std::to_string(I));
    if (!Function)
      continue;
    TensorFacts Facts(*Function, Context);
    Facts.forEachReachable(
        [&](const clang::Stmt *S, const TensorFactMap &State) {
          const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
          const auto *Callee = Call ? Call->getDirectCallee() : nullptr;
          if (Callee && Callee->getIdentifier() && Callee->getName() == "probe")
            Results[I] = Facts.evaluate(Call->getArg(0), State);
        });
  }
  return Results;
}

/// Checks \p Describe of the probed fact of each body against its expected
/// text.
void expectFacts(
    llvm::function_ref<std::string(const TensorFact &)> Describe,
    const std::vector<std::pair<std::string, std::string>> &Cases) {
  std::vector<std::string> Bodies;
  for (const auto &Case : Cases)
    Bodies.push_back(Case.first);
  std::vector<TensorFact> Facts = factsAtProbes(Bodies);
  for (size_t I = 0; I < Cases.size(); ++I)
    EXPECT_EQ(Describe(Facts[I]), Cases[I].second) << Cases[I].first;
}

using Shape = llvm::SmallVector<int64_t, 4>;

std::string shapeOf(const TensorFact &Fact) {
  return Fact.Shape ? formatShape(*Fact.Shape) : "unknown";
}

std::string rangeOf(const TensorFact &Fact) {
  if (!Fact.hasRange())
    return "unknown";
  return "[" + std::to_string(*Fact.Low) + ", " + std::to_string(*Fact.High) +
         "]" + (Fact.ExactBounds ? "" : "~");
}

TEST(TensorFactsTest, FactoryShapes) {
  expectFacts(shapeOf,
              {
                  {"auto x = torch::randn({4, 10}); probe(x);", "[4, 10]"},
                  {"const int64_t N = 8; constexpr int C = 3;\n"
                   "auto x = torch::zeros({N, C}); probe(x);",
                   "[8, 3]"},
                  {"int64_t n = 5; auto x = torch::ones({n, 2});"
                   "probe(x);",
                   "[5, 2]"},
                  {"int64_t n = 5; n += 1;\n"
                   "auto x = torch::ones({n, 2}); probe(x);",
                   "[?, 2]"},
                  {"probe(torch::tensor({{1, 2, 3}, {4, 5, 6}}));", "[2, 3]"},
                  {"probe(torch::randint(0, 5, {7}));", "[7]"},
                  {"probe(torch::full({2, 2}, 7));", "[2, 2]"},
                  {"probe(torch::arange(6));", "[6]"},
                  {"probe(unknown);", "unknown"},
              });
}

TEST(TensorFactsTest, ShapeOps) {
  const std::string X = "auto x = torch::randn({4, 6});\n";
  expectFacts(shapeOf,
              {
                  {X + "probe(x.view({-1, 3}));", "[8, 3]"},
                  {X + "probe(x.reshape({24}));", "[24]"},
                  {X + "probe(x.unsqueeze(1));", "[4, 1, 6]"},
                  {X + "probe(x.unsqueeze(-1));", "[4, 6, 1]"},
                  {X + "probe(x.unsqueeze(0).squeeze());", "[4, 6]"},
                  {X + "probe(x.view({4, 1, 6}).squeeze(1));", "[4, 6]"},
                  {X + "probe(x.flatten());", "[24]"},
                  {X + "probe(x.t());", "[6, 4]"},
                  {X + "probe(x.transpose(0, 1));", "[6, 4]"},
                  {X + "probe(x.to(torch::kDouble));", "[4, 6]"},
                  {X + "probe(x.sum(1));", "[4]"},
                  {X + "probe(x.mean({0}, true));", "[1, 6]"},
                  {X + "probe(x.sum());", "[]"},
                  {X + "probe(x.argmax(1));", "[4]"},
                  {X + "probe(x.softmax(1));", "[4, 6]"},
              });
}

TEST(TensorFactsTest, BroadcastAndMatmul) {
  expectFacts(shapeOf, {
                           {"probe(torch::randn({4, 1}) - "
                            "torch::randn({4}));",
                            "[4, 4]"},
                           {"probe(torch::randn({4, 3}) * 2);", "[4, 3]"},
                           {"probe(torch::randn({4, 3}) + "
                            "torch::randn({5}));",
                            "unknown"},
                           {"probe(torch::randn({4, 3}).matmul("
                            "torch::randn({3, 7})));",
                            "[4, 7]"},
                           {"probe(torch::mm(torch::randn({2, 3}), "
                            "torch::randn({3, 5})));",
                            "[2, 5]"},
                           {"probe(torch::matmul(torch::randn({9, 2, 3}), "
                            "torch::randn({3})));",
                            "[9, 2]"},
                       });
}

TEST(TensorFactsTest, Modules) {
  expectFacts(shapeOf,
              {
                  {"torch::nn::Linear fc(16, 4);\n"
                   "probe(fc(torch::randn({8, 16})));",
                   "[8, 4]"},
                  {"torch::nn::Linear fc(torch::nn::LinearOptions(16, 1));\n"
                   "probe(fc->forward(torch::randn({2, 8, 16})));",
                   "[2, 8, 1]"},
                  {"torch::nn::Embedding emb(100, 32);\n"
                   "probe(emb(torch::randint(0, 100, {4, 5})));",
                   "[4, 5, 32]"},
              });
}

TEST(TensorFactsTest, ValueRanges) {
  expectFacts(rangeOf, {
                           {"probe(torch::randint(0, 120, {8}));", "[0, 119]"},
                           {"probe(torch::randint(10, {8}));", "[0, 9]"},
                           {"probe(torch::tensor({3, -1, 7}));", "[-1, 7]"},
                           {"probe(torch::full({3}, 4));", "[4, 4]"},
                           {"probe(torch::zeros({3}));", "[0, 0]"},
                           {"probe(torch::arange(2, 9));", "[2, 8]"},
                           {"probe(torch::randint(0, 120, {8}).clamp(0, "
                            "99));",
                            "[0, 99]~"},
                           {"auto x = torch::randint(0, 50, {8});\n"
                            "x.clamp_(0, 99); probe(x);",
                            "[0, 49]"},
                           {"probe(unknown % 10);", "[0, 9]~"},
                           {"probe(torch::randint(0, 5, {8}) + 3);", "[3, 7]"},
                           {"probe(torch::randn({4, 6}).argmax(1));", "[0, 5]"},
                           {"probe(unknown.clamp_min(0));", "unknown"},
                       });
}

TEST(TensorFactsTest, MinMaxNormalisation) {
  expectFacts(rangeOf,
              {
                  // The maximum maps to the factor itself; both ends taken.
                  {"auto x = torch::randn({8});\n"
                   "probe(((x - x.min()) / (x.max() - x.min()) * 10)"
                   ".to(torch::kLong));",
                   "[0, 10]"},
                  {"auto x = torch::randn({8});\n"
                   "auto n = (x - x.min()) / (x.max() - x.min());\n"
                   "probe((n * 9 + 1).to(torch::kLong));",
                   "[1, 10]"},
                  // Not a normalisation: other data, another span, a clamp.
                  {"auto x = torch::randn({8});\n"
                   "probe(((unknown - x.min()) / (x.max() - x.min()) * 10)"
                   ".to(torch::kLong));",
                   "unknown"},
                  {"auto x = torch::randn({8});\n"
                   "probe(((x - x.min()) / (x.max() - x.min() + 1) * 10)"
                   ".to(torch::kLong));",
                   "unknown"},
                  {"auto x = torch::randn({8});\n"
                   "probe(((x - x.min()) / (x.max() - x.min()) * 10)"
                   ".clamp_max(9).to(torch::kLong));",
                   "unknown"},
              });
}

TEST(TensorFactsTest, FlowSensitivity) {
  expectFacts(shapeOf, {{"auto x = torch::randint(0, 5, {8});\n"
                         "if (flag) x = torch::randint(0, 9, {8});\n"
                         "probe(x);",
                         "[8]"}});
  expectFacts(rangeOf,
              {
                  // A later assignment replaces the fact; paths that disagree
                  // forget it.
                  {"auto x = torch::randint(0, 5, {8});\n"
                   "x = torch::randint(0, 9, {8}); probe(x);",
                   "[0, 8]"},
                  {"auto x = torch::randint(0, 5, {8});\n"
                   "if (flag) x = torch::randint(0, 9, {8});\n"
                   "probe(x);",
                   "unknown"},
                  {"auto x = torch::randint(0, 5, {8});\n"
                   "if (flag) x.fill_(2);\n"
                   "probe(x);",
                   "unknown"},
                  // In-place arithmetic moves nothing it cannot follow.
                  {"auto x = torch::randint(0, 5, {8});\n"
                   "x.mul_(unknown); probe(x);",
                   "unknown"},
              });
}

TEST(TensorFactsTest, UncheckedCasts) {
  auto Cast = [](const TensorFact &Fact) -> std::string {
    return Fact.UncheckedCast ? "unchecked" : "safe";
  };
  const std::string P = "auto p = torch::rand({8}) * 100;\n";
  expectFacts(
      Cast,
      {
          {P + "probe(p.to(torch::kLong));", "unchecked"},
          {P + "probe(p.floor().toType(torch::kLong));", "unchecked"},
          {"probe((torch::rand({8}) * 7).to(torch::kInt));", "unchecked"},
          // A floating clamp keeps NaN, which a quotient may hold; finite
          // values clamped on both sides are bounded.
          {"auto q = torch::rand({8}) / torch::rand({8});\n"
           "probe(q.clamp(0, 9).to(torch::kInt64));",
           "unchecked"},
          {P + "probe(p.clamp(0, 9).to(torch::kInt64));", "safe"},
          {P + "probe(p.clamp_min(0).to(torch::kInt64));", "unchecked"},
          {"auto s = torch::randn({8}) * torch::rand({8}) - 0.5;\n"
           "probe((s * 10).clamp(0, 9).floor().to(torch::kLong));",
           "safe"},
          {"probe(torch::log(torch::rand({8})).clamp(0, 9)"
           ".to(torch::kLong));",
           "unchecked"},
          {P + "probe(p.to(torch::kLong).clamp_min(0));", "unchecked"},
          {P + "probe(p.to(torch::kLong).clamp(0, 9));", "safe"},
          {P + "probe(p.to(torch::kLong) % 9);", "safe"},
          {P + "probe(p.nan_to_num().to(torch::kLong));", "safe"},
          {P + "TORCH_CHECK(torch::isfinite(p).all().item<bool>());\n"
               "probe(p.to(torch::kLong));",
           "safe"},
          {P + "auto i = p.to(torch::kLong);\n"
               "if (!torch::isfinite(p).all().item<bool>()) return;\n"
               "probe(i);",
           "safe"},
          // Values that were finite to begin with.
          {"probe(torch::rand({8}).to(torch::kLong));", "safe"},
          {"probe(torch::randint(0, 5, {8}).to(torch::kLong));", "safe"},
          // Unknown element type: maybe integer to integer.
          {"probe(unknown.to(torch::kLong));", "safe"},
          // An isfinite whose result decides nothing checks nothing.
          {P + "auto ok = torch::isfinite(p);\nprobe(p.to(torch::kLong));",
           "unchecked"},
      });
}

TEST(TensorFactsTest, Remainders) {
  expectFacts(rangeOf, {
                           // A range spanning the divisor takes every residue.
                           {"probe(torch::arange(12) % 5);", "[0, 4]"},
                           {"probe(torch::arange(12) % 5 + 1);", "[1, 5]"},
                           {"probe(torch::arange(2, 5) % 5);", "[2, 4]"},
                           {"probe(torch::arange(3, 6) % 5);", "[0, 4]~"},
                           {"probe(torch::arange(10) * 5 % 5);", "[0, 4]~"},
                           {"probe(torch::tensor({3, 9, -1}) % 5);", "[3, 4]"},
                       });
}

TEST(TensorFactsTest, ViewWrites) {
  const std::string X = "auto x = torch::randint(0, 5, {4, 6});\n";
  expectFacts(shapeOf,
              {
                  {X + "probe(x.slice(1, 2));", "[4, 4]"},
                  {X + "probe(x.slice(1, -2));", "[4, 2]"},
                  {X + "probe(x.slice(0, 1, 3));", "[2, 6]"},
                  {X + "probe(x.slice(1, 0, 6, 4));", "[4, 2]"},
                  {X + "probe(x.narrow(1, 4, 2));", "[4, 2]"},
                  {X + "probe(x.slice(1, unknown.size(0)));", "[4, ?]"},
              });
  expectFacts(
      rangeOf,
      {
          {X + "x.slice(1, 3) = -1; probe(x);", "[-1, 4]"},
          {X + "x[0] = 9; probe(x);", "[0, 9]"},
          {X + "x.narrow(0, 1, 2).select(1, 0) = 7; probe(x);", "[0, 7]"},
          {X + "x.slice(1, 0) = 2; probe(x);", "[2, 2]"},
          {X + "x.slice(1, 6) = 9; probe(x);", "unknown"},
          {X + "x.slice(1, 3).add_(1); probe(x);", "unknown"},
          {X + "x[unknown] = 9; probe(x);", "[0, 4]"},
          // A literal's extreme element may be the one overwritten.
          {"auto t = torch::tensor({0, 9});\n"
           "t.slice(0, 1) = 3; probe(t);",
           "[0, 9]~"},
      });
}

TEST(TensorFactsTest, BroadcastShapes) {
  EXPECT_EQ(broadcastShapes({4, 1}, {4}), Shape({4, 4}));
  EXPECT_EQ(broadcastShapes({2, 1, 3}, {5, 1}), Shape({2, 5, 3}));
  EXPECT_EQ(broadcastShapes({4, 3}, {5}), std::nullopt);
  EXPECT_EQ(formatShape({8, UnknownSize}), "[8, ?]");
}

} // namespace
