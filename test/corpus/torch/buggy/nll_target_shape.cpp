// Classification with log_softmax and nll_loss whose labels kept a trailing
// dimension, [batch, 1] instead of [batch]: "1D target tensor expected,
// multi-target not supported".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(14);
  const int64_t batch = 12, classes = 5;
  torch::nn::Linear model(7, classes);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.2));
  const auto inputs = torch::randn({batch, 7});
  // Classes 0..4, as class ids come from a zero-based label map.
  const auto labels = (torch::arange(batch) % classes).unsqueeze(1); // [batch, 1]

  for (int step = 0; step < 40; ++step) {
    optimizer.zero_grad();
    const auto logProbabilities = torch::log_softmax(model(inputs), 1);
    const auto loss = torch::nll_loss(logProbabilities, labels); // BUG: torch-loss-shape
    loss.backward();
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
