// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-loss-shape %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s mse_broadcast_functional --expect=rejected --message="Using a target size \(\[32\]\) that is different to the input size \(\[32, 1\]\)"
// RUN: %torch_run --binary=%t.bin %s mse_broadcast_module --expect=rejected --message="Using a target size"
// RUN: %torch_run --binary=%t.bin %s smooth_l1_broadcast --expect=rejected --message="Using a target size"
// RUN: %torch_run --binary=%t.bin %s regression_same_shape --expect=accepted
// RUN: %torch_run --binary=%t.bin %s bce_with_logits_shapes_differ --expect=rejected --message="Target size \(\[8\]\) must be the same as input size \(\[8, 1\]\)"
// RUN: %torch_run --binary=%t.bin %s bce_module_shapes_differ --expect=rejected --message="Using a target size \(\[8\]\) that is different to the input size \(\[8, 1\]\) is deprecated"
// RUN: %torch_run --binary=%t.bin %s bce_same_shape --expect=accepted
// RUN: %torch_run --binary=%t.bin %s cross_entropy_column_target --expect=rejected --message="0D or 1D target tensor expected, multi-target not supported"
// RUN: %torch_run --binary=%t.bin %s nll_module_column_target --expect=rejected --message="0D or 1D target tensor expected, multi-target not supported"
// RUN: %torch_run --binary=%t.bin %s cross_entropy_batch_mismatch --expect=rejected --message="Expected input batch_size \(8\) to match target batch_size \(7\)"
// RUN: %torch_run --binary=%t.bin %s cross_entropy_index_target_of_input_shape --expect=rejected --message="Expected floating point type for target with class probabilities, got Long"
// RUN: %torch_run --binary=%t.bin %s cross_entropy_accepted_targets --expect=accepted

#include <torch/torch.h>

#include "torch_scenarios.h"

namespace F = torch::nn::functional;

GPUGUARD_SCENARIO(mse_broadcast_functional) {
  torch::nn::Linear head(16, 1);
  auto prediction = head(torch::randn({32, 16}));
  auto target = torch::randn({32});
  auto loss = F::mse_loss(prediction, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: target shape [32] differs from input shape [32, 1]; 'mse_loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
}

GPUGUARD_SCENARIO(mse_broadcast_module) {
  torch::nn::MSELoss criterion;
  auto prediction = torch::randn({32, 1});
  auto loss = criterion(prediction, torch::randn({32}));
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: target shape [32] differs from input shape [32, 1]; 'MSELoss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
}

GPUGUARD_SCENARIO(smooth_l1_broadcast) {
  auto prediction = torch::randn({32});
  auto target = torch::randn({32}).unsqueeze(1);
  auto loss = F::smooth_l1_loss(prediction, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: target shape [32, 1] differs from input shape [32]; 'smooth_l1_loss' broadcasts them to [32, 32] and compares the wrong elements [torch-loss-shape]
}

GPUGUARD_SCENARIO(regression_same_shape) {
  torch::nn::Linear head(16, 1);
  auto prediction = head(torch::randn({32, 16}));
  auto target = torch::randn({32});
  auto a = F::mse_loss(prediction.squeeze(1), target);
  auto b = torch::nn::MSELoss()(prediction, target.unsqueeze(1));
  auto c = F::smooth_l1_loss(prediction.view({-1}), target);
}

GPUGUARD_SCENARIO(bce_with_logits_shapes_differ) {
  auto logits = torch::randn({8, 1});
  auto labels = torch::rand({8});
  auto loss = F::binary_cross_entropy_with_logits(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: target shape [8] differs from input shape [8, 1]; 'binary_cross_entropy_with_logits' requires them to be the same [torch-loss-shape]
}

GPUGUARD_SCENARIO(bce_module_shapes_differ) {
  torch::nn::BCELoss criterion;
  auto probabilities = torch::sigmoid(torch::randn({8, 1}));
  auto loss = criterion(probabilities, torch::rand({8}));
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: target shape [8] differs from input shape [8, 1]; 'BCELoss' requires them to be the same [torch-loss-shape]
}

GPUGUARD_SCENARIO(bce_same_shape) {
  auto logits = torch::randn({8, 1});
  auto labels = torch::rand({8});
  auto a = F::binary_cross_entropy_with_logits(logits.squeeze(1), labels);
  auto b = torch::nn::BCELoss()(torch::sigmoid(logits), labels.view({8, 1}));
}

GPUGUARD_SCENARIO(cross_entropy_column_target) {
  auto logits = torch::randn({8, 10});
  auto labels = torch::randint(0, 10, {8, 1});
  auto loss = F::cross_entropy(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: target shape [8, 1] does not fit input shape [8, 10] in 'cross_entropy'; class indices need shape [8] [torch-loss-shape]
}

GPUGUARD_SCENARIO(nll_module_column_target) {
  torch::nn::NLLLoss criterion;
  auto scores = torch::randn({8, 10}).log_softmax(1);
  auto loss = criterion->forward(scores, torch::randint(0, 10, {8, 1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: target shape [8, 1] does not fit input shape [8, 10] in 'NLLLoss'; class indices need shape [8] [torch-loss-shape]
}

GPUGUARD_SCENARIO(cross_entropy_batch_mismatch) {
  auto logits = torch::randn({8, 10});
  auto loss = F::cross_entropy(logits, torch::randint(0, 10, {7}));
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: target shape [7] does not fit input shape [8, 10] in 'cross_entropy'; class indices need shape [8] [torch-loss-shape]
}

GPUGUARD_SCENARIO(cross_entropy_index_target_of_input_shape) {
  auto logits = torch::randn({8, 10});
  auto labels = torch::randint(0, 10, {8, 10});
  auto loss = F::cross_entropy(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: target shape [8, 10] does not fit input shape [8, 10] in 'cross_entropy'; class indices need shape [8] [torch-loss-shape]
}

GPUGUARD_SCENARIO(cross_entropy_accepted_targets) {
  auto logits = torch::randn({8, 10});
  auto labels = torch::randint(0, 10, {8, 1});
  auto a = F::cross_entropy(logits, labels.squeeze(1));
  auto b = F::cross_entropy(logits, torch::softmax(torch::randn({8, 10}), 1));
  auto c = F::cross_entropy(torch::randn({10}), torch::tensor(3));
  auto d = F::cross_entropy(torch::randn({2, 5, 4}), torch::randint(0, 5, {2, 4}));
  auto e = torch::nn::NLLLoss()(logits.log_softmax(1), labels.view({-1}));
}
