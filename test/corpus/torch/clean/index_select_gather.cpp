// Batch assembly by index: index_select picks rows with ids drawn below the
// table's row count, and gather picks each row's top-scoring column with
// indexes taken from argmax over that same dimension.
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

  const auto lastColumn = torch::full({8, 1}, columns - 1, torch::kLong);
  const auto lastScores = batch.gather(1, lastColumn);

  std::cout << "batch " << batch.sizes() << "\n";
  std::cout << "best >= last: "
            << (bestScores >= lastScores).all().item<bool>() << "\n";
  return 0;
}
