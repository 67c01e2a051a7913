// RUN: %check_gpuguard %s torch-loss-shape %t -- -- %torch_mock_flags

#include <torch/torch.h>

namespace F = torch::nn::functional;

// Regression losses broadcast [N, 1] against [N] into [N, N].

void regressionBroadcast() {
  torch::nn::Linear head(16, 1);
  auto features = torch::randn({32, 16});
  auto prediction = head(features);
  auto target = torch::randn({32});
  auto a = F::mse_loss(prediction, target);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: target shape [32] differs from input shape [32, 1]; 'mse_loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: shape [32, 1] of 'prediction' set here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: shape [32] of 'target' set here
  torch::nn::MSELoss mse;
  auto b = mse(prediction, target);
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: target shape [32] differs from input shape [32, 1]; 'MSELoss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-9]]:21: note: shape [32, 1] of 'prediction' set here
  // CHECK-NOTES: :[[@LINE-9]]:17: note: shape [32] of 'target' set here
  auto c = torch::nn::L1Loss()->forward(prediction, target);
  // CHECK-NOTES: :[[@LINE-1]]:53: warning: target shape [32] differs from input shape [32, 1]; 'L1Loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-13]]:21: note: shape [32, 1] of 'prediction' set here
  // CHECK-NOTES: :[[@LINE-13]]:17: note: shape [32] of 'target' set here
  auto d = F::smooth_l1_loss(prediction.t(), target.unsqueeze(1));
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: target shape [32, 1] differs from input shape [1, 32]; 'smooth_l1_loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
  auto e = torch::mse_loss(prediction, target);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: target shape [32] differs from input shape [32, 1]; 'mse_loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-19]]:21: note: shape [32, 1] of 'prediction' set here
  // CHECK-NOTES: :[[@LINE-19]]:17: note: shape [32] of 'target' set here
  auto f = F::l1_loss(torch::randn({4, 3}), torch::randn({5}));
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: target shape [5] differs from input shape [4, 3] and does not broadcast with it in 'l1_loss' [torch-loss-shape]
}

void regressionAccepted(torch::Tensor unknown) {
  torch::nn::Linear head(16, 1);
  auto prediction = head(torch::randn({32, 16}));
  auto target = torch::randn({32});
  auto a = F::mse_loss(prediction.squeeze(1), target);
  auto b = F::mse_loss(prediction, target.unsqueeze(1));
  auto c = F::mse_loss(prediction.view({-1}), target);
  auto d = F::l1_loss(prediction.flatten(), target);
  auto e = F::mse_loss(prediction, unknown);
  auto f = F::mse_loss(prediction, target.view({32, 1}));
}

// Shapes through linspace, the *_like factories, scalar-first arithmetic and
// moves between devices.
void regressionFromLinspace(torch::Device device) {
  auto x = torch::linspace(-1, 1, 64).unsqueeze(1).to(device);
  auto y = (3 * x - 1 + 0.01 * torch::randn_like(x)).squeeze(1);
  torch::nn::Linear model(1, 1);
  auto prediction = model(x);
  auto a = F::mse_loss(prediction, y);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: target shape [64] differs from input shape [64, 1]; 'mse_loss' broadcasts them to [64, 64] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: shape [64, 1] of 'prediction' set here
  // CHECK-NOTES: :[[@LINE-6]]:12: note: shape [64] of 'y' set here
  auto b = F::mse_loss(prediction, y.unsqueeze(1));
  auto c = F::mse_loss(prediction, torch::rand_like(x));
  auto d = F::l1_loss(torch::linspace(0, 1, 8), torch::zeros_like(x));
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: target shape [64, 1] differs from input shape [8]; 'l1_loss' broadcasts them to [64, 8] and compares the wrong elements [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-12]]:12: note: shape [64, 1] of 'torch::zeros_like(x)' set here
  auto e = F::l1_loss(torch::linspace(0, 1, 64), torch::ones_like(y));
}

// Binary cross-entropy needs identical shapes.

void binaryCrossEntropy() {
  auto logits = torch::randn({8, 1});
  auto labels = torch::rand({8});
  auto a = F::binary_cross_entropy_with_logits(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:56: warning: target shape [8] differs from input shape [8, 1]; 'binary_cross_entropy_with_logits' requires them to be the same [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-4]]:17: note: shape [8, 1] of 'logits' set here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: shape [8] of 'labels' set here
  auto b = torch::binary_cross_entropy(logits.sigmoid(), labels);
  // CHECK-NOTES: :[[@LINE-1]]:58: warning: target shape [8] differs from input shape [8, 1]; 'binary_cross_entropy' requires them to be the same [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-8]]:17: note: shape [8, 1] of 'logits.sigmoid()' set here
  // CHECK-NOTES: :[[@LINE-8]]:17: note: shape [8] of 'labels' set here
  torch::nn::BCEWithLogitsLoss criterion;
  auto c = criterion(logits, labels.view({1, 8}));
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: target shape [1, 8] differs from input shape [8, 1]; 'BCEWithLogitsLoss' requires them to be the same [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-13]]:17: note: shape [8, 1] of 'logits' set here
  auto d = torch::nn::BCELoss()(torch::sigmoid(logits), labels);
  // CHECK-NOTES: :[[@LINE-1]]:57: warning: target shape [8] differs from input shape [8, 1]; 'BCELoss' requires them to be the same [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-16]]:17: note: shape [8, 1] of 'torch::sigmoid(logits)' set here
  // CHECK-NOTES: :[[@LINE-16]]:17: note: shape [8] of 'labels' set here
}

void binaryCrossEntropyAccepted() {
  auto logits = torch::randn({8, 1});
  auto labels = torch::rand({8});
  auto a = F::binary_cross_entropy_with_logits(logits.squeeze(), labels);
  auto b = F::binary_cross_entropy(logits.sigmoid(), labels.reshape({8, 1}));
  auto mask = torch::ones({8, 1});
  if (labels.numel() > 4)
    mask = torch::zeros({8});
  auto c = F::binary_cross_entropy_with_logits(logits, mask);
}

// Class-index targets: the input's shape without the class dimension.

void classification() {
  auto logits = torch::randn({8, 10});
  auto labels = torch::randint(0, 10, {8, 1});
  auto a = F::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: target shape [8, 1] does not fit input shape [8, 10] in 'cross_entropy'; class indices need shape [8] [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-4]]:17: note: shape [8, 10] of 'logits' set here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: shape [8, 1] of 'labels' set here
  auto b = F::nll_loss(logits.log_softmax(1), labels);
  // CHECK-NOTES: :[[@LINE-1]]:47: warning: target shape [8, 1] does not fit input shape [8, 10] in 'nll_loss'; class indices need shape [8] [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-8]]:17: note: shape [8, 10] of 'logits.log_softmax(1)' set here
  // CHECK-NOTES: :[[@LINE-8]]:17: note: shape [8, 1] of 'labels' set here
  torch::nn::CrossEntropyLoss criterion;
  auto c = criterion(logits, torch::randint(0, 10, {7}));
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: target shape [7] does not fit input shape [8, 10] in 'CrossEntropyLoss'; class indices need shape [8] [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-13]]:17: note: shape [8, 10] of 'logits' set here
  auto d = torch::nll_loss(logits, torch::randint(0, 10, {8, 10}));
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: target shape [8, 10] does not fit input shape [8, 10] in 'nll_loss'; class indices need shape [8] [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-16]]:17: note: shape [8, 10] of 'logits' set here
  auto e = F::cross_entropy(logits, torch::randint(0, 10, {8, 10}));
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: target shape [8, 10] does not fit input shape [8, 10] in 'cross_entropy'; class indices need shape [8] [torch-loss-shape]
  // CHECK-NOTES: :[[@LINE-19]]:17: note: shape [8, 10] of 'logits' set here
}

void classificationAccepted(torch::Tensor unknown) {
  auto logits = torch::randn({8, 10});
  auto labels = torch::randint(0, 10, {8, 1});
  auto a = F::cross_entropy(logits, labels.squeeze(1));
  auto b = F::cross_entropy(logits, labels.view({-1}));
  auto c = F::cross_entropy(logits, torch::softmax(torch::randn({8, 10}), 1));
  auto d = F::cross_entropy(torch::randn({10}), torch::tensor(3));
  auto e = F::cross_entropy(torch::randn({2, 5, 4}), torch::randint(0, 5, {2, 4}));
  auto f = F::nll_loss(logits, unknown);
  auto g = F::cross_entropy(logits, logits.argmax(1));
}
