// Mean pooling of token embeddings over a padding mask: the token count per
// sequence is clamped to at least one, so an all-padding sequence pools to
// zeros rather than NaN.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(12);
  const int64_t batch = 3, length = 5, dim = 4;
  const auto embeddings = torch::randn({batch, length, dim});
  const auto lengths = torch::tensor({5, 2, 0}); // The last one is empty.
  const auto mask =
      (torch::arange(length).unsqueeze(0) < lengths.unsqueeze(1))
          .to(torch::kFloat)
          .unsqueeze(2); // [batch, length, 1]

  const auto summed = (embeddings * mask).sum(1);
  const auto counts = mask.sum(1).clamp_min(1.0);
  const auto pooled = summed / counts;
  std::cout << "pooled " << pooled << "\n";
  return 0;
}
