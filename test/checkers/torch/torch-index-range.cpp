// RUN: %check_gpuguard %s torch-index-range %t -- -- %torch_mock_flags
// RUN: %check_gpuguard --runner=plugin %s torch-index-range %t.plugin -- -- %torch_mock_flags

#include <torch/torch.h>

namespace F = torch::nn::functional;

// Embedding modules, called both ways.

void embeddingRandomIds() {
  torch::nn::Embedding emb(100, 16);
  auto ids = torch::randint(0, 120, {8, 4});
  auto out = emb(ids);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: values of 'ids' go up to 119, out of range for embedding 'emb' of 100 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: values of 'ids' set here
}

void embeddingForward() {
  const int64_t Vocab = 100;
  torch::nn::Embedding emb(torch::nn::EmbeddingOptions(Vocab, 16).padding_idx(0));
  torch::Tensor ids = torch::tensor({3, 7, -1});
  auto out = emb->forward(ids);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: values of 'ids' go down to -1, out of range for embedding 'emb' of 100 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: values of 'ids' set here
}

void embeddingRandintHighOnly() {
  constexpr int64_t Vocab = 50;
  auto emb = torch::nn::Embedding(Vocab, 8);
  auto out = emb(torch::randint(Vocab + 1, {4}));
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: values of 'torch::randint(Vocab + 1, {4})' go up to 50, out of range for embedding 'emb' of 50 entries [torch-index-range]
}

void embeddingFunctional() {
  auto weight = torch::randn({10, 4});
  auto ids = torch::tensor({{1, 2}, {3, 10}});
  auto a = torch::embedding(weight, ids);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: values of 'ids' go up to 10, out of range for embedding weight 'weight' of 10 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: values of 'ids' set here
  auto b = F::embedding(ids, weight);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: values of 'ids' go up to 10, out of range for embedding weight 'weight' of 10 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-6]]:14: note: values of 'ids' set here
}

// Negatives: ids within the table, or unknown.
void embeddingInRange(torch::Tensor unknown) {
  torch::nn::Embedding emb(100, 16);
  auto ids = torch::randint(0, 100, {8});
  auto a = emb(ids);
  auto b = emb(torch::arange(100));
  auto c = emb(unknown);
  auto d = emb((ids + 5) % 100);
  auto e = emb(torch::randint(0, 120, {8}).clamp(0, 99));
  auto big = torch::randint(0, 200, {8});
  big = big.clamp(0, 99);
  auto f = emb(big);
}

// Flow: a join of different facts is unknown; a later assignment wins.
void embeddingFlow(bool flag) {
  torch::nn::Embedding emb(100, 16);
  auto ids = torch::randint(0, 100, {8});
  if (flag)
    ids = torch::randint(0, 500, {8});
  auto a = emb(ids);
  auto later = torch::randint(0, 50, {8});
  later = torch::full({8}, 100);
  auto b = emb(later);
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: values of 'later' go up to 100, out of range for embedding 'emb' of 100 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:11: note: values of 'later' set here
}

// Classification losses.

void crossEntropyLabels() {
  auto logits = torch::randn({4, 10});
  auto labels = torch::tensor({1, 2, 3, 10});
  auto a = F::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: values of 'labels' go up to 10, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'labels' set here
  auto negative = torch::tensor({1, -1, 3, 4});
  auto b = F::nll_loss(logits.log_softmax(1), negative);
  // CHECK-NOTES: :[[@LINE-1]]:47: warning: values of 'negative' go down to -1, out of range for 'logits.log_softmax(1)' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: values of 'negative' set here
  auto c = torch::nll_loss(logits, negative, {}, 1, -100);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: values of 'negative' go down to -1, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-6]]:19: note: values of 'negative' set here
  auto d = torch::cross_entropy_loss(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: values of 'labels' go up to 10, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-13]]:17: note: values of 'labels' set here
}

void crossEntropyModules() {
  torch::nn::CrossEntropyLoss criterion;
  auto logits = torch::randn({8, 5});
  auto labels = torch::randint(0, 6, {8});
  auto a = criterion(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: values of 'labels' go up to 5, out of range for 'logits' with 5 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'labels' set here
  torch::nn::NLLLoss nll(torch::nn::NLLLossOptions().ignore_index(-1));
  auto padded = torch::tensor({0, -1, -2});
  auto b = nll->forward(torch::randn({3, 5}), padded);
  // CHECK-NOTES: :[[@LINE-1]]:47: warning: values of 'padded' go down to -2, out of range for 'torch::randn({3, 5})' with 5 classes (ignore_index -1) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'padded' set here
}

// Negatives: ignore_index, labels below C, class probabilities, unbatched.
void crossEntropyAccepted(torch::Tensor unknownLogits) {
  auto logits = torch::randn({4, 10});
  auto padded = torch::tensor({1, -1, 3, 9});
  auto a = F::cross_entropy(logits, padded,
                            F::CrossEntropyFuncOptions().ignore_index(-1));
  auto options = torch::nn::CrossEntropyLossOptions().ignore_index(-1);
  torch::nn::CrossEntropyLoss criterion(options);
  auto b = criterion(logits, padded);
  auto c = torch::nll_loss(logits, padded, {}, 1, -1);
  auto d = F::cross_entropy(logits, torch::randint(0, 10, {4}));
  auto e = F::cross_entropy(logits, torch::rand({4, 10}));
  auto f = F::cross_entropy(unknownLogits, torch::tensor({100}));
  auto g = F::cross_entropy(torch::randn({10}), torch::tensor(9));
  auto h = F::cross_entropy(logits, logits.argmax(1));
}

// An ignore_index that is not a constant may be any of the labels.
void crossEntropyUnknownIgnoreIndex(int64_t pad) {
  auto logits = torch::randn({4, 10});
  auto padded = torch::tensor({1, -1});
  auto a = F::cross_entropy(logits, padded,
                            F::CrossEntropyFuncOptions().ignore_index(pad));
  torch::nn::CrossEntropyLoss criterion(
      torch::nn::CrossEntropyLossOptions().ignore_index(pad));
  auto b = criterion(logits, padded);
  auto c = torch::nll_loss(logits, padded, {}, 1, pad);
}

// index_select, gather and one_hot.

void indexingOps() {
  auto x = torch::randn({4, 3});
  auto a = x.index_select(0, torch::tensor({0, 4}));
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: values of 'torch::tensor({0, 4})' go up to 4, out of range for dimension 0 of 'x' with size 4 [torch-index-range]
  auto b = torch::index_select(x, -1, torch::arange(4));
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: values of 'torch::arange(4)' go up to 3, out of range for dimension -1 of 'x' with size 3 [torch-index-range]
  auto idx = torch::tensor({{0, 5}, {1, 2}});
  auto c = x.gather(1, idx);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: values of 'idx' go up to 5, out of range for dimension 1 of 'x' with size 3 [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: values of 'idx' set here
  auto d = F::one_hot(torch::tensor({0, 3}), 3);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: values of 'torch::tensor({0, 3})' go up to 3, out of range for one_hot with num_classes 3 [torch-index-range]
  auto e = torch::one_hot(torch::tensor({0, -2}));
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: values of 'torch::tensor({0, -2})' go down to -2, out of range for one_hot [torch-index-range]
}

void indexingAccepted() {
  auto x = torch::randn({4, 3});
  auto a = x.index_select(0, torch::tensor({0, 3}));
  auto b = x.gather(1, x.argmax(1, /*keepdim=*/true));
  auto c = F::one_hot(torch::tensor({0, 2}), 3);
  auto d = F::one_hot(torch::tensor({0, 7}));
  auto e = x.view({-1}).index_select(0, torch::arange(12));
}

// Indexes cast from floating point.

void castIndexes(torch::Tensor scores) {
  torch::nn::Embedding emb(100, 16);
  auto positions = torch::rand({8}) * 100;
  auto ids = positions.to(torch::kLong);
  auto a = emb(ids);
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'ids' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: cast here; check with torch::isfinite or clamp the integers to the valid range
  auto b = emb(positions.floor().toType(torch::kLong));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'positions.floor().toType(torch::kLong)' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
  auto logits = torch::randn({8, 10});
  auto labels = (torch::sigmoid(logits.sum(1)) * 10).to(torch::kInt64);
  auto c = F::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: 'labels' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: cast here; check with torch::isfinite or clamp the integers to the valid range
  // A clamp of the floating values keeps NaN, which the cast still breaks.
  auto d = emb(positions.clamp(0, 99).to(torch::kLong));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'positions.clamp(0, 99).to(torch::kLong)' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
}

void castIndexesAccepted(torch::Tensor scores) {
  torch::nn::Embedding emb(100, 16);
  auto positions = torch::rand({8}) * 100;
  auto a = emb(positions.to(torch::kLong).clamp(0, 99));
  auto b = emb(positions.nan_to_num().to(torch::kLong));
  auto c = emb(positions.to(torch::kLong) % 100);
  auto ids = positions.to(torch::kLong);
  ids.clamp_(0, 99);
  auto d = emb(ids);
  auto checked = torch::rand({8}) * 100;
  TORCH_CHECK(torch::isfinite(checked).all().item<bool>(), "bad positions");
  auto e = emb(checked.to(torch::kLong));
  auto late = positions.to(torch::kLong);
  if (!torch::isfinite(positions).all().item<bool>())
    return;
  auto f = emb(late);
  // Unknown element type: the cast may be integer to integer.
  auto g = emb(scores.to(torch::kLong));
}
