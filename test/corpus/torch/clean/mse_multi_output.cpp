// Regression of two outputs per sample: the prediction and the target are
// both [batch, 2]; a per-sample weight is broadcast explicitly before the
// reduction.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(7);
  const int64_t batch = 16;
  torch::nn::Sequential model(torch::nn::Linear(3, 8), torch::nn::Tanh(),
                              torch::nn::Linear(8, 2));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9));

  const auto inputs = torch::randn({batch, 3});
  const auto targets = torch::stack(
      {inputs.sum(1), inputs.select(1, 0) - inputs.select(1, 2)}, 1);
  const auto sampleWeight = torch::rand({batch}) + 0.5;
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    const auto prediction = model->forward(inputs);
    const auto perElement = torch::mse_loss(
        prediction, targets, torch::Reduction::None); // [batch, 2]
    const auto loss = (perElement.mean(1) * sampleWeight).mean();
    loss.backward();
    optimizer.step();
    if (step % 25 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
