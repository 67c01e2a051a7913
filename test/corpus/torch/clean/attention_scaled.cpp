// Scaled dot-product attention with a causal mask: the additive mask is built
// on the scores' own device, and the scale is 1/sqrt(d) of a non-zero head
// size.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

int main() {
  torch::manual_seed(11);
  const torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t batch = 2, length = 5, headSize = 8;
  const auto options = torch::TensorOptions().device(device);
  const auto q = torch::randn({batch, length, headSize}, options)
                     .requires_grad_();
  const auto k = torch::randn({batch, length, headSize}, options);
  const auto v = torch::randn({batch, length, headSize}, options);

  const double scale = 1.0 / std::sqrt(static_cast<double>(headSize));
  const auto scores = torch::matmul(q, k.transpose(1, 2)) * scale;
  const auto future =
      torch::ones({length, length}, options.dtype(torch::kBool)).triu(1);
  const auto causalBias =
      torch::zeros({length, length}, options)
          .masked_fill(future, -std::numeric_limits<float>::infinity());
  const auto weights = torch::softmax(scores + causalBias, -1);
  const auto out = torch::matmul(weights, v);
  out.pow(2).mean().backward();
  std::cout << "out " << out.sizes() << " grad norm "
            << q.grad().norm().item<float>() << "\n";
  return 0;
}
