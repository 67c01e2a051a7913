// A two-layer perceptron written as a custom module: the sub-layers are
// registered with register_module and a learned output scale with
// register_parameter, so that parameters() and to(device) see all of them.
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, out))),
        scale(register_parameter("scale", torch::ones({1}))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    return fc2(torch::relu(fc1(x))) * scale;
  }

  torch::nn::Linear fc1, fc2;
  torch::Tensor scale;
};
TORCH_MODULE(Mlp);

int main() {
  torch::manual_seed(2);
  const torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Mlp model(8, 32, 3);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-2));

  const auto inputs = torch::randn({256, 8}, device);
  const auto targets = inputs.slice(1, 0, 3).argmax(1);
  for (int epoch = 0; epoch < 50; ++epoch) {
    optimizer.zero_grad();
    const auto loss = torch::cross_entropy_loss(model(inputs), targets);
    loss.backward();
    optimizer.step();
    if (epoch % 10 == 0)
      std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  std::cout << "parameters " << model->parameters().size() << "\n";
  return 0;
}
