// RUN: %check_gpuguard %s torch-index-range %t -- -- %torch_mock_flags

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

// `%` of a range that spans at least n values takes every residue.
void remainderLabels() {
  const int64_t batch = 12, classes = 5;
  torch::nn::Linear model(7, classes);
  const auto inputs = torch::randn({batch, 7});
  const auto labels = torch::arange(batch) % classes + 1;
  auto a = torch::nll_loss(torch::log_softmax(model(inputs), 1), labels);
  // CHECK-NOTES: :[[@LINE-1]]:66: warning: values of 'labels' go up to 5, out of range for 'torch::log_softmax(model(inputs), 1)' with 5 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: values of 'labels' set here
  auto b = F::one_hot(torch::tensor({3, 9, 14}) % 5, 4);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: values of 'torch::tensor({3, 9, 14}) % 5' go up to 4, out of range for one_hot with num_classes 4 [torch-index-range]
}

void remainderLabelsAccepted() {
  const int64_t batch = 12, classes = 5;
  torch::nn::Linear model(7, classes);
  const auto inputs = torch::randn({batch, 7});
  auto a = torch::nll_loss(torch::log_softmax(model(inputs), 1),
                           torch::arange(batch) % classes);
  // [0, 3] % 5 stays [0, 3]; [0, 9] * 5 % 5 is all zeros; a literal's
  // residues are known.
  auto b = F::one_hot(torch::arange(4) % 5 + 1, 5);
  auto c = F::one_hot(torch::arange(10) * 5 % 5, 1);
  auto d = F::one_hot(torch::tensor({5, 10, 16}) % 5, 2);
}

// Writes through a view (`t.slice(...) = v`, `t[i] = v`, `narrow`) add the
// value to what the variable holds.
void viewWrites() {
  const int64_t vocabulary = 50, dim = 16, classes = 5;
  const int64_t batch = 8, length = 12;
  torch::nn::Embedding embedding(vocabulary, dim);
  torch::nn::Linear classifier(dim, classes);
  const auto tokens = torch::randint(0, vocabulary, {batch, length});
  auto labels = torch::randint(0, classes, {batch, length});
  labels.slice(1, length - 3) = -1;
  const auto logits = classifier(embedding(tokens));
  auto a = F::cross_entropy(logits.reshape({-1, classes}), labels.reshape({-1}));
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: values of 'labels.reshape({-1})' go down to -1, out of range for 'logits.reshape({-1, classes})' with 5 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: values of 'labels.reshape({-1})' set here
  auto padded = torch::randint(0, vocabulary, {batch, length});
  const int64_t padId = vocabulary;
  padded.narrow(1, 0, 2) = padId;
  auto b = embedding(padded);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: values of 'padded' go up to 50, out of range for embedding 'embedding' of 50 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: values of 'padded' set here
  auto rows = torch::randint(0, vocabulary, {batch});
  rows[0] = 60;
  auto c = embedding(rows);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: values of 'rows' go up to 60, out of range for embedding 'embedding' of 50 entries [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: values of 'rows' set here
}

void viewWritesAccepted(torch::Tensor mask) {
  const int64_t vocabulary = 50, dim = 16, classes = 5;
  const int64_t batch = 8, length = 12;
  torch::nn::Embedding embedding(vocabulary, dim);
  auto logits = torch::randn({batch * length, classes});
  // The padding label is the ignore_index.
  auto labels = torch::randint(0, classes, {batch, length});
  labels.slice(1, length - 3) = -100;
  auto a = F::cross_entropy(logits, labels.reshape({-1}));
  // The write covers the whole tensor, or nothing, or a value in range.
  auto whole = torch::randint(0, 100, {batch, length});
  whole.slice(1, 0) = 3;
  auto b = embedding(whole);
  auto none = torch::randint(0, vocabulary, {batch, length});
  none.slice(1, length) = 70;
  auto c = embedding(none);
  auto ok = torch::randint(0, vocabulary, {batch, length});
  ok.slice(1, 2) = 0;
  auto d = embedding(ok);
  // A copy, not a view: the variable keeps its values.
  auto copied = torch::randint(0, vocabulary, {batch});
  copied[mask] = 70;
  auto e = embedding(copied);
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
  // A clamp of the floating values keeps NaN, which the cast still breaks:
  // a quotient may be NaN.
  auto ratios = torch::rand({8}) / torch::rand({8}) * 100;
  auto d = emb(ratios.clamp(0, 99).to(torch::kLong));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'ratios.clamp(0, 99).to(torch::kLong)' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
  auto logs = torch::log(torch::rand({8}) - 0.5) * 10;
  auto e = emb(logs.clamp(0, 99).floor().to(torch::kLong));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'logs.clamp(0, 99).floor().to(torch::kLong)' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
  // Finite values moved by arithmetic are not bounded any more.
  auto shifted = torch::rand({8}) * 2 - 0.5;
  auto f = F::one_hot((shifted * 10).to(torch::kLong), 10);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: '(shifted * 10).to(torch::kLong)' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for one_hot with num_classes 10 [torch-index-range]
}

// Sums, differences and products of finite values are finite: a clamp on
// both sides before the cast bounds the integers.
void castFiniteClamped() {
  const int64_t buckets = 10;
  const auto scores = torch::rand({100}) * 2 - 0.5;
  const auto scaled = scores * buckets;
  const auto ids = scaled.clamp(0, buckets - 1).floor().to(torch::kLong);
  auto a = torch::one_hot(ids, buckets);
  auto mixed = torch::randn({4}) * torch::rand({4}) + torch::randn({4});
  auto b = F::one_hot(mixed.clamp(0, 9).to(torch::kLong), 10);
  torch::nn::Embedding emb(100, 16);
  auto c = emb((torch::rand({8}) * 100).clamp(0, 99).to(torch::kLong));
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

// ---- Shapes users report most often ----------------------------------------------

void paddedLabelsWithDefaultIgnoreIndex() {
  auto logits = torch::randn({4, 5});
  auto labels = torch::tensor({1, 2, -1, -1}, torch::kLong);
  auto loss = torch::nn::functional::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: values of 'labels' go down to -1, out of range for 'logits' with 5 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'labels' set here
}

void argmaxOverALongerDimension() {
  auto scores = torch::randn({2, 10});
  auto idx = scores.argmax(1);
  auto table = torch::randn({5, 3});
  auto rows = table.index_select(0, idx);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: values of 'idx' go up to 9, out of range for dimension 0 of 'table' with size 5 [torch-index-range]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: values of 'idx' set here
  auto fits = torch::randn({10, 3}).index_select(0, idx);
}

void nllLossOnNarrowerLogProbabilities() {
  auto logp = torch::log_softmax(torch::randn({4, 5}), 1);
  auto target = torch::randint(0, 10, {4}, torch::kLong);
  auto loss = torch::nn::functional::nll_loss(logp, target);
  // CHECK-NOTES: :[[@LINE-1]]:53: warning: values of 'target' go up to 9, out of range for 'logp' with 5 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'target' set here
  auto wide = torch::log_softmax(torch::randn({4, 10}), 1);
  auto fits = torch::nn::functional::nll_loss(wide, target);
}

// Min-max normalisation times C: the maximum maps to C itself.
void bucketiseIntoClasses() {
  auto x = torch::randn({8});
  auto logits = torch::randn({8, 10});
  auto labels = ((x - x.min()) / (x.max() - x.min()) * 10).to(torch::kLong);
  auto loss = torch::nn::functional::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: values of 'labels' go up to 10, out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: values of 'labels' set here
}

// Times C - 1 the range fits; constant data still makes it NaN.
void bucketiseIntoClassesMinusOne() {
  auto x = torch::randn({8});
  auto logits = torch::randn({8, 10});
  auto labels = ((x - x.min()) / (x.max() - x.min()) * 9).to(torch::kLong);
  auto loss = torch::nn::functional::cross_entropy(logits, labels);
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: 'labels' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for 'logits' with 10 classes (ignore_index -100) [torch-index-range]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: cast here; check with torch::isfinite or clamp the integers to the valid range
}

void bucketiseCheckedAndClamped() {
  auto x = torch::randn({8});
  auto logits = torch::randn({8, 10});
  auto labels = ((x - x.min()) / (x.max() - x.min()) * 10)
                    .nan_to_num(0)
                    .clamp(0, 9)
                    .to(torch::kLong);
  auto loss = torch::nn::functional::cross_entropy(logits, labels);
}
