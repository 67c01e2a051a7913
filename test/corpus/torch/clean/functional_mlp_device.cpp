// A two-layer network written with raw weight tensors: the weights are
// created on the training device, and every batch is moved there before the
// forward pass.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(18);
  const torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const auto options = torch::TensorOptions().device(device);

  auto w1 = (torch::randn({4, 16}, options) * 0.5).requires_grad_();
  auto b1 = torch::zeros({16}, options.requires_grad(true));
  auto w2 = (torch::randn({16, 1}, options) * 0.5).requires_grad_();
  torch::optim::SGD optimizer({w1, b1, w2}, torch::optim::SGDOptions(0.05));

  const auto data = torch::randn({64, 4});
  const auto targets = data.pow(2).sum(1, /*keepdim=*/true);
  for (int epoch = 0; epoch < 30; ++epoch) {
    const auto inputs = data.to(device);
    const auto expected = targets.to(device);
    optimizer.zero_grad();
    const auto hidden = torch::tanh(inputs.matmul(w1) + b1);
    const auto loss = torch::mse_loss(hidden.matmul(w2), expected);
    loss.backward();
    optimizer.step();
    if (epoch % 10 == 0)
      std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
