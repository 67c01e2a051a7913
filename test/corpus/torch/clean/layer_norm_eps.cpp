// Layer normalisation written out: the variance gets an epsilon before the
// square root, so rows with constant values stay finite.
#include <torch/torch.h>

#include <iostream>

torch::Tensor layerNorm(const torch::Tensor &x, const torch::Tensor &gamma,
                        const torch::Tensor &beta, double eps = 1e-5) {
  const auto mean = x.mean(-1, /*keepdim=*/true);
  const auto variance = x.var(-1, /*unbiased=*/false, /*keepdim=*/true);
  return (x - mean) / torch::sqrt(variance + eps) * gamma + beta;
}

int main() {
  auto x = torch::randn({4, 10});
  x[2] = 7.0; // A constant row.
  const auto gamma = torch::ones({10});
  const auto beta = torch::zeros({10});
  const auto y = layerNorm(x, gamma, beta);
  std::cout << "finite " << torch::isfinite(y).all().item<bool>() << "\n";
  std::cout << "row means " << y.mean(-1) << "\n";
  return 0;
}
