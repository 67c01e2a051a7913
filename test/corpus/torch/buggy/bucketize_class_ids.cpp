// Turns continuous scores into bucket ids for a one-hot encoding without
// clamping them first: scores outside [0, 1) give negative ids or ids of
// `buckets` and more, and one_hot rejects them ("Class values must be
// non-negative").
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(8);
  const int64_t buckets = 10;
  const auto scores = torch::rand({100}) * 2 - 0.5; // Some fall outside [0, 1].
  const auto scaled = scores * buckets;
  const auto ids = scaled.floor().to(torch::kLong);
  const auto histogram = torch::one_hot(ids, buckets).sum(0); // BUG: torch-index-range
  std::cout << "histogram " << histogram << "\n";
  std::cout << "total " << histogram.sum().item<int64_t>() << "\n";
  return 0;
}
