// A gate scaled in place after sigmoid saved its output for backward:
// backward() fails with "one of the variables needed for gradient
// computation has been modified by an inplace operation".
#include <torch/torch.h>

#include <iostream>

int main() {
  auto weights = torch::randn({4, 4}, torch::requires_grad());
  auto inputs = torch::randn({8, 4});
  auto gate = torch::sigmoid(inputs.mm(weights));
  gate.mul_(0.5); // BUG: sigmoid's backward reads its output
  gate.sum().backward();
  std::cout << weights.grad().norm().item<float>() << "\n";
}
