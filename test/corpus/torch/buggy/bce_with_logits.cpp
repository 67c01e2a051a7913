// Multi-label classification whose targets are [batch] while the logits are
// [batch, labels]: "Target size must be the same as input size".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(6);
  const int64_t batch = 32, features = 10, labels = 4;
  torch::nn::Linear head(features, labels);
  torch::optim::Adam optimizer(head->parameters(),
                               torch::optim::AdamOptions(0.05));

  const auto inputs = torch::randn({batch, features});
  // One flag per sample, [batch], for a head with `labels` outputs.
  const auto targets = (inputs.select(1, 0) > 0).to(torch::kFloat);
  for (int step = 0; step < 60; ++step) {
    optimizer.zero_grad();
    const auto logits = head(inputs); // [batch, labels]
    const auto loss = torch::nn::functional::binary_cross_entropy_with_logits(logits, targets); // BUG: torch-loss-shape
    loss.backward();
    optimizer.step();
    if (step % 20 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
