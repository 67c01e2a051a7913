// A bag-of-words tagger whose padding token id equals the vocabulary size,
// one past the embedding table's last row: "index out of range in self".
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(4);
  const int64_t vocabulary = 50, dim = 16, classes = 5;
  const int64_t batch = 8, length = 12;

  torch::nn::Embedding embedding(vocabulary, dim);
  torch::nn::Linear classifier(dim, classes);
  std::vector<torch::Tensor> parameters = embedding->parameters();
  for (const auto &p : classifier->parameters())
    parameters.push_back(p);
  torch::optim::SGD optimizer(parameters, torch::optim::SGDOptions(0.5));

  auto tokens = torch::randint(0, vocabulary, {batch, length});
  // The padding id is one past the vocabulary the embedding was built for.
  const int64_t padId = vocabulary;
  tokens.slice(1, length - 3) = padId;
  auto labels = torch::randint(0, classes, {batch, length});
  // The last three positions of every sequence are padding.
  labels.slice(1, length - 3) = -100;

  for (int step = 0; step < 30; ++step) {
    optimizer.zero_grad();
    const auto logits = classifier(embedding(tokens)); // BUG: torch-index-range
    const auto loss = torch::nn::functional::cross_entropy(
        logits.reshape({-1, classes}), labels.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
    loss.backward();
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
