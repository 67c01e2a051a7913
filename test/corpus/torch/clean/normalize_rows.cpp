// Cosine similarity between embeddings: each row is divided by its L2 norm
// clamped away from zero, as torch::nn::functional::normalize does, so an
// all-zero embedding stays zero.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(13);
  auto embeddings = torch::randn({6, 16});
  embeddings[4].zero_(); // An unused slot.

  const auto norms = embeddings.norm(2, /*dim=*/1, /*keepdim=*/true);
  const auto unit = embeddings / norms.clamp_min(1e-8);
  const auto similarity = unit.matmul(unit.t());

  const auto viaLibrary = torch::nn::functional::normalize(
      embeddings,
      torch::nn::functional::NormalizeFuncOptions().p(2).dim(1));
  std::cout << "similarity diag " << similarity.diagonal() << "\n";
  std::cout << "same as normalize: "
            << torch::allclose(unit, viaLibrary) << "\n";
  return 0;
}
