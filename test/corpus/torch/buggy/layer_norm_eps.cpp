// Layer normalisation written out without an epsilon: a row with constant
// values has a standard deviation of zero and normalises to NaN.
#include <torch/torch.h>

#include <iostream>

torch::Tensor layerNorm(const torch::Tensor &x, const torch::Tensor &gamma,
                        const torch::Tensor &beta) {
  const auto mean = x.mean(-1, /*keepdim=*/true);
  const auto deviation = x.std(-1, /*unbiased=*/false, /*keepdim=*/true);
  return (x - mean) / deviation * gamma + beta; // BUG: torch-div-by-zero
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
