// Inference over batches: the model, every input batch and the running
// statistics live on one device, chosen at run time; results come back to
// the CPU only through an explicit .to(torch::kCPU).
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(10);
  const torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Sequential model(torch::nn::Linear(6, 12), torch::nn::ReLU(),
                              torch::nn::Linear(12, 3));
  model->to(device);
  model->eval();

  torch::NoGradGuard noGrad;
  auto classCounts = torch::zeros({3}, torch::TensorOptions(device));
  const auto dataset = torch::randn({100, 6});
  for (int64_t start = 0; start < 100; start += 25) {
    const auto batch = dataset.slice(0, start, start + 25).to(device);
    const auto predictions = model->forward(batch).argmax(1);
    classCounts += torch::bincount(predictions, {}, 3).to(torch::kFloat);
  }
  std::cout << "class counts " << classCounts.to(torch::kCPU) << "\n";
  return 0;
}
