//===--- AutogradModelTest.cpp - Tests of TorchOps and AutogradModel ------===//

#include "Analysis/AutogradModel.h"
#include "Analysis/TorchOps.h"
#include "AnalysisTestSupport.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace clang;
using namespace gpuguard::torch;

namespace {

// ---- TorchOps ------------------------------------------------------------

TEST(TorchOpsTest, InplaceOpsComeWithTheirVariants) {
  std::optional<InplaceOpVariants> Add = inplaceOp("add_");
  ASSERT_TRUE(Add);
  EXPECT_TRUE(Add->Method);
  EXPECT_FALSE(Add->Function);
  std::optional<InplaceOpVariants> Relu = inplaceOp("relu_");
  ASSERT_TRUE(Relu);
  EXPECT_TRUE(Relu->Method && Relu->Function);
  EXPECT_TRUE(inplaceOp("index_put_"));
  EXPECT_FALSE(inplaceOp("add"));
  EXPECT_FALSE(inplaceOp("requires_grad_"));
}

TEST(TorchOpsTest, ViewsAndDifferentiableOps) {
  EXPECT_TRUE(isViewOp("view"));
  EXPECT_TRUE(isViewOp("select"));
  EXPECT_FALSE(isViewOp("clone"));
  EXPECT_TRUE(isDifferentiableOp("sigmoid"));
  EXPECT_TRUE(isDifferentiableOp("softmax"));
  EXPECT_FALSE(isDifferentiableOp("argmax"));
}

constexpr OpArgument TensorWithGrad{true, true};
constexpr OpArgument TensorWithoutGrad{true, false};
constexpr OpArgument Number{false, false};

TEST(TorchOpsTest, MulSavesTheOtherOperandOfAnInputThatNeedsGrad) {
  std::optional<SavedOperands> Saved =
      savedForBackward("mul", {TensorWithGrad, TensorWithoutGrad});
  ASSERT_TRUE(Saved);
  EXPECT_EQ(Saved->Arguments, (SmallVector<unsigned, 2>{1}));
  EXPECT_FALSE(Saved->Result);

  Saved = savedForBackward("mul", {TensorWithGrad, TensorWithGrad});
  ASSERT_TRUE(Saved);
  EXPECT_EQ(Saved->Arguments.size(), 2u);
}

TEST(TorchOpsTest, ScalarOperandsAndMetadataSaveNothing) {
  std::optional<SavedOperands> Saved =
      savedForBackward("mul", {TensorWithGrad, Number});
  ASSERT_TRUE(Saved);
  EXPECT_TRUE(Saved->Arguments.empty());
  EXPECT_FALSE(Saved->Result);
  // add's formulas read only self.scalar_type().
  Saved = savedForBackward("add", {TensorWithGrad, TensorWithGrad});
  ASSERT_TRUE(Saved);
  EXPECT_TRUE(Saved->Arguments.empty());
}

TEST(TorchOpsTest, ResultSavingOps) {
  for (const char *Name : {"sigmoid", "tanh", "exp", "relu"}) {
    std::optional<SavedOperands> Saved =
        savedForBackward(Name, {TensorWithGrad});
    ASSERT_TRUE(Saved) << Name;
    EXPECT_TRUE(Saved->Result) << Name;
    EXPECT_TRUE(Saved->Arguments.empty()) << Name;
  }
  std::optional<SavedOperands> Softmax =
      savedForBackward("softmax", {TensorWithGrad, Number});
  ASSERT_TRUE(Softmax);
  EXPECT_TRUE(Softmax->Result);
}

TEST(TorchOpsTest, OverloadsAreChosenByArgumentTypes) {
  // pow(Tensor, Scalar) saves self; pow(Tensor, Tensor) also the result.
  std::optional<SavedOperands> Saved =
      savedForBackward("pow", {TensorWithGrad, Number});
  ASSERT_TRUE(Saved);
  EXPECT_EQ(Saved->Arguments, (SmallVector<unsigned, 2>{0}));
  EXPECT_FALSE(Saved->Result);
  EXPECT_FALSE(savedForBackward("sigmoid", {Number}));
  EXPECT_FALSE(savedForBackward("not_an_op", {TensorWithGrad}));
}

TEST(TorchOpsTest, NothingIsSavedWithoutAnInputThatNeedsGrad) {
  std::optional<SavedOperands> Saved =
      savedForBackward("mul", {TensorWithoutGrad, TensorWithoutGrad});
  ASSERT_TRUE(Saved);
  EXPECT_TRUE(Saved->Arguments.empty());
  EXPECT_FALSE(Saved->Result);
}

// ---- AutogradModel
// -----------------------------------------------------------

/// A snippet parsed against the mock LibTorch header, and the findings of
/// its function \p Name (`f` unless told), each as "line:kind" with the line
/// counted from the body's brace and kind `leaf`, `saved` or (with
/// \p WithCandidates) `maybe`.
class AutogradModelTest : public ::testing::Test {
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

TEST_F(AutogradModelTest, LeafThatRequiresGrad) {
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

TEST_F(AutogradModelTest, NoGradScopesEndWithTheirBlock) {
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

TEST_F(AutogradModelTest, RequiresGradMustHoldOnEveryPath) {
  EXPECT_EQ(findingsOf(R"(void f(bool c) {
    auto w = torch::randn({3});
    if (c)
      w = torch::randn({3}, torch::requires_grad());
    w.add_(1);
  })"),
            Findings());
}

TEST_F(AutogradModelTest, SavedTensorWrittenBeforeBackward) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = torch::sigmoid(w);
    y.mul_(2);
    y.sum().backward();
    y.mul_(2);
  })"),
            (Findings{"3:saved"}));
}

TEST_F(AutogradModelTest, NoFindingWithoutALaterBackward) {
  EXPECT_EQ(findingsOf(R"(torch::Tensor f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = w.exp();
    y.mul_(2);
    return y;
  })"),
            Findings());
}

TEST_F(AutogradModelTest, CandidatesOnlyWhenAskedFor) {
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

TEST_F(AutogradModelTest, RebindingForgetsTheSave) {
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

TEST_F(AutogradModelTest, SavesCarriedAroundALoop) {
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

TEST_F(AutogradModelTest, BackwardInEachIterationFreesTheSaves) {
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

TEST_F(AutogradModelTest, RetainedGraphKeepsTheSaves) {
  EXPECT_EQ(findingsOf(R"(void f() {
    auto w = torch::randn({3}, torch::requires_grad());
    auto y = torch::sigmoid(w);
    y.sum().backward({}, true);
    y.mul_(2);
    y.sum().backward();
  })"),
            (Findings{"4:saved"}));
}

TEST_F(AutogradModelTest, ViewsAndReferencesAliasTheirTensor) {
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

TEST_F(AutogradModelTest, UnknownTensorsStaySilent) {
  EXPECT_EQ(findingsOf(R"(void f(torch::Tensor a, torch::Tensor b) {
    auto y = a.sigmoid();
    y.mul_(2);
    auto z = a * b;
    b.add_(1);
    z.sum().backward();
  })"),
            Findings());
}

TEST_F(AutogradModelTest, RegisteredParametersAreLeaves) {
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

TEST_F(AutogradModelTest, ModulesWithParametersReturnTensorsThatNeedGrad) {
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

TEST_F(AutogradModelTest, UserModulesHoldTheirSubmodulesParameters) {
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

TEST_F(AutogradModelTest, ModuleForwardExitRunsBackward) {
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
