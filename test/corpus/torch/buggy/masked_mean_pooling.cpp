// Mean pooling of token embeddings over a padding mask, dividing by the raw
// token count: the empty sequence pools to 0/0 = NaN.
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
  const auto counts = mask.sum(1);
  const auto pooled = summed / counts; // BUG: torch-div-by-zero
  std::cout << "pooled " << pooled << "\n";
  return 0;
}
