// The smallest torch-loss-shape finding, for check-gpuguard-runners.test.
#include <torch/torch.h>

torch::Tensor loss() {
  torch::Tensor Input = torch::randn({8, 1});
  torch::Tensor Target = torch::randn({8});
  return torch::mse_loss(Input, Target);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: target shape [8] differs from input shape [8, 1]; {{.*}} [torch-loss-shape]
}
