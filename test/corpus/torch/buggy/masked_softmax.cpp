// Attention weights over padded sequences, masked after the softmax and in
// place: softmax saved its result for backward, so backward() fails with
// "one of the variables needed for gradient computation has been modified by
// an inplace operation".
#include <torch/torch.h>

#include <iostream>
#include <limits>

int main() {
  torch::manual_seed(3);
  const int64_t batch = 4, length = 6;
  const auto lengths = torch::tensor({6, 3, 1, 5});
  const auto positions = torch::arange(length).unsqueeze(0);
  const auto padding = positions >= lengths.unsqueeze(1);

  auto scores = torch::randn({batch, length}, torch::requires_grad());
  auto weights = torch::softmax(scores, /*dim=*/1);
  // softmax saved its output for backward; zeroing it in place breaks that.
  weights.masked_fill_(padding, 0); // BUG: torch-inplace-autograd
  const auto values = torch::randn({batch, length});
  const auto pooled = (weights * values).sum(1);
  pooled.sum().backward();

  std::cout << "row sums " << weights.sum(1) << "\n";
  std::cout << "grad norm " << scores.grad().norm().item<float>() << "\n";
  return 0;
}
