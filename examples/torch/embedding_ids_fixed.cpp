// Token ids drawn from the table's own range.
#include <torch/torch.h>

#include <iostream>

int main() {
  const int64_t vocabulary = 100;
  torch::nn::Embedding embedding(vocabulary, 16);
  auto ids = torch::randint(0, vocabulary, {4, 10});
  auto vectors = embedding(ids);
  std::cout << vectors.sizes() << "\n";
}
