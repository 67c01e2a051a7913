// Logistic regression trained by hand, but the gradient step updates the leaf
// weights in place outside a NoGradGuard scope: "a leaf Variable that
// requires grad is being used in an in-place operation".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(1);
  const auto features = torch::randn({128, 4});
  const auto trueWeight = torch::tensor({1.5, -2.0, 0.5, 1.0});
  const auto labels = (features.matmul(trueWeight) > 0).to(torch::kFloat);

  auto weight = torch::zeros({4}, torch::requires_grad());
  auto bias = torch::zeros({1}, torch::requires_grad());
  const double learningRate = 0.5;

  for (int step = 0; step < 100; ++step) {
    const auto logits = features.matmul(weight) + bias;
    const auto loss =
        torch::binary_cross_entropy_with_logits(logits, labels);
    loss.backward();
    weight -= learningRate * weight.grad(); // BUG: torch-inplace-autograd
    bias -= learningRate * bias.grad(); // BUG: torch-inplace-autograd
    weight.grad().zero_();
    bias.grad().zero_();
    if (step % 25 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  const auto accuracy =
      ((features.matmul(weight) + bias > 0).to(torch::kFloat) == labels)
          .to(torch::kFloat)
          .mean();
  std::cout << "accuracy " << accuracy.item<float>() << "\n";
  return 0;
}
