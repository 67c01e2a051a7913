// Fits y = 3x - 1 with an nn::Linear layer, torch::optim::SGD and an MSE loss
// whose prediction and target have the same [N, 1] shape.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  const torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  const auto x = torch::linspace(-1, 1, 64).unsqueeze(1).to(device);
  const auto y = (3 * x - 1 + 0.01 * torch::randn_like(x)).to(device);

  torch::nn::Linear model(1, 1);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.1));

  float last = 0;
  for (int epoch = 0; epoch < 200; ++epoch) {
    optimizer.zero_grad();
    const auto prediction = model(x);
    const auto loss = torch::nn::functional::mse_loss(prediction, y);
    loss.backward();
    optimizer.step();
    last = loss.item<float>();
  }
  std::cout << "final loss " << last << ", weight "
            << model->weight.item<float>() << ", bias "
            << model->bias.item<float>() << "\n";
  return 0;
}
