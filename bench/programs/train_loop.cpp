// A small LibTorch CPU training loop for the instrumentation overhead
// benchmark: a token embedding, a two-layer MLP, cross_entropy with an
// ignore_index, an MSE auxiliary loss, a normalisation by a sum, and SGD.
//
//   train_loop [steps]
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>

namespace F = torch::nn::functional;

struct Model : torch::nn::Module {
  Model(int64_t Vocab, int64_t Width, int64_t Classes)
      : Embed(register_module("embed", torch::nn::Embedding(Vocab, Width))),
        Hidden(register_module("hidden", torch::nn::Linear(Width, 4 * Width))),
        Out(register_module("out", torch::nn::Linear(4 * Width, Classes))) {}

  torch::Tensor forward(const torch::Tensor &Ids) {
    auto X = Embed(Ids).mean(1);
    X = torch::relu(Hidden(X));
    return Out(X);
  }

  torch::nn::Embedding Embed;
  torch::nn::Linear Hidden, Out;
};

int main(int Argc, char **Argv) {
  int Steps = Argc > 1 ? std::atoi(Argv[1]) : 300;
  torch::manual_seed(0);
  const int64_t Vocab = 1000, Width = 64, Classes = 10, Batch = 64, Length = 16;
  Model Net(Vocab, Width, Classes);
  torch::optim::SGD Optimizer(Net.parameters(), 0.05);
  double Last = 0;
  for (int Step = 0; Step < Steps; ++Step) {
    auto Ids = torch::randint(0, Vocab, {Batch, Length}, torch::kLong);
    auto Labels = torch::randint(0, Classes, {Batch}, torch::kLong);
    Labels.index_put_({0}, -100); // one ignored label per batch
    auto Logits = Net.forward(Ids);
    auto Loss = F::cross_entropy(
        Logits, Labels, F::CrossEntropyFuncOptions().ignore_index(-100));
    auto Probabilities = torch::softmax(Logits, 1);
    auto Mass = Probabilities.sum(1, /*keepdim=*/true);
    auto Normalised = Probabilities / Mass;
    auto Aux = F::mse_loss(Normalised, Probabilities.detach());
    auto Total = Loss + 0.1 * Aux;
    Optimizer.zero_grad();
    Total.backward();
    Optimizer.step();
    Last = Total.item<double>();
  }
  std::printf("final loss %.4f\n", Last);
  return 0;
}
