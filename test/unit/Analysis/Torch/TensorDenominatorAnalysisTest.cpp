//===--- TensorDenominatorAnalysisTest.cpp - Denominator analysis ---------===//

#include "Analysis/Torch/TensorDenominatorAnalysis.h"
#include "AnalysisTestSupport.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace clang;
using namespace gpuguard::torch;

namespace {

using gpuguard::test::parseTorch;

struct Finding {
  unsigned Line; ///< of the denominator, counted from the body's brace
  TensorValue::KindType Kind;
  unsigned SourceLine; ///< of what made the data non-negative; 0 for none
  bool operator==(const Finding &O) const {
    return Line == O.Line && Kind == O.Kind && SourceLine == O.SourceLine;
  }
};

std::ostream &operator<<(std::ostream &OS, const Finding &F) {
  return OS << "{line " << F.Line << ", kind " << F.Kind << ", source line "
            << F.SourceLine << "}";
}

/// The risky divisions of the function `f` in \p Code.
std::vector<Finding> findings(const std::string &Code) {
  std::unique_ptr<ASTUnit> Unit = parseTorch(Code);
  if (!Unit)
    return {};
  const FunctionDecl *Function =
      gpuguard::test::findFunction(Unit->getASTContext(), "f");
  EXPECT_TRUE(Function);
  if (!Function)
    return {};
  TensorDenominatorAnalysis Analysis(*Function, Unit->getASTContext());
  std::vector<Finding> Result;
  for (const RiskyDivision &Division : Analysis.riskyDivisions())
    Result.push_back({gpuguard::test::lineInBody(
                          *Function, Division.Denominator->getBeginLoc()),
                      Division.Value.Kind,
                      Division.Value.Source
                          ? gpuguard::test::lineInBody(
                                *Function, Division.Value.Source->getBeginLoc())
                          : 0});
  return Result;
}

using K = TensorValue;

TEST(TensorDenominatorAnalysisTest, ZeroEverywhere) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor y) {
  auto z = torch::zeros({2});
  auto a = x / z;
  auto b = x / (y - y);
  auto c = x / (y * 0);
  auto d = x / (y - x);
  return a + b + c + d;
})"),
            (std::vector<Finding>{
                {2, K::Zero, 1}, {3, K::Zero, 3}, {4, K::Zero, 4}}));
}

TEST(TensorDenominatorAnalysisTest, SumOfNonNegativeKeepsItsSource) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor t) {
  auto mask = (t > 0).to(torch::kFloat);
  auto n = mask.sum();
  auto r = torch::relu(x);
  return x / n + x / r.mean() + x / x.sum();
})"),
            (std::vector<Finding>{{4, K::Sum, 1}, {4, K::Mean, 3}}));
}

TEST(TensorDenominatorAnalysisTest, SpreadsOfAnyData) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x) {
  auto e = torch::exp(x);
  return x / x.std() + x / x.var() + x / x.norm() + x / e.sum() + x / e.norm();
})"),
            (std::vector<Finding>{{2, K::StandardDeviation, 0},
                                  {2, K::Variance, 0},
                                  {2, K::Norm, 0}}));
}

TEST(TensorDenominatorAnalysisTest, ProtectionsEndTheRisk) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor t) {
  auto m = (t > 0).sum();
  auto a = x / (m + 1) + x / m.clamp_min(1e-6) + x / (x.std() + 1e-5);
  auto b = x / torch::where(m == 0, torch::ones_like(m), m);
  auto c = x / torch::maximum(x.std(), torch::full({}, 1e-6));
  auto d = x / (x.abs() + 1e-8) + x / x.abs().sum().clamp(1e-3);
  return a + b + c + d;
})"),
            std::vector<Finding>{});
}

TEST(TensorDenominatorAnalysisTest, InPlaceClampIsFlowSensitive) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, bool careful) {
  auto s = x.std();
  auto before = x / s;
  if (careful)
    s.clamp_min_(1e-6);
  auto maybe = x / s;
  s.clamp_min_(1e-6);
  return before + maybe + x / s;
})"),
            (std::vector<Finding>{{2, K::StandardDeviation, 0},
                                  {5, K::StandardDeviation, 0}}));
}

TEST(TensorDenominatorAnalysisTest, ChecksOnBranchEdges) {
  EXPECT_EQ(
      findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor t) {
  auto n = (t == 1).sum();
  auto s = x.std();
  torch::Tensor a, b, c;
  if (s.item<float>() > 0)
    a = x / s;
  else
    a = x / s;
  if ((t > 2).sum().item<int>() != 0)
    b = x / (t > 2).sum();
  TORCH_CHECK(n.item<int>() > 0, "no label 1");
  c = x / n;
  n = (t == 2).sum();
  return a + b + c + x / n;
})"),
      (std::vector<Finding>{{7, K::StandardDeviation, 0}, {13, K::Sum, 12}}));
}

TEST(TensorDenominatorAnalysisTest, AnyNonZeroElementMakesTheSumPositive) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor t) {
  auto mask = (t > 0).to(torch::kFloat);
  torch::Tensor a, b;
  if (mask.any().item<bool>())
    a = x / mask.sum() + x / mask;
  mask = (t > 1).to(torch::kFloat);
  if (x.any().item<bool>())
    b = x / mask.mean();
  return a + b;
})"),
            (std::vector<Finding>{{7, K::Mean, 5}}));
}

TEST(TensorDenominatorAnalysisTest, ZeroInitialisedAccumulator) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(std::vector<torch::Tensor> xs, torch::Tensor y) {
  auto total = torch::zeros({});
  auto signedTotal = torch::zeros({});
  for (const auto &x : xs) {
    total += x.abs().sum();
    signedTotal += x;
  }
  return y / total + y / signedTotal;
})"),
            (std::vector<Finding>{{7, K::Accumulator, 4}}));
}

TEST(TensorDenominatorAnalysisTest, PartialWritesIntoZerosLeaveZeros) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor i, torch::Tensor j, torch::Tensor v) {
  auto m = torch::zeros({4, 4});
  m.index_put_({i, j}, torch::ones({8}), true);
  auto n = torch::zeros({4});
  n.scatter_add_(0, i, (v > 0).to(torch::kFloat));
  auto s = torch::zeros({4});
  s.index_add_(0, i, v);
  auto o = torch::ones({4});
  o.index_add_(0, i, torch::ones({8}));
  return v / m.sum(0) + v / m.sum(1).clamp_min(1) + v / n + v / s + v / o;
})"),
            (std::vector<Finding>{{9, K::Sum, 1}, {9, K::Accumulator, 4}}));
}

TEST(TensorDenominatorAnalysisTest, JoinKeepsAFixedUpCount) {
  EXPECT_EQ(findings(R"(
torch::Tensor f(torch::Tensor x, torch::Tensor t) {
  auto n = (t == 1).sum();
  if (n.item<long>() == 0)
    n = torch::ones({});
  return x / n;
})"),
            std::vector<Finding>{});
}

} // namespace
