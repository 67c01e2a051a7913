// The same gate, scaled out of place: sigmoid's saved output stays intact.
#include <torch/torch.h>

#include <iostream>

int main() {
  auto weights = torch::randn({4, 4}, torch::requires_grad());
  auto inputs = torch::randn({8, 4});
  auto gate = torch::sigmoid(inputs.mm(weights));
  auto scaled = gate * 0.5;
  scaled.sum().backward();
  std::cout << weights.grad().norm().item<float>() << "\n";
}
