// A LibTorch program that computes on the GPU, for doctor-libtorch.test.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor Values = torch::arange(4, torch::device(torch::kCUDA));
  std::cout << "sum " << Values.sum().item<long>() << "\n";
  return 0;
}
