// The same masked mean with the count clamped to at least one.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  auto values = torch::randn({3, 5});
  auto mask = (values > 2).to(torch::kFloat);
  auto mean = (values * mask).sum(1) / mask.sum(1).clamp_min(1);
  std::cout << mean << "\n";
}
