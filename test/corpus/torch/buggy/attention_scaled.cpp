// Scaled dot-product attention on the GPU whose additive causal mask is built
// on the CPU: "Expected all tensors to be on the same device".
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

int main() {
  torch::manual_seed(11);
  const torch::Device device(torch::kCUDA);
  const int64_t batch = 2, length = 5, headSize = 8;
  const auto options = torch::TensorOptions().device(device);
  const auto q = torch::randn({batch, length, headSize}, options)
                     .requires_grad_();
  const auto k = torch::randn({batch, length, headSize}, options);
  const auto v = torch::randn({batch, length, headSize}, options);

  const double scale = 1.0 / std::sqrt(static_cast<double>(headSize));
  const auto scores = torch::matmul(q, k.transpose(1, 2)) * scale;
  // Built with default options: on the CPU.
  const auto future = torch::ones({length, length}, torch::kBool).triu(1);
  const auto causalBias = torch::zeros({length, length}).masked_fill(
      future, -std::numeric_limits<float>::infinity());
  const auto weights = torch::softmax(scores + causalBias, -1); // BUG: torch-mixed-device
  const auto out = torch::matmul(weights, v);
  out.pow(2).mean().backward();
  std::cout << "out " << out.sizes() << " grad norm "
            << q.grad().norm().item<float>() << "\n";
  return 0;
}
