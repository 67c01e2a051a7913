// Attention weights over padded sequences: padded positions are filled with
// -inf out of place before the softmax, so autograd keeps every tensor it
// saved, and each row keeps at least one real position.
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
  const auto masked = scores.masked_fill(
      padding, -std::numeric_limits<float>::infinity());
  const auto weights = torch::softmax(masked, /*dim=*/1);
  const auto values = torch::randn({batch, length});
  const auto pooled = (weights * values).sum(1);
  pooled.sum().backward();

  std::cout << "row sums " << weights.sum(1) << "\n";
  std::cout << "grad norm " << scores.grad().norm().item<float>() << "\n";
  return 0;
}
