// Turns continuous scores into bucket ids for a one-hot encoding: the scores
// are clamped into [0, buckets - 1] before the float-to-integer cast, so the
// top of the range and any stray value still land in a valid bucket.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(8);
  const int64_t buckets = 10;
  const auto scores = torch::rand({100}) * 2 - 0.5; // Some fall outside [0, 1].
  const auto scaled = scores * buckets;
  const auto ids =
      scaled.clamp(0, buckets - 1).floor().to(torch::kLong);
  const auto histogram = torch::one_hot(ids, buckets).sum(0);
  std::cout << "histogram " << histogram << "\n";
  std::cout << "total " << histogram.sum().item<int64_t>() << "\n";
  return 0;
}
