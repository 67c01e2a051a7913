//===--- TorchOpsTest.cpp - Tests of the ATen op tables -------------------===//

#include "Analysis/Torch/TorchOps.h"
#include "llvm/ADT/SmallVector.h"
#include "gtest/gtest.h"

using llvm::SmallVector;
using namespace gpuguard::torch;

namespace {

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

TEST(TorchOpsTest, FamiliesComeFromNativeFunctions) {
  // Elementwise: TensorIterator kernels, in-place forms too.
  EXPECT_TRUE(isPointwiseOp("atan2"));
  EXPECT_TRUE(isPointwiseOp("add_"));
  // Losses and ops along a dimension are not, though their kernels are.
  EXPECT_FALSE(isPointwiseOp("mse_loss"));
  EXPECT_FALSE(isPointwiseOp("glu"));
  EXPECT_FALSE(isPointwiseOp("matmul"));
  // Elementwise ops the data does not mark come from OpTraits.def.
  EXPECT_TRUE(isPointwiseOp("where"));

  EXPECT_TRUE(isReductionOp("sum"));
  EXPECT_TRUE(isReductionOp("nanmean"));
  EXPECT_FALSE(isReductionOp("max"));    // returns values and indices
  EXPECT_FALSE(isReductionOp("cumsum")); // keeps every element

  EXPECT_EQ(factoryKind("zeros"), FactoryKind::New);
  EXPECT_EQ(factoryKind("randint"), FactoryKind::New);
  EXPECT_EQ(factoryKind("randint_like"), FactoryKind::Like);
  EXPECT_EQ(factoryKind("new_zeros"), FactoryKind::None); // sized by its args
  EXPECT_EQ(factoryKind("relu"), FactoryKind::None);
}

TEST(TorchOpsTest, TraitsComeFromOneRowPerOp) {
  EXPECT_TRUE(hasOpTraits("exp", ResultFloating | ResultPositive));
  EXPECT_FALSE(hasOpTraits("exp", KeepsFinite));
  EXPECT_TRUE(hasOpTraits("clone", Copy));
  EXPECT_TRUE(hasOpTraits("floor", KeepsIntegers));
  EXPECT_FALSE(hasOpTraits("frac", KeepsIntegers));
  // An in-place op without a row of its own has its out-of-place traits.
  EXPECT_EQ(opTraits("relu_"), opTraits("relu"));
  EXPECT_NE(opTraits("relu"), 0u);
  // requires_grad_ has its own row: it is not `requires_grad`.
  EXPECT_TRUE(hasOpTraits("requires_grad_", Copy));
  EXPECT_EQ(opTraits("requires_grad"), 0u);
  EXPECT_EQ(opTraits("not_an_op"), 0u);
  // Views by their schema that copy when they must.
  EXPECT_TRUE(isViewOp("reshape") && hasOpTraits("reshape", MayCopy));
  EXPECT_TRUE(isViewOp("select") && !hasOpTraits("select", MayCopy));
}

} // namespace
