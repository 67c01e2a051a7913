// A training step with weight decay in the optimizer and gradient clipping
// between backward() and step(): clip_grad_norm_ writes only the .grad
// tensors, which autograd does not save.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(16);
  torch::nn::Sequential model(torch::nn::Linear(10, 20), torch::nn::GELU(),
                              torch::nn::Dropout(0.1),
                              torch::nn::Linear(20, 1));
  torch::optim::AdamW optimizer(
      model->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(1e-2));
  const auto inputs = torch::randn({64, 10});
  const auto targets = inputs.sum(1, /*keepdim=*/true).sin();

  model->train();
  for (int step = 0; step < 50; ++step) {
    optimizer.zero_grad();
    const auto loss = torch::mse_loss(model->forward(inputs), targets);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
