// Token ids drawn from a range wider than the embedding table: the lookup
// fails with "index out of range in self" (a device-side assert on CUDA).
#include <torch/torch.h>

#include <iostream>

int main() {
  const int64_t vocabulary = 100;
  torch::nn::Embedding embedding(vocabulary, 16);
  auto ids = torch::randint(0, 120, {4, 10});
  auto vectors = embedding(ids); // BUG: ids reach 119, the table has 100 rows
  std::cout << vectors.sizes() << "\n";
}
