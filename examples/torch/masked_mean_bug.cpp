// A masked mean divided by the mask's count: a row with no valid entries
// gives 0/0, and the NaN flows into the loss.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  auto values = torch::randn({3, 5});
  auto mask = (values > 2).to(torch::kFloat);
  auto mean = (values * mask).sum(1) / mask.sum(1); // BUG: a row can have no valid entry
  std::cout << mean << "\n";
}
