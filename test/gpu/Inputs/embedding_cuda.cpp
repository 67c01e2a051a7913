// The error this project is named after: token ids wider than the embedding
// table, on CUDA. PyTorch's kernel asserts, the context is lost, and the
// error surfaces at a later synchronisation as "device-side assert
// triggered" with no line of this file in it.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device Device(torch::kCUDA);
  torch::nn::Embedding Table(100, 16);
  Table->to(Device);
  auto Ids =
      torch::randint(0, 120, {4, 10},
                     torch::TensorOptions().dtype(torch::kLong).device(Device));
  auto Vectors = Table(Ids); // ids reach 119; the table has 100 rows
  std::cout << Vectors.sum().item<float>() << "\n";
}
