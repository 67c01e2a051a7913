// Multi-label classification: the logits and the 0/1 targets both have shape
// [batch, labels], as binary_cross_entropy_with_logits requires.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(6);
  const int64_t batch = 32, features = 10, labels = 4;
  torch::nn::Linear head(features, labels);
  torch::optim::Adam optimizer(head->parameters(),
                               torch::optim::AdamOptions(0.05));

  const auto inputs = torch::randn({batch, features});
  const auto targets =
      (inputs.slice(1, 0, labels) > 0).to(torch::kFloat); // [batch, labels]
  for (int step = 0; step < 60; ++step) {
    optimizer.zero_grad();
    const auto logits = head(inputs); // [batch, labels]
    const auto loss =
        torch::nn::functional::binary_cross_entropy_with_logits(logits,
                                                                targets);
    loss.backward();
    optimizer.step();
    if (step % 20 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
