// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-index-range %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s embedding_random_ids --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s embedding_negative_id --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s embedding_ids_in_range --expect=accepted
// RUN: %torch_run --binary=%t.bin %s cross_entropy_label_too_large --expect=rejected --message="Target 10 is out of bounds"
// RUN: %torch_run --binary=%t.bin %s nll_negative_label --expect=rejected --message="Target -1 is out of bounds"
// RUN: %torch_run --binary=%t.bin %s cross_entropy_ignored_label --expect=accepted
// RUN: %torch_run --binary=%t.bin %s cross_entropy_module_ignored_label --expect=accepted
// RUN: %torch_run --binary=%t.bin %s cross_entropy_labels_below_classes --expect=accepted
// RUN: %torch_run --binary=%t.bin %s index_select_out_of_range --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s gather_out_of_range --expect=rejected --message="index 5 is out of bounds for dimension 1 with size 3"
// RUN: %torch_run --binary=%t.bin %s one_hot_too_large --expect=rejected --message="Class values must be smaller than num_classes"
// RUN: %torch_run --binary=%t.bin %s one_hot_in_range --expect=accepted
// RUN: %torch_run --binary=%t.bin %s nan_cast_to_index --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s nan_cast_then_clamped --expect=accepted
// RUN: %torch_run --binary=%t.bin %s nan_to_num_before_cast --expect=accepted
// RUN: %torch_run --binary=%t.bin %s finite_checked_before_cast --expect=accepted
// RUN: %torch_run --binary=%t.bin %s padded_labels_default_ignore_index --expect=rejected --message="Target -1 is out of bounds"
// RUN: %torch_run --binary=%t.bin %s argmax_over_longer_dimension --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s nll_loss_on_narrower_log_probabilities --expect=rejected --message="out of bounds"
// RUN: %torch_run --binary=%t.bin %s bucketise_maximum_maps_to_classes --expect=rejected --message="Target 10 is out of bounds"
// RUN: %torch_run --binary=%t.bin %s bucketise_checked_and_clamped --expect=accepted

#include <torch/torch.h>

#include "torch_scenarios.h"

namespace F = torch::nn::functional;

GPUGUARD_SCENARIO(embedding_random_ids) {
  torch::manual_seed(0);
  torch::nn::Embedding emb(100, 16);
  auto ids = torch::randint(0, 120, {64});
  auto out = emb(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: values of 'ids' go up to 119, out of range for embedding 'emb' of 100 entries [torch-index-range]
}

GPUGUARD_SCENARIO(embedding_negative_id) {
  torch::nn::Embedding emb(torch::nn::EmbeddingOptions(100, 16).padding_idx(0));
  auto ids = torch::tensor({3, 0, -1});
  auto out = emb->forward(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: values of 'ids' go down to -1, out of range for embedding 'emb' of 100 entries [torch-index-range]
}

GPUGUARD_SCENARIO(embedding_ids_in_range) {
  torch::nn::Embedding emb(100, 16);
  auto ids = torch::randint(0, 100, {64});
  auto out = emb(ids);
}

GPUGUARD_SCENARIO(cross_entropy_label_too_large) {
  auto logits = torch::randn({4, 10});
  auto labels = torch::tensor({1, 2, 3, 10});
  auto loss = F::cross_entropy(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: values of 'labels' go up to 10, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
}

GPUGUARD_SCENARIO(nll_negative_label) {
  auto logits = torch::randn({4, 10});
  auto labels = torch::tensor({1, -1, 3, 4});
  auto loss = torch::nll_loss(logits.log_softmax(1), labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: values of 'labels' go down to -1, out of range for 'logits.log_softmax(1)' with 10 classes (ignore_index -100) [torch-index-range]
}

GPUGUARD_SCENARIO(cross_entropy_ignored_label) {
  auto logits = torch::randn({4, 10});
  auto labels = torch::tensor({1, -1, 3, 9});
  auto loss = F::cross_entropy(logits, labels,
                               F::CrossEntropyFuncOptions().ignore_index(-1));
}

GPUGUARD_SCENARIO(cross_entropy_module_ignored_label) {
  torch::nn::CrossEntropyLoss criterion(
      torch::nn::CrossEntropyLossOptions().ignore_index(-1));
  auto logits = torch::randn({4, 10});
  auto labels = torch::tensor({-1, -1, 0, 9});
  auto loss = criterion(logits, labels);
}

GPUGUARD_SCENARIO(cross_entropy_labels_below_classes) {
  auto logits = torch::randn({8, 10});
  auto loss = F::cross_entropy(logits, torch::randint(0, 10, {8}));
  auto again = F::cross_entropy(logits, logits.argmax(1));
}

GPUGUARD_SCENARIO(index_select_out_of_range) {
  auto x = torch::randn({4, 3});
  auto rows = x.index_select(0, torch::tensor({0, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: values of 'torch::tensor({0, 4})' go up to 4, out of range for dimension 0 of 'x' with size 4 [torch-index-range]
}

GPUGUARD_SCENARIO(gather_out_of_range) {
  auto x = torch::randn({2, 3});
  auto index = torch::tensor({{0, 5}, {1, 2}});
  auto picked = x.gather(1, index);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: values of 'index' go up to 5, out of range for dimension 1 of 'x' with size 3 [torch-index-range]
}

GPUGUARD_SCENARIO(one_hot_too_large) {
  auto encoded = F::one_hot(torch::tensor({0, 5}), 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: values of 'torch::tensor({0, 5})' go up to 5, out of range for one_hot with num_classes 3 [torch-index-range]
}

GPUGUARD_SCENARIO(one_hot_in_range) {
  auto encoded = F::one_hot(torch::tensor({0, 2}), 3);
}

GPUGUARD_SCENARIO(nan_cast_to_index) {
  torch::nn::Embedding emb(100, 16);
  // 0 / 0: a position computed from an empty count.
  auto positions = torch::zeros({8}) / torch::zeros({8}) * 100;
  auto ids = positions.to(torch::kLong);
  auto out = emb(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'ids' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
}

GPUGUARD_SCENARIO(nan_cast_then_clamped) {
  torch::nn::Embedding emb(100, 16);
  auto positions = torch::zeros({8}) / torch::zeros({8}) * 100;
  auto out = emb(positions.to(torch::kLong).clamp(0, 99));
}

GPUGUARD_SCENARIO(nan_to_num_before_cast) {
  torch::nn::Embedding emb(100, 16);
  auto positions = torch::zeros({8}) / torch::zeros({8}) * 100;
  auto out = emb(positions.nan_to_num().to(torch::kLong));
}

GPUGUARD_SCENARIO(finite_checked_before_cast) {
  torch::nn::Embedding emb(100, 16);
  auto positions = torch::rand({8}) * 99;
  TORCH_CHECK(torch::isfinite(positions).all().item<bool>(), "bad positions");
  auto out = emb(positions.to(torch::kLong));
}

// Shapes users report most often.

// Padding set to -1 while the loss keeps its default ignore_index (-100).
GPUGUARD_SCENARIO(padded_labels_default_ignore_index) {
  auto logits = torch::randn({4, 5});
  auto labels = torch::tensor({1, 2, -1, -1}, torch::kLong);
  auto loss = F::cross_entropy(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: values of 'labels' go down to -1, out of range for 'logits' with 5 classes (ignore_index -100) [torch-index-range]
}

// argmax over 10 scores indexes a table of 5 rows.
GPUGUARD_SCENARIO(argmax_over_longer_dimension) {
  auto scores = torch::randn({2, 10});
  scores[0][9] = 100;
  auto idx = scores.argmax(1);
  auto table = torch::randn({5, 3});
  auto rows = table.index_select(0, idx);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: values of 'idx' go up to 9, out of range for dimension 0 of 'table' with size 5 [torch-index-range]
}

// Targets drawn for 10 classes, log-probabilities of 5.
GPUGUARD_SCENARIO(nll_loss_on_narrower_log_probabilities) {
  auto logp = torch::log_softmax(torch::randn({4, 5}), 1);
  auto target = torch::full({4}, 9, torch::kLong);
  auto loss = F::nll_loss(logp, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: values of 'target' go up to 9, out of range for 'logp' with 5 classes (ignore_index -100) [torch-index-range]
}

// Min-max normalisation times the class count: the maximum becomes label C.
GPUGUARD_SCENARIO(bucketise_maximum_maps_to_classes) {
  auto x = torch::randn({8});
  auto logits = torch::randn({8, 10});
  auto labels = ((x - x.min()) / (x.max() - x.min()) * 10).to(torch::kLong);
  auto loss = F::cross_entropy(logits, labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: values of 'labels' go up to 10, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
}

GPUGUARD_SCENARIO(bucketise_checked_and_clamped) {
  auto x = torch::randn({8});
  auto logits = torch::randn({8, 10});
  auto labels = ((x - x.min()) / (x.max() - x.min()) * 10)
                    .nan_to_num(0)
                    .clamp(0, 9)
                    .to(torch::kLong);
  auto loss = F::cross_entropy(logits, labels);
}
