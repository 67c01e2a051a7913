//===--- InplaceAutogradAnalysisTest.cpp - In-place autograd analysis -----===//

#include "Analysis/Torch/InplaceAutogradAnalysis.h"
#include "AnalysisTestSupport.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace clang;
using namespace gpuguard::torch;

namespace {

/// A snippet parsed against the mock LibTorch header, and the findings of
/// its function \p Name (`f` unless told), each as "line:kind" with the line
/// counted from the body's brace and kind `leaf`, `saved` or (with
/// \p WithCandidates) `maybe`.
class InplaceAutogradAnalysisTest : public ::testing::Test {
protected:
  std::vector<std::string> findingsOf(const std::string &Code,
                                      const std::string &Name = "f",
                                      bool WithCandidates = false) {
    Unit = gpuguard::test::parseTorch(Code);
    std::vector<std::string> Result;
    if (!Unit || Unit->getDiagnostics().hasErrorOccurred())
      return Result;
    ASTContext &Context = Unit->getASTContext();
    const FunctionDecl *F = gpuguard::test::findFunction(Context, Name);
    if (!F) {
      ADD_FAILURE() << "no function " << Name;
      return Result;
    }
    for (const InplaceAutogradFinding &Finding : findInplaceAutogradErrors(
             *F, Context, collectParameterFields(Context), WithCandidates))
      Result.push_back(
          std::to_string(
              gpuguard::test::lineInBody(*F, Finding.Op->getBeginLoc())) +
          (Finding.Kind == InplaceAutogradFinding::LeafRequiresGrad ? ":leaf"
           : Finding.Kind == InplaceAutogradFinding::SavedForBackward
               ? ":saved"
               : ":maybe"));
    return Result;
  }

  std::unique_ptr<ASTUnit> Unit;
};

using Findings = std::vector<std::string>;

TEST_F(InplaceAutogradAnalysisTest, LeafThatRequiresGrad) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    w.add_(1);
    auto u = torch::randn({3});
    u.add_(1);
    u.requires_grad_();
    u.mul_(2);
  })"),
            (Findings{"2:leaf", "6:leaf"}));
}

TEST_F(InplaceAutogradAnalysisTest, NoGradScopesEndWithTheirBlock) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    {
      torch::NoGradGuard guard;
      w.add_(1);
    }
    w.add_(1);
  })"),
            (Findings{"6:leaf"}));
}

TEST_F(InplaceAutogradAnalysisTest, RequiresGradMustHoldOnEveryPath) {
  EXPECT_EQ(findingsOf(R"(void f(bool c) {
    auto w = torch::randn({3});
    if (c)
      w = torch::randn({3}, torch::requires_grad());
    w.add_(1);
  })"),
            Findings());
}

TEST_F(InplaceAutogradAnalysisTest, SavedTensorWrittenBeforeBackward) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = torch::sigmoid(w);
    y.mul_(2);
    y.sum().backward();
    y.mul_(2);
  })"),
            (Findings{"3:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, NoFindingWithoutALaterBackward) {
  EXPECT_EQ(findingsOf(R"(torch::Tensor f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = w.exp();
    y.mul_(2);
    return y;
  })"),
            Findings());
}

TEST_F(InplaceAutogradAnalysisTest, CandidatesOnlyWhenAskedFor) {
  std::string Code = R"(torch::Tensor f(torch::Tensor p) {
    auto x = torch::randn({3}, torch::requires_grad());
    auto z = torch::sigmoid(x);
    z.mul_(2);
    z.sum().backward();
    z.mul_(2);
    auto y = torch::sigmoid(x);
    y.mul_(2);
    auto u = torch::sigmoid(p);
    u.add_(1);
    return y.sum();
  })";
  EXPECT_EQ(findingsOf(Code), (Findings{"3:saved"}));
  // Not a write after the backward(), nor one to a tensor nothing is known
  // to have saved.
  EXPECT_EQ(findingsOf(Code, "f", /*WithCandidates=*/true),
            (Findings{"3:saved", "7:maybe"}));
}

TEST_F(InplaceAutogradAnalysisTest, RebindingForgetsTheSave) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = torch::sigmoid(w);
    auto z = y.sum();
    y = w * 2;
    y.mul_(2);
    z.backward();
  })"),
            Findings());
}

TEST_F(InplaceAutogradAnalysisTest, SavesCarriedAroundALoop) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto h = w * 2;
    auto loss = torch::zeros({1});
    for (int i = 0; i < 3; ++i) {
      h.add_(1);
      loss = loss + (h * h).sum();
    }
    loss.backward();
  })"),
            (Findings{"5:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, BackwardInEachIterationFreesTheSaves) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto x = torch::randn({3});
    for (int i = 0; i < 3; ++i) {
      auto y = torch::sigmoid(x * w);
      y.sum().backward();
      x.mul_(0.9);
    }
  })"),
            Findings());
}

TEST_F(InplaceAutogradAnalysisTest, RetainedGraphKeepsTheSaves) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = torch::sigmoid(w);
    y.sum().backward({}, true);
    y.mul_(2);
    y.sum().backward();
  })"),
            (Findings{"4:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, ViewsAndReferencesAliasTheirTensor) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = w.tanh();
    auto v = y.select(0, 1);
    v.zero_();
    auto &r = y;
    r += 1;
    y[0] = 0;
    y.sum().backward();
  })"),
            (Findings{"4:saved", "6:saved", "7:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, UnknownTensorsStaySilent) {
  EXPECT_EQ(findingsOf(R"(void f(torch::Tensor a, torch::Tensor b) {
    auto y = a.sigmoid();
    y.mul_(2);
    auto z = a * b;
    b.add_(1);
    z.sum().backward();
  })"),
            Findings());
}

TEST_F(InplaceAutogradAnalysisTest, RegisteredParametersAreLeaves) {
  EXPECT_EQ(findingsOf(R"(
  struct Net : torch::nn::Module {
    Net() { w = register_parameter("w", torch::ones({3})); }
    torch::Tensor w;
    torch::Tensor b;
  };
  void f(Net &net) {
    net.w.add_(1);
    net.b.add_(1);
  })"),
            (Findings{"1:leaf"}));
}

TEST_F(InplaceAutogradAnalysisTest,
       ModulesWithParametersReturnTensorsThatNeedGrad) {
  EXPECT_EQ(findingsOf(R"(void f(torch::nn::Linear &linear,
                              torch::nn::ReLU &relu, torch::Tensor x) {
    auto a = torch::sigmoid(linear(x));
    a.mul_(2);
    auto b = torch::sigmoid(linear->forward(x));
    b.mul_(2);
    auto c = torch::sigmoid(relu(x));
    c.mul_(2);
    a.sum().backward();
  })"),
            (Findings{"2:saved", "4:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, UserModulesHoldTheirSubmodulesParameters) {
  EXPECT_EQ(findingsOf(R"(
  struct Scale : torch::nn::Module {
    Scale() { w = register_parameter("w", torch::ones({1})); }
    torch::Tensor forward(const torch::Tensor &x) { return x * w; }
    torch::Tensor w;
  };
  struct Outer : torch::nn::Module {
    std::shared_ptr<Scale> scale;
  };
  struct Empty : torch::nn::Module {
    torch::Tensor forward(const torch::Tensor &x) { return x; }
  };
  void f(Outer &outer, Empty &empty, torch::Tensor x) {
    auto a = torch::exp(outer.scale->forward(x));
    a.add_(1);
    auto b = torch::exp(empty.forward(x));
    b.add_(1);
    a.sum().backward();
  })"),
            (Findings{"2:saved"}));
}

/// The same residual body as a module's forward(), as another method of the
/// module, and as forward() of a class that is not a module.
std::string residualBlock(const std::string &Base, const std::string &Method) {
  return "struct Block " + Base + R"( {
    torch::Tensor )" +
         Method + R"((const torch::Tensor &x);
    torch::nn::Linear inner{4, 4};
  };
  torch::Tensor Block::)" +
         Method + R"((const torch::Tensor &x) {
    auto h = torch::relu(inner(x));
    if (x.dim() > 1)
      h += x;
    return h;
  })";
}

TEST_F(InplaceAutogradAnalysisTest, ModuleForwardExitRunsBackward) {
  EXPECT_EQ(findingsOf(residualBlock(": torch::nn::Module", "forward"),
                       "Block::forward"),
            (Findings{"3:saved"}));
  EXPECT_EQ(
      findingsOf(residualBlock(": torch::nn::Module", "step"), "Block::step"),
      Findings());
  EXPECT_EQ(findingsOf(residualBlock("", "forward"), "Block::forward"),
            Findings());
}

} // namespace

TEST_F(InplaceAutogradAnalysisTest, HelpersReturnWhatHoldsOnEveryPath) {
  const char *Helpers = R"(
  torch::Tensor leaf() { return torch::randn({3}, torch::requires_grad()); }
  torch::Tensor leafLater() {
    auto w = torch::zeros({3});
    w.requires_grad_();
    return w;
  }
  torch::Tensor product() { return leaf() * 2; }
  torch::Tensor onOnePath(bool b) {
    if (b)
      return leaf();
    return torch::zeros({3});
  }
  torch::Tensor same(torch::Tensor x) { return x; }
  )";
  EXPECT_EQ(findingsOf(std::string(Helpers) + R"(void f(torch::Tensor x) {
    auto a = leaf();
    a.add_(1);
    auto b = leafLater();
    b.add_(1);
    auto c = product();
    c.add_(1);
    auto d = onOnePath(true);
    d.add_(1);
    auto e = same(x);
    e.add_(1);
    auto y = torch::sigmoid(product());
    y.add_(1);
    y.sum().backward();
  })"),
            (Findings{"2:leaf", "4:leaf", "12:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, ResultsSavedInsideHelpersAndSubModules) {
  const char *Helpers = R"(
  torch::Tensor squashed(const torch::Tensor &x) {
    return torch::sigmoid(x * torch::randn({3}, torch::requires_grad()));
  }
  torch::Tensor keptThenReturned(const torch::Tensor &x) {
    auto y = torch::exp(x * torch::randn({3}, torch::requires_grad()));
    return y;
  }
  torch::Tensor savedOnOnePath(const torch::Tensor &x, bool b) {
    if (b)
      return squashed(x);
    return x;
  }
  struct GateImpl : torch::nn::Module {
    GateImpl() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
    torch::Tensor forward(torch::Tensor x) { return torch::sigmoid(fc(x)); }
    torch::nn::Linear fc{nullptr};
  };
  TORCH_MODULE(Gate);
  )";
  EXPECT_EQ(findingsOf(std::string(Helpers) + R"(void f(torch::Tensor x) {
    auto a = squashed(x);
    a.add_(1);
    auto b = keptThenReturned(x);
    b.add_(1);
    auto c = savedOnOnePath(x, true);
    c.add_(1);
    Gate gate;
    auto d = gate(x);
    d.add_(1);
    torch::Tensor e;
    {
      torch::NoGradGuard guard;
      e = gate(x);
    }
    e.add_(1);
    (a + b + c + d + e).sum().backward();
  })"),
            (Findings{"2:saved", "4:saved", "9:saved"}));
}

TEST_F(InplaceAutogradAnalysisTest, HelpersThatWriteTheirArgumentsOnEveryPath) {
  const char *Helpers = R"(
  void scale(torch::Tensor t) { t.mul_(2); }
  void viaReference(int n, torch::Tensor &t) { t[0].zero_(); }
  void twoDeep(torch::Tensor t) { scale(t); }
  void sometimes(torch::Tensor t, bool b) { if (b) t.mul_(2); }
  void rebound(torch::Tensor t) { t = t * 2; t.mul_(2); }
  void afterReturn(torch::Tensor t, bool b) { if (b) return; t.mul_(2); }
  )";
  EXPECT_EQ(findingsOf(std::string(Helpers) + R"(void f(bool b) {
    auto w = torch::randn({3}, torch::requires_grad());
    scale(w);
    viaReference(1, w);
    twoDeep(w);
    sometimes(w, b);
    rebound(w);
    afterReturn(w, b);
  })"),
            (Findings{"2:leaf", "3:leaf", "4:leaf"}));
}
