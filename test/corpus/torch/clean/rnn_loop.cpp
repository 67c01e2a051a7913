// An Elman recurrent network unrolled by hand: each step builds a new hidden
// state out of place, so the tanh outputs autograd saved stay intact until
// backward.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(9);
  const int64_t steps = 10, batch = 4, inputSize = 3, hiddenSize = 8;
  const auto inputs = torch::randn({steps, batch, inputSize});
  const auto targets = torch::randn({batch, 1});

  auto wx = (torch::randn({inputSize, hiddenSize}) * 0.3).requires_grad_();
  auto wh = (torch::randn({hiddenSize, hiddenSize}) * 0.3).requires_grad_();
  auto wo = (torch::randn({hiddenSize, 1}) * 0.3).requires_grad_();
  torch::optim::SGD optimizer({wx, wh, wo}, torch::optim::SGDOptions(0.05));

  for (int epoch = 0; epoch < 20; ++epoch) {
    optimizer.zero_grad();
    auto hidden = torch::zeros({batch, hiddenSize});
    for (int64_t t = 0; t < steps; ++t)
      hidden = torch::tanh(inputs[t].matmul(wx) + hidden.matmul(wh));
    const auto loss = torch::mse_loss(hidden.matmul(wo), targets);
    loss.backward();
    optimizer.step();
    if (epoch % 5 == 0)
      std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
