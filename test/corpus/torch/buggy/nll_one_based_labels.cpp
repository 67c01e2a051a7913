// Classification with log_softmax and nll_loss on one-based labels: label 5
// has no logit among 5 classes, "Target 5 is out of bounds".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(14);
  const int64_t batch = 12, classes = 5;
  torch::nn::Linear model(7, classes);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.2));
  const auto inputs = torch::randn({batch, 7});
  // Classes 1..5 straight from a one-based label file.
  const auto labels = torch::arange(batch) % classes + 1;

  for (int step = 0; step < 40; ++step) {
    optimizer.zero_grad();
    const auto logProbabilities = torch::log_softmax(model(inputs), 1);
    const auto loss = torch::nll_loss(logProbabilities, labels); // BUG: torch-index-range
    loss.backward();
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
