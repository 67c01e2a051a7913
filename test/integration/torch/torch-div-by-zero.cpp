// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-div-by-zero %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s masked_mean_of_empty_mask --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s standardise_constant_data --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s standardise_batch_of_one --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s variance_of_constant_data --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s unit_vector_of_zero_vector --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s relu_share_of_negative_data --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s count_of_missing_class --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s integer_floor_division_by_count --expect=rejected --message="ZeroDivisionError"
// RUN: %torch_run --binary=%t.bin %s difference_with_itself --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s accumulated_relu_sums --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s in_place_division_by_std --expect=rejected --message="non-finite result"
// RUN: %torch_run --binary=%t.bin %s masked_mean_clamped --expect=accepted
// RUN: %torch_run --binary=%t.bin %s standardise_with_eps --expect=accepted
// RUN: %torch_run --binary=%t.bin %s unit_vector_clamped_in_place --expect=accepted
// RUN: %torch_run --binary=%t.bin %s relu_share_where_zero --expect=accepted
// RUN: %torch_run --binary=%t.bin %s count_checked_first --expect=accepted
// RUN: %torch_run --binary=%t.bin %s masked_sum_checked_by_item --expect=accepted
// RUN: %torch_run --binary=%t.bin %s softmax_by_hand --expect=accepted
// RUN: %torch_run --binary=%t.bin %s norm_checked_by_torch_check --expect=accepted
// RUN: %torch_run --binary=%t.bin %s std_checked_elementwise --expect=accepted

// Each positive divides by a denominator that is zero on its data, and
// PyTorch gives inf or NaN (or raises, for integers); each negative protects
// the same denominator and stays finite.
#include <torch/torch.h>
#include "torch_scenarios.h"

// Positives: each denominator is zero on this data.

GPUGUARD_SCENARIO(masked_mean_of_empty_mask) {
  auto loss = torch::rand({4});
  auto target = torch::zeros({4});
  auto mask = (target > 0).to(torch::kFloat);
  expectFinite((loss * mask).sum() / mask.sum());
// CHECK-MESSAGES: :[[@LINE-1]]:38: warning: division by 'mask.sum()', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(standardise_constant_data) {
  auto x = torch::full({4}, 2.0);
  expectFinite((x - x.mean()) / x.std());
// CHECK-MESSAGES: :[[@LINE-1]]:33: warning: division by 'x.std()', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
}

// A batch of one: the unbiased std over it is NaN, not zero; the runtime
// check counts NaN denominators too.
GPUGUARD_SCENARIO(standardise_batch_of_one) {
  auto x = torch::randn({1, 3});
  expectFinite(x / x.std(0));
// CHECK-MESSAGES: :[[@LINE-1]]:20: warning: division by 'x.std(0)', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
}

GPUGUARD_SCENARIO(variance_of_constant_data) {
  auto x = torch::full({4}, 3.0);
  auto v = x.var();
  expectFinite((x - 3) / v.sqrt());
// CHECK-MESSAGES: :[[@LINE-1]]:26: warning: division by 'v.sqrt()', computed from a variance that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
}

GPUGUARD_SCENARIO(unit_vector_of_zero_vector) {
  auto v = torch::zeros({3});
  expectFinite(v.div(v.norm()));
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: division by 'v.norm()', a norm that is zero when all the values are zero; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(relu_share_of_negative_data) {
  auto x = -torch::ones({3});
  auto r = torch::relu(x);
  expectFinite(r / r.sum());
// CHECK-MESSAGES: :[[@LINE-1]]:20: warning: division by 'r.sum()', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(count_of_missing_class) {
  auto labels = torch::zeros({4}, torch::kLong);
  auto total = torch::ones({});
  auto count = (labels == 3).sum();
  expectFinite(total / count);
// CHECK-MESSAGES: :[[@LINE-1]]:24: warning: division by 'count', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(integer_floor_division_by_count) {
  auto labels = torch::zeros({4}, torch::kLong);
  auto total = torch::ones({}, torch::kLong);
  auto count = (labels == 3).sum();
  expectFinite(total.floor_divide(count));
// CHECK-MESSAGES: :[[@LINE-1]]:35: warning: division by 'count', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(difference_with_itself) {
  auto x = torch::ones({3});
  auto y = torch::rand({3});
  expectFinite(x / (y - y));
// CHECK-MESSAGES: :[[@LINE-1]]:21: warning: division by 'y - y', which is zero everywhere [torch-div-by-zero]
}

GPUGUARD_SCENARIO(accumulated_relu_sums) {
  std::vector<torch::Tensor> parts = {-torch::ones({2}), -torch::ones({2})};
  auto total = torch::zeros({});
  for (const auto &part : parts)
    total += torch::relu(part).sum();
  expectFinite(torch::ones({2}) / total);
// CHECK-MESSAGES: :[[@LINE-1]]:35: warning: division by 'total', a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

GPUGUARD_SCENARIO(in_place_division_by_std) {
  auto x = torch::full({4}, 5.0);
  auto s = x.std();
  x.div_(s);
// CHECK-MESSAGES: :[[@LINE-1]]:10: warning: division by 's', a standard deviation that is zero when all the values are equal and NaN over a single value; add an epsilon for the first and keep two or more values (or pass unbiased=false) for the second [torch-div-by-zero]
  expectFinite(x);
}

// Negatives: the same data, protected.

GPUGUARD_SCENARIO(masked_mean_clamped) {
  auto loss = torch::rand({4});
  auto target = torch::zeros({4});
  auto mask = (target > 0).to(torch::kFloat);
  expectFinite((loss * mask).sum() / mask.sum().clamp_min(1));
}

GPUGUARD_SCENARIO(standardise_with_eps) {
  auto x = torch::full({4}, 2.0);
  expectFinite((x - x.mean()) / (x.std() + 1e-5));
}

GPUGUARD_SCENARIO(unit_vector_clamped_in_place) {
  auto v = torch::zeros({3});
  auto n = v.norm();
  n.clamp_min_(1e-12);
  expectFinite(v / n);
}

GPUGUARD_SCENARIO(relu_share_where_zero) {
  auto x = -torch::ones({3});
  auto r = torch::relu(x);
  auto s = r.sum();
  expectFinite(r / torch::where(s == 0, torch::ones_like(s), s));
}

GPUGUARD_SCENARIO(count_checked_first) {
  auto labels = torch::zeros({4}, torch::kLong);
  auto total = torch::ones({});
  auto count = (labels == 3).sum();
  if (count.item<int64_t>() == 0)
    return;
  expectFinite(total / count);
}

GPUGUARD_SCENARIO(masked_sum_checked_by_item) {
  auto loss = torch::rand({4});
  auto mask = (torch::zeros({4}) > 0).to(torch::kFloat);
  auto result = torch::zeros({});
  if (mask.sum().item<float>() > 0)
    result = (loss * mask).sum() / mask.sum();
  expectFinite(result);
}

GPUGUARD_SCENARIO(softmax_by_hand) {
  auto x = torch::full({4}, 2.0);
  auto e = torch::exp(x - x.max());
  expectFinite(e / e.sum());
}

GPUGUARD_SCENARIO(norm_checked_by_torch_check) {
  auto v = torch::ones({3});
  auto n = v.norm();
  TORCH_CHECK(n.item<float>() > 0, "zero vector");
  expectFinite(v / n);
}

GPUGUARD_SCENARIO(std_checked_elementwise) {
  auto x = torch::full({2, 3}, 2.0);
  auto s = x.std(0);
  auto y = torch::zeros_like(x);
  if ((s != 0).all().item<bool>())
    y = (x - x.mean(0)) / s;
  expectFinite(y);
}
