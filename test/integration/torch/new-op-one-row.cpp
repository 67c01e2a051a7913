// A LibTorch op whose traits are known needs one row of OpTraits.def and
// nothing else: `exp2` is named nowhere in the analyses, yet with its row
// every analysis treats it as it treats `exp`. Without the row, none of the
// findings below is made.
//
// REQUIRES: libtorch
// RUN: not grep -rn '"exp2"' %gpuguard_src/lib/Analysis/Torch --include=*.cpp --include=*.h
// RUN: grep -c '"exp2"' %gpuguard_src/lib/Analysis/Torch/OpTraits.def | FileCheck %s --check-prefix=ONE-ROW
// ONE-ROW: {{^1$}}
// RUN: %check_gpuguard %s torch-index-range,torch-div-by-zero %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s exp2_cast_to_index --expect=rejected --message="index out of range in self"
// RUN: %torch_run --binary=%t.bin %s exp2_clamped_before_cast --expect=accepted

#include <torch/torch.h>

#include "torch_scenarios.h"

// exp2's result is floating (TensorFacts): its cast to integers can be
// infinity, like exp's.
GPUGUARD_SCENARIO(exp2_cast_to_index) {
  torch::nn::Embedding emb(100, 16);
  auto scores = torch::full({8}, 200.0);
  auto ids = scores.exp2().to(torch::kLong);
  auto out = emb(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'ids' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
}

void exp_cast_to_index() {
  torch::nn::Embedding emb(100, 16);
  auto scores = torch::randn({8}) * 100;
  auto ids = scores.exp().to(torch::kLong);
  auto out = emb(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'ids' is cast from floating point with no check for NaN or infinity and no clamp, so it can be out of range for embedding 'emb' of 100 entries [torch-index-range]
}

GPUGUARD_SCENARIO(exp2_clamped_before_cast) {
  torch::nn::Embedding emb(100, 16);
  auto scores = torch::full({8}, 200.0);
  auto ids = scores.exp2().to(torch::kLong).clamp(0, 99);
  auto out = emb(ids);
}

// exp2's result is positive (TensorDenominatorAnalysis): a count scaled by
// it is still zero when the count is.
torch::Tensor masked_mean_scaled(torch::Tensor x, torch::Tensor lengths,
                                 torch::Tensor w) {
  auto mask = lengths > 0;
  return x.sum(1) / (mask.sum(1) * w.exp2());
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: division by 'mask.sum(1) * w.exp2()', computed from a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}

torch::Tensor masked_mean_scaled_exp(torch::Tensor x, torch::Tensor lengths,
                                     torch::Tensor w) {
  auto mask = lengths > 0;
  return x.sum(1) / (mask.sum(1) * w.exp());
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: division by 'mask.sum(1) * w.exp()', computed from a sum of non-negative values that is zero when all of them are; add an epsilon or clamp it [torch-div-by-zero]
}
