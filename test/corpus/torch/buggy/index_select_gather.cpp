// Batch assembly by index, with an off-by-one column index for gather:
// "index 7 is out of bounds for dimension 1 with size 7".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(5);
  const int64_t rows = 20, columns = 7;
  const auto table = torch::randn({rows, columns});

  const auto batchIds = torch::randint(0, rows, {8});
  const auto batch = table.index_select(0, batchIds);

  const auto best = batch.argmax(1, /*keepdim=*/true);
  const auto bestScores = batch.gather(1, best);

  // Off by one: the last column is columns - 1.
  const auto lastColumn = torch::full({8, 1}, columns, torch::kLong);
  const auto lastScores = batch.gather(1, lastColumn); // BUG: torch-index-range

  std::cout << "batch " << batch.sizes() << "\n";
  std::cout << "best >= last: "
            << (bestScores >= lastScores).all().item<bool>() << "\n";
  return 0;
}
