// RUN: %check_gpuguard %s torch-div-by-zero %t -- -- %torch_mock_flags
#include <torch/torch.h>

namespace F = torch::nn::functional;

// Constant zero denominators.
torch::Tensor zeroDenominators(torch::Tensor x, torch::Tensor y) {
  auto a = x / (y - y);
// CHECK-NOTES: :[[@LINE-1]]:17: warning: division by 'y - y', which is zero everywhere [torch-div-by-zero]
  auto z = torch::zeros({3});
  auto b = x / z;
// CHECK-NOTES: :[[@LINE-1]]:16: warning: division by 'z', which is zero everywhere [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-3]]:12: note: the values are zero from here
  auto c = x.div(x * 0);
// CHECK-NOTES: :[[@LINE-1]]:18: warning: division by 'x * 0', which is zero everywhere [torch-div-by-zero]
  auto d = torch::div(x, torch::zeros_like(x));
// CHECK-NOTES: :[[@LINE-1]]:26: warning: division by 'torch::zeros_like(x)', which is zero everywhere [torch-div-by-zero]
  return a + b + c + d;
}

// Masks, relu, abs, squares and counts summed without protection.
torch::Tensor maskedMean(torch::Tensor loss, torch::Tensor target) {
  auto mask = (target > 0).to(torch::kFloat);
  return (loss * mask).sum() / mask.sum();
// CHECK-NOTES: :[[@LINE-1]]:32: warning: division by 'mask.sum()', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-3]]:16: note: the values are 0 or 1 from this comparison
}

torch::Tensor reluShare(torch::Tensor x) {
  auto r = torch::relu(x);
  auto q = F::relu(x);
  return r / r.sum() + q / q.mean();
// CHECK-NOTES: :[[@LINE-1]]:14: warning: division by 'r.sum()', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-4]]:12: note: the values are made non-negative by this relu
// CHECK-NOTES: :[[@LINE-3]]:28: warning: division by 'q.mean()', a mean of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-5]]:12: note: the values are made non-negative by this relu
}

torch::Tensor absShare(torch::Tensor x) {
  return x.abs() / x.abs().mean();
// CHECK-NOTES: :[[@LINE-1]]:20: warning: division by 'x.abs().mean()', a mean of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

torch::Tensor squareShare(torch::Tensor x) {
  auto energy = x.pow(2).sum();
  auto other = (x * x).sum();
  x /= energy;
// CHECK-NOTES: :[[@LINE-1]]:8: warning: division by 'energy', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-4]]:17: note: 'x.pow(2).sum()' is computed here
// CHECK-NOTES: :[[@LINE-5]]:17: note: the values are made non-negative by this square
  return x.true_divide(other);
// CHECK-NOTES: :[[@LINE-1]]:24: warning: division by 'other', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-7]]:16: note: '(x * x).sum()' is computed here
// CHECK-NOTES: :[[@LINE-8]]:17: note: the values are made non-negative by this square
}

torch::Tensor classFrequency(torch::Tensor labels, torch::Tensor total) {
  auto count = (labels == 3).sum();
  return total / count + total.floor_divide(count);
// CHECK-NOTES: :[[@LINE-1]]:18: warning: division by 'count', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-3]]:16: note: '(labels == 3).sum()' is computed here
// CHECK-NOTES: :[[@LINE-4]]:17: note: the values are 0 or 1 from this comparison
// CHECK-NOTES: :[[@LINE-4]]:45: warning: division by 'count', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-6]]:16: note: '(labels == 3).sum()' is computed here
// CHECK-NOTES: :[[@LINE-7]]:17: note: the values are 0 or 1 from this comparison
}

torch::Tensor accumulated(std::vector<torch::Tensor> parts, torch::Tensor x) {
  auto total = torch::zeros({});
  for (const auto &part : parts)
    total += torch::relu(part).sum();
  return x / total;
// CHECK-NOTES: :[[@LINE-1]]:14: warning: division by 'total', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-5]]:16: note: the sum starts from zero here
// CHECK-NOTES: :[[@LINE-4]]:14: note: the values are made non-negative by this relu
}

// Zero-initialised tensors that only some elements are added to: a sum over
// a dimension is zero where nothing was added, such as a class never
// predicted.
torch::Tensor precisionRecall(torch::Tensor predicted, torch::Tensor actual) {
  auto confusion = torch::zeros({4, 4});
  confusion.index_put_({actual, predicted}, torch::ones({8}),
                       /*accumulate=*/true);
  auto predictedCounts = confusion.sum(0);
  auto actualCounts = confusion.sum(1);
  auto precision = confusion.diagonal() / predictedCounts;
// CHECK-NOTES: :[[@LINE-1]]:43: warning: division by 'predictedCounts', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-4]]:26: note: 'confusion.sum(0)' is computed here
// CHECK-NOTES: :[[@LINE-8]]:20: note: the values are zero from here
  auto recall = confusion.diagonal() / actualCounts.clamp_min(1);
  return precision + recall;
}

torch::Tensor perClassMean(torch::Tensor features, torch::Tensor labels,
                           torch::Tensor target) {
  auto counts = torch::zeros({10});
  counts.index_add_(0, labels, torch::ones({8}));
  auto hits = torch::zeros({10, 3});
  hits.scatter_add_(0, labels, (target > 0).to(torch::kFloat));
  auto seen = torch::zeros({10});
  seen.index_put_({labels}, torch::ones({8}));
  return features / counts + features / hits.sum(1, /*keepdim=*/true) +
// CHECK-NOTES: :[[@LINE-1]]:21: warning: division by 'counts', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-8]]:17: note: the sum starts from zero here
// CHECK-NOTES: :[[@LINE-3]]:41: warning: division by 'hits.sum(1, /*keepdim=*/true)', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-7]]:33: note: the values are 0 or 1 from this comparison
         features / seen;
// CHECK-NOTES: :[[@LINE-1]]:21: warning: division by 'seen', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-9]]:15: note: the sum starts from zero here
}

torch::Tensor standardise(torch::Tensor x) {
  return (x - x.mean()) / x.std();
// CHECK-NOTES: :[[@LINE-1]]:27: warning: division by 'x.std()', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
}

torch::Tensor byVariance(torch::Tensor x) {
  auto v = x.var();
  return x / v.sqrt();
// CHECK-NOTES: :[[@LINE-1]]:14: warning: division by 'v.sqrt()', computed from a variance that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-3]]:12: note: 'x.var()' is computed here
}

torch::Tensor unitVector(torch::Tensor v) {
  return v.div(v.norm());
// CHECK-NOTES: :[[@LINE-1]]:16: warning: division by 'v.norm()', a norm that is zero when all the values are zero; add an epsilon or clamp it [torch-div-by-zero]
}

torch::Tensor inPlaceDivision(torch::Tensor x) {
  auto s = x.std();
  x.div_(s);
// CHECK-NOTES: :[[@LINE-1]]:10: warning: division by 's', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-3]]:12: note: 'x.std()' is computed here
  return x;
}

// Flow: protection on one path only.
torch::Tensor protectedOnOnePath(torch::Tensor x, bool careful) {
  auto s = x.std();
  if (careful)
    s.clamp_min_(1e-6);
  return x / s;
// CHECK-NOTES: :[[@LINE-1]]:14: warning: division by 's', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
// CHECK-NOTES: :[[@LINE-5]]:12: note: 'x.std()' is computed here
}

// Protected forms: no findings.
torch::Tensor withEps(torch::Tensor x, torch::Tensor target) {
  auto mask = (target > 0).to(torch::kFloat);
  auto a = (x - x.mean()) / (x.std() + 1e-5);
  auto b = x / mask.sum().clamp_min(1);
  auto c = x / x.norm().clamp(1e-12);
  auto d = x / (x.abs() + 1e-8);
  auto e = x / torch::clamp_min(mask.sum(), 1.0);
  auto f = x / torch::max(x.std(), torch::ones({}));
  auto g = x / torch::maximum(mask.mean(), torch::full({}, 1e-6));
  return a + b + c + d + e + f + g;
}

torch::Tensor withWhere(torch::Tensor x, torch::Tensor d) {
  auto n = torch::relu(d).sum();
  auto a = x / torch::where(n == 0, torch::ones_like(n), n);
  auto s = x.std();
  auto b = x / torch::where(s > 0, s, torch::ones_like(s));
  return a + b;
}

torch::Tensor clampedBefore(torch::Tensor x) {
  auto s = x.std();
  s.clamp_min_(1e-6);
  return x / s;
}

torch::Tensor guardedByItem(torch::Tensor x, torch::Tensor target) {
  auto mask = (target > 0).to(torch::kFloat);
  auto s = x.std();
  torch::Tensor a, b;
  if (s.item<float>() != 0)
    a = x / s;
  if (mask.sum().item<int>() > 0)
    b = x / mask.sum();
  return a + b;
}

torch::Tensor checkedByAny(torch::Tensor x, torch::Tensor labels) {
  if ((labels == 2).any().item<bool>())
    return x / (labels == 2).sum();
  return x;
}

torch::Tensor earlyReturn(torch::Tensor x, torch::Tensor labels) {
  auto count = (labels == 1).sum();
  if (count.item<int64_t>() == 0)
    return x;
  return x / count;
}

torch::Tensor checkedByTorchCheck(torch::Tensor x) {
  auto n = x.norm();
  TORCH_CHECK(n.item<double>() > 0, "zero vector");
  return x / n;
}

torch::Tensor allNonZero(torch::Tensor x, torch::Tensor d) {
  auto z = torch::relu(d).sum(0);
  if ((z != 0).all().item<bool>())
    return x / z;
  return x;
}

// Sums that are not flagged: unknown sign, strictly positive terms.
torch::Tensor softmaxByHand(torch::Tensor x) {
  auto e = torch::exp(x - x.max());
  auto a = e / e.sum();
  auto b = x / x.sum();
  auto c = x / torch::ones({3});
  return a + b + c;
}

torch::Tensor zeroFixedUp(torch::Tensor x, torch::Tensor labels) {
  auto count = (labels == 1).sum();
  if (count.item<int64_t>() == 0)
    count = torch::ones({});
  return x / count;
}

torch::Tensor partialWritesProtected(torch::Tensor features,
                                     torch::Tensor labels,
                                     torch::Tensor values) {
  auto counts = torch::zeros({10});
  counts.index_add_(0, labels, torch::ones({8}));
  auto signedSums = torch::zeros({10});
  signedSums.index_add_(0, labels, values);
  auto subtracted = torch::zeros({10});
  subtracted.index_add_(0, labels, torch::ones({8}), -1);
  auto smoothed = torch::ones({10});
  smoothed.index_add_(0, labels, torch::ones({8}));
  return features / counts.clamp_min(1) + features / signedSums +
         features / subtracted + features / smoothed +
         features / (counts + 1);
}

torch::Tensor signedAccumulator(std::vector<torch::Tensor> parts,
                                torch::Tensor x) {
  auto total = torch::zeros({});
  for (const auto &part : parts)
    total += part;
  return x / total;
}

torch::Tensor suppressed(torch::Tensor x) {
  return x / x.std(); // NOLINT(torch-div-by-zero)
}

torch::Tensor reassigned(torch::Tensor x) {
  auto s = x.std();
  s = s + 1e-6;
  auto v = x.var();
  v += 1e-6;
  return x / s + x / v;
}

// Lambdas and methods are analysed like functions.
struct Normaliser {
  torch::Tensor forward(torch::Tensor x) {
    auto scale = [](const torch::Tensor &v) { return v / v.norm(); };
// CHECK-NOTES: :[[@LINE-1]]:58: warning: division by 'v.norm()', a norm that is zero when all the values are zero; add an epsilon or clamp it [torch-div-by-zero]
    return scale(x) / (x.var() + 1e-5);
  }
};

torch::Tensor divisionByScalar(torch::Tensor x) {
  auto m = x.mean();
  return x / 2.0 + x / m;
}

template <typename T> torch::Tensor templated(torch::Tensor x, T eps) {
  return x / x.std();
// CHECK-NOTES: :[[@LINE-1]]:14: warning: division by 'x.std()', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
}
template torch::Tensor templated<float>(torch::Tensor, float);
