// Batch normalisation by hand with running statistics: the running mean and
// variance are buffers updated in place under NoGradGuard, while the
// normalised output is built out of place for autograd.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(15);
  const int64_t features = 6;
  const double momentum = 0.1, eps = 1e-5;
  auto runningMean = torch::zeros({features});
  auto runningVar = torch::ones({features});
  auto gamma = torch::ones({features}, torch::requires_grad());
  auto beta = torch::zeros({features}, torch::requires_grad());

  for (int step = 0; step < 10; ++step) {
    const auto batch = torch::randn({32, features}) * 2 + 1;
    const auto mean = batch.mean(0);
    const auto var = batch.var(0, /*unbiased=*/false);
    const auto normalised = (batch - mean) / torch::sqrt(var + eps);
    const auto out = normalised * gamma + beta;
    out.pow(2).mean().backward();
    {
      torch::NoGradGuard noGrad;
      runningMean.mul_(1 - momentum).add_(momentum * mean);
      runningVar.mul_(1 - momentum).add_(momentum * var);
    }
  }
  std::cout << "running mean " << runningMean << "\n";
  std::cout << "gamma grad " << gamma.grad() << "\n";
  return 0;
}
