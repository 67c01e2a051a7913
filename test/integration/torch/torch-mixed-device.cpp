// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-mixed-device %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s add_cuda_and_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s add_same_device --expect=accepted
// RUN: %torch_run --binary=%t.bin %s options_cuda_and_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s runtime_device_choice --expect=accepted
// RUN: %torch_run --binary=%t.bin %s moved_with_cuda --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s moved_with_to_options --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s moved_to_other_device --expect=accepted
// RUN: %torch_run --binary=%t.bin %s in_place_add_cuda_and_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s op_result_with_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s like_factory_with_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s zero_dim_cpu_with_cuda --expect=accepted
// RUN: %torch_run --binary=%t.bin %s copy_from_cpu --expect=accepted
// RUN: %torch_run --binary=%t.bin %s mse_loss_cuda_and_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s cross_entropy_target_moved --expect=accepted
// RUN: %torch_run --binary=%t.bin %s l1_loss_module_cuda_and_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s bilinear_on_cpu_with_cuda_input --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s linear_on_cpu_with_cpu_input --expect=accepted
// RUN: %torch_run --binary=%t.bin %s net_on_cpu_with_cuda_input --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s net_on_cpu_with_cpu_input --expect=accepted
// RUN: %torch_run --binary=%t.bin %s both_branches_move --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s helper_returns_cpu --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s helper_follows_its_argument --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_on_a_cpu_argument --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s helper_adds_cpu_to_its_argument --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s helper_adds_cpu_to_a_cpu_argument --expect=accepted
// RUN: %torch_run --binary=%t.bin %s module_holder_adds_cpu_to_its_input --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s module_holder_adds_cpu_to_a_cpu_input --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_passes_its_argument_on --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s helper_passes_a_cpu_argument_on --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_passes_its_own_tensor_on --expect=accepted
// RUN: %torch_run --binary=%t.bin %s overloaded_forward_adds_cpu_to_its_input --expect=rejected --message="Expected all tensors to be on the same device"
// RUN: %torch_run --binary=%t.bin %s other_forward_overload_on_cuda --expect=accepted
// RUN: %torch_run --binary=%t.bin %s module_placed_by_its_constructor_on_cpu --expect=accepted

#include <torch/torch.h>

#include "torch_scenarios.h"

namespace F = torch::nn::functional;

GPUGUARD_SCENARIO(add_cuda_and_cpu) {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2});
  auto c = a + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'a' is on cuda and 'b' is on cpu in one 'add' [torch-mixed-device]
}

GPUGUARD_SCENARIO(add_same_device) {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2}).to(a.device());
  auto c = a + b;
}

GPUGUARD_SCENARIO(options_cuda_and_cpu) {
  auto options = torch::TensorOptions().device(torch::kCUDA);
  auto x = torch::zeros({2}, options);
  auto y = torch::ones({2}, torch::dtype(torch::kFloat).device(torch::kCPU));
  auto z = x * y;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and 'y' is on cpu in one 'mul' [torch-mixed-device]
}

GPUGUARD_SCENARIO(runtime_device_choice) {
  torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto a = torch::randn({2}, device);
  auto b = torch::randn({2});
  auto c = a + b;
}

GPUGUARD_SCENARIO(moved_with_cuda) {
  auto cpu = torch::randn({2, 3});
  auto gpu = cpu.cuda();
  auto sum = gpu + cpu;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'gpu' is on cuda and 'cpu' is on cpu in one 'add' [torch-mixed-device]
}

GPUGUARD_SCENARIO(moved_with_to_options) {
  auto cpu = torch::randn({2, 3});
  auto moved = cpu.to(torch::TensorOptions().device(torch::kCUDA));
  auto quotient = moved / cpu;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'moved' is on cuda and 'cpu' is on cpu in one 'div' [torch-mixed-device]
}

GPUGUARD_SCENARIO(moved_to_other_device) {
  auto gpu = torch::randn({2, 3}, torch::kCUDA);
  auto cpu = torch::randn({2, 3});
  auto followed = cpu.to(gpu.device());
  auto likeOther = cpu.to(gpu);
  auto sum = followed + likeOther + gpu;
}

GPUGUARD_SCENARIO(in_place_add_cuda_and_cpu) {
  auto p = torch::randn({2}, torch::kCUDA);
  auto q = torch::randn({2});
  p.add_(q);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'p' is on cuda and 'q' is on cpu in one 'add_' [torch-mixed-device]
}

GPUGUARD_SCENARIO(op_result_with_cpu) {
  auto a = torch::randn({4}, torch::kCUDA);
  auto b = torch::randn({4});
  auto h = a.exp() * 2;
  auto k = h.sigmoid() - b;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'h.sigmoid()' is on cuda and 'b' is on cpu in one 'sub' [torch-mixed-device]
}

GPUGUARD_SCENARIO(like_factory_with_cpu) {
  auto a = torch::randn({4}, torch::kCUDA);
  auto b = torch::randn({4});
  auto z = torch::zeros_like(a);
  auto w = z - b;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'z' is on cuda and 'b' is on cpu in one 'sub' [torch-mixed-device]
}

GPUGUARD_SCENARIO(zero_dim_cpu_with_cuda) {
  auto a = torch::randn({4}, torch::kCUDA);
  auto b = torch::randn({4});
  auto scaled = a * torch::tensor(2.0);
  auto centred = a - b.sum();
  auto weighted = a * b.mean().item<float>();
}

GPUGUARD_SCENARIO(copy_from_cpu) {
  auto gpu = torch::empty({2, 3}, torch::kCUDA);
  auto cpu = torch::randn({2, 3});
  gpu.copy_(cpu);
}

GPUGUARD_SCENARIO(mse_loss_cuda_and_cpu) {
  auto prediction = torch::randn({4}, torch::kCUDA);
  auto expected = torch::zeros({4});
  auto loss = torch::mse_loss(prediction, expected);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'prediction' is on cuda and 'expected' is on cpu in one 'mse_loss' [torch-mixed-device]
}

GPUGUARD_SCENARIO(cross_entropy_target_moved) {
  auto logits = torch::randn({4, 3}, torch::kCUDA);
  auto target = torch::randint(3, {4});
  auto loss = F::cross_entropy(logits, target.to(logits.device()));
}

GPUGUARD_SCENARIO(l1_loss_module_cuda_and_cpu) {
  auto prediction = torch::randn({4}, torch::kCUDA);
  auto expected = torch::zeros({4});
  torch::nn::L1Loss criterion;
  auto loss = criterion(prediction, expected);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'prediction' is on cuda and 'expected' is on cpu in one call of 'criterion' [torch-mixed-device]
}

// Meta kernels of 1.13 check devices for some modules only (Bilinear, not
// Linear); on CUDA every one of them rejects a CPU module's CUDA input.
GPUGUARD_SCENARIO(bilinear_on_cpu_with_cuda_input) {
  auto x = torch::randn({3, 4}, torch::kCUDA);
  torch::nn::Bilinear bilinear(4, 4, 2);
  auto y = bilinear(x, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x' is on cuda and the parameters of 'bilinear' are on cpu in one call of 'bilinear' [torch-mixed-device]
}

GPUGUARD_SCENARIO(linear_on_cpu_with_cpu_input) {
  auto x = torch::randn({3, 4});
  torch::nn::Linear fc(4, 2);
  auto y = fc(x);
}

struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    scale = register_parameter("scale", torch::ones({2}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * scale; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
};

GPUGUARD_SCENARIO(net_on_cpu_with_cuda_input) {
  auto x = torch::randn({3, 4}, torch::kCUDA);
  auto net = std::make_shared<Net>();
  auto out = net->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and the parameters of 'net' are on cpu in one call of 'net' [torch-mixed-device]
}

GPUGUARD_SCENARIO(net_on_cpu_with_cpu_input) {
  auto x = torch::randn({3, 4});
  auto net = std::make_shared<Net>();
  auto out = net->forward(x);
}

GPUGUARD_SCENARIO(both_branches_move) {
  auto b = torch::randn({2});
  auto u = torch::randn({2});
  if (torch::cuda::is_available())
    u = u.cuda();
  else
    u = u.to(torch::kCUDA);
  auto sum = u + b;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'u' is on cuda and 'b' is on cpu in one 'add' [torch-mixed-device]
}

// The commonest mixed-device bug in real models: a helper that makes its
// tensor on the CPU whatever its argument's device, added to a CUDA tensor.
static torch::Tensor positionsOf(const torch::Tensor &x) {
  return torch::arange(x.size(1), torch::kFloat);
}
GPUGUARD_SCENARIO(helper_returns_cpu) {
  auto x = torch::randn({2, 3}, torch::kCUDA);
  auto y = x + positionsOf(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and 'positionsOf(x)' is on cpu in one 'add' [torch-mixed-device]
}

static torch::Tensor positionsLike(const torch::Tensor &x) {
  return torch::arange(x.size(1), x.options());
}
GPUGUARD_SCENARIO(helper_follows_its_argument) {
  auto x = torch::randn({2, 3}, torch::kCUDA);
  auto y = x + positionsLike(x);
}

// The helper follows its argument, which is on the CPU here.
GPUGUARD_SCENARIO(helper_on_a_cpu_argument) {
  auto x = torch::randn({2, 3}, torch::kCUDA);
  auto cpu = torch::randn({2, 3});
  auto y = x + positionsLike(cpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and 'positionsLike(cpu)' is on cpu in one 'add' [torch-mixed-device]
}

// What a helper does with its argument: adds it to a CPU tensor of its own,
// on every path, so that every call must pass a CPU tensor. The finding is
// at the op, where PyTorch throws, and names the call.
static torch::Tensor addPositions(const torch::Tensor &x) {
  auto pos = torch::arange(x.size(1), torch::kFloat);
  return x + pos;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x' is on cuda and 'pos' is on cpu in one 'add' when 'addPositions' is called with 'batch' on cuda [torch-mixed-device]
  // FINDING-FOR: helper_adds_cpu_to_its_argument
}
GPUGUARD_SCENARIO(helper_adds_cpu_to_its_argument) {
  auto batch = torch::randn({2, 3}, torch::kCUDA);
  auto y = addPositions(batch);
}
GPUGUARD_SCENARIO(helper_adds_cpu_to_a_cpu_argument) {
  auto y = addPositions(torch::randn({2, 3}));
}

// The same through a module holder: `model(x)` runs the module's forward().
struct PositionalImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::arange(x.size(1), torch::kFloat);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and 'torch::arange(x.size(1), torch::kFloat)' is on cpu in one 'add' when 'forward' is called with 'batch' on cuda [torch-mixed-device]
    // FINDING-FOR: module_holder_adds_cpu_to_its_input
  }
};
TORCH_MODULE(Positional);
GPUGUARD_SCENARIO(module_holder_adds_cpu_to_its_input) {
  auto batch = torch::randn({2, 3}, torch::kCUDA);
  Positional model;
  auto y = model->forward(batch);
}
GPUGUARD_SCENARIO(module_holder_adds_cpu_to_a_cpu_input) {
  Positional model;
  auto y = model(torch::randn({2, 3}));
}

// Helpers of helpers: `embed` passes its argument to `shift`, which adds it
// to a CPU tensor of its own; each call of `embed`, or of `encode` that
// calls it, must pass a CPU tensor.
static torch::Tensor shift(const torch::Tensor &h) {
  return h - torch::arange(h.size(1), torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'h' is on cuda and 'torch::arange(h.size(1), torch::kFloat)' is on cpu in one 'sub' when 'encode' is called with 'tokens' on cuda [torch-mixed-device]
  // FINDING-FOR: helper_passes_its_argument_on
}
static torch::Tensor embed(const torch::Tensor &tokens) {
  auto h = tokens * 2;
  return shift(h);
}
static torch::Tensor encode(const torch::Tensor &tokens) {
  return embed(tokens);
}
static torch::Tensor embedOwn(const torch::Tensor &tokens) {
  return shift(torch::ones({2, 3})).sum() + tokens;
}
GPUGUARD_SCENARIO(helper_passes_its_argument_on) {
  auto tokens = torch::randn({2, 3}, torch::kCUDA);
  auto y = encode(tokens);
}
GPUGUARD_SCENARIO(helper_passes_a_cpu_argument_on) {
  auto y = encode(torch::randn({2, 3}));
}
GPUGUARD_SCENARIO(helper_passes_its_own_tensor_on) {
  auto tokens = torch::randn({2, 3}, torch::kCUDA);
  auto y = embedOwn(tokens);
}

// A module with two forward() overloads, called as `model->forward(...)`
// (LibTorch's holder cannot call an overloaded forward()): each call runs
// the overload it resolves to.
struct ShiftedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::arange(x.size(1), torch::kFloat);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' is on cuda and 'torch::arange(x.size(1), torch::kFloat)' is on cpu in one 'add' when 'forward' is called with 'batch' on cuda [torch-mixed-device]
    // FINDING-FOR: overloaded_forward_adds_cpu_to_its_input
  }
  torch::Tensor forward(torch::Tensor x, double scale) { return x * scale; }
};
TORCH_MODULE(Shifted);
GPUGUARD_SCENARIO(overloaded_forward_adds_cpu_to_its_input) {
  auto batch = torch::randn({2, 3}, torch::kCUDA);
  Shifted model;
  auto y = model->forward(batch);
}
GPUGUARD_SCENARIO(other_forward_overload_on_cuda) {
  auto batch = torch::randn({2, 3}, torch::kCUDA);
  Shifted model;
  auto y = model->forward(batch, 2.0);
}

// A module that moves itself, last in its constructor, to the device it is
// given: placed on the CPU and called with a CPU input, nothing to report.
// (LibTorch 1.13 cannot move a module to meta, so the positive, placed on
// CUDA, is in the lit test.)
struct PlacedImpl : torch::nn::Module {
  explicit PlacedImpl(torch::Device device) {
    fc = register_module("fc", torch::nn::Linear(3, 2));
    to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Placed);
GPUGUARD_SCENARIO(module_placed_by_its_constructor_on_cpu) {
  Placed model(torch::kCPU);
  auto y = model(torch::randn({2, 3}));
}
