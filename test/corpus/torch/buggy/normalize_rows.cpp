// Cosine similarity between embeddings, dividing each row by its raw L2
// norm: the all-zero embedding becomes NaN, and so does every similarity
// with it.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(13);
  auto embeddings = torch::randn({6, 16});
  embeddings[4].zero_(); // An unused slot.

  const auto norms = embeddings.norm(2, /*dim=*/1, /*keepdim=*/true);
  const auto unit = embeddings / norms; // BUG: torch-div-by-zero
  const auto similarity = unit.matmul(unit.t());

  const auto viaLibrary = torch::nn::functional::normalize(
      embeddings,
      torch::nn::functional::NormalizeFuncOptions().p(2).dim(1));
  std::cout << "similarity diag " << similarity.diagonal() << "\n";
  std::cout << "same as normalize: "
            << torch::allclose(unit, viaLibrary) << "\n";
  return 0;
}
