// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-inplace-autograd %t -- -- %torch_flags
// RUN: %torch_run --binary=%t.bin %s leaf_from_options --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s leaf_from_set_requires_grad --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s leaf_from_requires_grad_underscore --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s registered_parameter --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s module_parameters --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s leaf_element_assigned --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s grad_mode_enabled_again --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s self_saved_by_mul --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s self_saved_by_pow --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s self_saved_by_log --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s result_saved_by_sigmoid --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s result_saved_by_exp --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s result_saved_by_tanh --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s result_saved_by_relu --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s result_saved_by_softmax --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s view_of_saved --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s saved_written_without_grad --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s other_operand_saved --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s saved_in_earlier_iteration --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s helper_result_backpropagated --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s functional_relu_inplace_option --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s module_relu_inplace_option --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s write_through_detach --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s functional_relu_out_of_place --expect=accepted
// RUN: %torch_run --binary=%t.bin %s recurrent_state_noise --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s normalise_exp_in_place --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s masked_fill_softmax_output --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s leaf_under_no_grad --expect=accepted
// RUN: %torch_run --binary=%t.bin %s leaf_under_grad_mode_off --expect=accepted
// RUN: %torch_run --binary=%t.bin %s clone_and_detach_of_leaf --expect=accepted
// RUN: %torch_run --binary=%t.bin %s inplace_before_save --expect=accepted
// RUN: %torch_run --binary=%t.bin %s clamp_before_log --expect=accepted
// RUN: %torch_run --binary=%t.bin %s clone_of_saved --expect=accepted
// RUN: %torch_run --binary=%t.bin %s no_backward_afterwards --expect=accepted
// RUN: %torch_run --binary=%t.bin %s backward_before_inplace --expect=accepted
// RUN: %torch_run --binary=%t.bin %s add_saves_nothing --expect=accepted
// RUN: %torch_run --binary=%t.bin %s backward_each_iteration --expect=accepted
// RUN: %torch_run --binary=%t.bin %s training_loop --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_result_not_backpropagated --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_inference_without_no_grad --expect=accepted
// RUN: %torch_run --binary=%t.bin %s leaf_from_helper --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s helper_result_saved_by_sigmoid --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s helper_leaf_under_no_grad --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_result_saved_by_nothing --expect=accepted
// RUN: %torch_run --binary=%t.bin %s sub_module_output_saved_by_sigmoid --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s sub_module_output_cloned --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_writes_leaf_argument --expect=rejected --message="leaf Variable that requires grad"
// RUN: %torch_run --binary=%t.bin %s helper_writes_saved_argument --expect=rejected --message="modified by an inplace operation"
// RUN: %torch_run --binary=%t.bin %s helper_writes_argument_under_no_grad --expect=accepted
// RUN: %torch_run --binary=%t.bin %s helper_writes_a_copy --expect=accepted

// Each positive is an in-place write PyTorch's autograd rejects: into a leaf
// that requires grad (raised at the write), or into a tensor an op saved for
// backward (raised by backward()). Each negative is a near twin it accepts.
// A SAVED-FOR-BACKWARD marker is on the line of the op that saved the tensor
// a positive writes to: the instrumented build must name it there. A write
// in a helper that no backward() follows is no finding; its ALL-ONLY-FINDING
// marker names the positives that run backward() through it, which only the
// --instrument=all build reports.
#include <torch/torch.h>
#include "torch_scenarios.h"

struct Affine : torch::nn::Module {
  Affine() { scale = register_parameter("scale", torch::ones({3})); }
  torch::Tensor scale;
};

/// Writes to a tensor sigmoid saved: fine unless the caller runs backward()
/// through the result.
torch::Tensor scaledSigmoidSum(bool grad) {
  auto x = torch::randn({3}, torch::requires_grad(grad));
  auto y = torch::sigmoid(x); // SAVED-FOR-BACKWARD: sigmoid
  y.mul_(2); // ALL-ONLY-FINDING: helper_result_backpropagated
  return y.sum();
}

// Positives.

GPUGUARD_SCENARIO(leaf_from_options) {
  auto w = torch::randn({3}, torch::requires_grad());
  w.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(leaf_from_set_requires_grad) {
  auto w = torch::zeros({3});
  w.set_requires_grad(true);
  w += 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(leaf_from_requires_grad_underscore) {
  auto w = torch::rand({3}).requires_grad_();
  torch::relu_(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'relu_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(registered_parameter) {
  Affine net;
  net.scale.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'scale', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(module_parameters) {
  torch::nn::Linear linear(3, 2);
  for (auto &p : linear->parameters())
    p.mul_(0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'p', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(leaf_element_assigned) {
  auto w = torch::randn({3}, torch::TensorOptions().requires_grad(true));
  w[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'fill_' on a view of 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(grad_mode_enabled_again) {
  auto w = torch::randn({3}, torch::requires_grad());
  torch::AutoGradMode enabled(true);
  w.sub_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'sub_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(self_saved_by_mul) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y * y; // SAVED-FOR-BACKWARD: mul
  y.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  z.sum().backward();
}

GPUGUARD_SCENARIO(self_saved_by_pow) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y.pow(2); // SAVED-FOR-BACKWARD: pow
  y.mul_(3);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'pow' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  z.sum().backward();
}

GPUGUARD_SCENARIO(self_saved_by_log) {
  auto w = torch::rand({3}, torch::requires_grad());
  auto y = w + 1;
  auto z = torch::log(y); // SAVED-FOR-BACKWARD: log
  y.clamp_min_(1e-6);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'clamp_min_' modifies 'y', which 'log' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  z.sum().backward();
}

GPUGUARD_SCENARIO(result_saved_by_sigmoid) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w); // SAVED-FOR-BACKWARD: sigmoid
  y.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(result_saved_by_exp) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.exp(); // SAVED-FOR-BACKWARD: exp
  y += 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(result_saved_by_tanh) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.tanh(); // SAVED-FOR-BACKWARD: tanh
  y[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'fill_' modifies a view of 'y', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(result_saved_by_relu) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::relu(w); // SAVED-FOR-BACKWARD: relu
  torch::relu_(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'relu_' modifies 'y', which 'relu' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(result_saved_by_softmax) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.softmax(0); // SAVED-FOR-BACKWARD: softmax
  y.div_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'div_' modifies 'y', which 'softmax' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  (y * y).sum().backward();
}

GPUGUARD_SCENARIO(view_of_saved) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w); // SAVED-FOR-BACKWARD: sigmoid
  auto v = y.view({3});
  v.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'zero_' modifies a view of 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(saved_written_without_grad) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w); // SAVED-FOR-BACKWARD: sigmoid
  {
    torch::NoGradGuard noGrad;
    y.mul_(2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  }
  y.sum().backward();
}

GPUGUARD_SCENARIO(other_operand_saved) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto x = torch::randn({3});
  auto y = torch::sigmoid(x * w); // SAVED-FOR-BACKWARD: mul
  x.mul_(0.9);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'x', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(saved_in_earlier_iteration) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto h = w * 2;
  auto loss = torch::zeros({1});
  for (int i = 0; i < 3; ++i) {
    h.add_(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' modifies 'h', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
    loss = loss + (h * h).sum(); // SAVED-FOR-BACKWARD: mul
  }
  loss.backward();
}

GPUGUARD_SCENARIO(helper_result_backpropagated) {
  auto s = scaledSigmoidSum(true);
  s.backward();
}

GPUGUARD_SCENARIO(functional_relu_inplace_option) {
  namespace F = torch::nn::functional;
  auto w = torch::randn({3}, torch::requires_grad());
  auto s = torch::sigmoid(w); // SAVED-FOR-BACKWARD: sigmoid
  auto r = F::relu(s, F::ReLUFuncOptions().inplace(true));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: in-place 'relu_' modifies 's', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  r.sum().backward();
}

GPUGUARD_SCENARIO(module_relu_inplace_option) {
  torch::nn::ReLU relu(torch::nn::ReLUOptions().inplace(true));
  auto w = torch::randn({3}, torch::requires_grad());
  auto h = torch::tanh(w); // SAVED-FOR-BACKWARD: tanh
  auto r = relu(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: in-place 'relu_' modifies 'h', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  r.sum().backward();
}

GPUGUARD_SCENARIO(write_through_detach) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w); // SAVED-FOR-BACKWARD: sigmoid
  y.detach().zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'zero_' modifies a view of 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

// Noise added in place to a recurrent state that tanh saved.
GPUGUARD_SCENARIO(recurrent_state_noise) {
  auto w = torch::randn({3, 3}, torch::requires_grad());
  auto h = torch::zeros({3});
  for (int t = 0; t < 3; ++t) {
    h = torch::tanh(torch::matmul(w, h) + 1); // SAVED-FOR-BACKWARD: tanh
    h += torch::randn({3}) * 0.1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' modifies 'h', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  }
  h.sum().backward();
}

// A softmax by hand, normalised in place.
GPUGUARD_SCENARIO(normalise_exp_in_place) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto e = torch::exp(w); // SAVED-FOR-BACKWARD: exp
  e /= e.sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'div_' modifies 'e', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  e.sum().backward();
}

// Small probabilities zeroed in place after softmax saved its output.
GPUGUARD_SCENARIO(masked_fill_softmax_output) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto p = torch::softmax(w, 0); // SAVED-FOR-BACKWARD: softmax
  p.masked_fill_(p < 0.1, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'masked_fill_' modifies 'p', which 'softmax' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  (p * torch::arange(3)).sum().backward();
}

// Negatives.

GPUGUARD_SCENARIO(leaf_under_no_grad) {
  auto w = torch::randn({3}, torch::requires_grad());
  torch::NoGradGuard noGrad;
  w.add_(1);
}

GPUGUARD_SCENARIO(leaf_under_grad_mode_off) {
  torch::nn::Linear linear(3, 2);
  torch::AutoGradMode disabled(false);
  for (auto &p : linear->parameters())
    p.mul_(0.5);
}

GPUGUARD_SCENARIO(clone_and_detach_of_leaf) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto c = w.clone();
  c.add_(1);
  auto d = w.detach();
  d.zero_();
  auto f = torch::randn({3});
  f.add_(1);
}

GPUGUARD_SCENARIO(functional_relu_out_of_place) {
  namespace F = torch::nn::functional;
  auto w = torch::randn({3}, torch::requires_grad());
  auto s = torch::sigmoid(w);
  auto r = F::relu(s, F::ReLUFuncOptions().inplace(false));
  r.sum().backward();
}

GPUGUARD_SCENARIO(inplace_before_save) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  y.add_(1);
  auto z = y.sigmoid();
  z.sum().backward();
}

GPUGUARD_SCENARIO(clamp_before_log) {
  auto w = torch::rand({3}, torch::requires_grad());
  auto y = w * 2;
  y.clamp_(1e-6);
  auto z = y.log();
  z.sum().backward();
}

GPUGUARD_SCENARIO(clone_of_saved) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  auto c = y.clone();
  c.add_(1);
  auto m = y.cpu().mean();
  m.add_(1);
  y.sum().backward();
}

GPUGUARD_SCENARIO(no_backward_afterwards) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.mul_(2);
}

GPUGUARD_SCENARIO(backward_before_inplace) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.sum().backward();
  y.mul_(2);
}

GPUGUARD_SCENARIO(add_saves_nothing) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y + w;
  y.add_(1);
  z.sum().backward();
}

GPUGUARD_SCENARIO(backward_each_iteration) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto x = torch::randn({3});
  for (int i = 0; i < 3; ++i) {
    auto y = torch::sigmoid(x * w);
    y.sum().backward();
    x.mul_(0.9);
  }
}

GPUGUARD_SCENARIO(training_loop) {
  torch::nn::Linear linear(3, 1);
  auto w = torch::randn({3}, torch::requires_grad());
  torch::optim::SGD optimizer(linear->parameters(), 0.1);
  auto x = torch::randn({4, 3});
  auto target = torch::randn({4, 1});
  for (int i = 0; i < 3; ++i) {
    optimizer.zero_grad();
    auto loss = (linear(x * w).sigmoid() - target).pow(2).mean();
    loss.backward();
    optimizer.step();
    {
      torch::NoGradGuard noGrad;
      w.sub_(0.1 * w.grad());
      w.grad().zero_();
    }
  }
}

GPUGUARD_SCENARIO(helper_result_not_backpropagated) {
  auto s = scaledSigmoidSum(true);
  std::printf("%d\n", static_cast<int>(s.requires_grad()));
}

GPUGUARD_SCENARIO(helper_inference_without_no_grad) {
  auto s = scaledSigmoidSum(false);
  std::printf("%d\n", static_cast<int>(s.requires_grad()));
}

// Across calls: what a function of the file returns.

torch::Tensor makeWeights(int64_t n) {
  return torch::randn({n}, torch::requires_grad());
}

torch::Tensor doubledWeights(int64_t n) { return makeWeights(n) * 2; }

GPUGUARD_SCENARIO(leaf_from_helper) {
  auto w = makeWeights(3);
  w.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(helper_result_saved_by_sigmoid) {
  auto y = torch::sigmoid(doubledWeights(3)); // SAVED-FOR-BACKWARD: sigmoid
  y.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(helper_leaf_under_no_grad) {
  torch::NoGradGuard noGrad;
  auto w = makeWeights(3);
  w.add_(1);
}

GPUGUARD_SCENARIO(helper_result_saved_by_nothing) {
  // A scalar factor is all mul saves: the product may be written.
  auto s = doubledWeights(3);
  s.add_(1);
  s.sum().backward();
}

// A module whose forward() returns what sigmoid saved for backward.
struct GateImpl : torch::nn::Module {
  GateImpl() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor x) {
    return torch::sigmoid(fc(x)); // SAVED-FOR-BACKWARD: sigmoid for sub_module_output_saved_by_sigmoid
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Gate);

GPUGUARD_SCENARIO(sub_module_output_saved_by_sigmoid) {
  Gate gate;
  auto g = gate(torch::randn({2, 3}));
  g.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'g', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  g.sum().backward();
}

GPUGUARD_SCENARIO(sub_module_output_cloned) {
  Gate gate;
  auto g = gate(torch::randn({2, 3})).clone();
  g.add_(1);
  g.sum().backward();
}

// A function that writes its argument in place on every path: a by-value
// tensor shares its storage with the caller's.
void scaleInPlace(torch::Tensor t) { t.mul_(2); }

GPUGUARD_SCENARIO(helper_writes_leaf_argument) {
  auto w = torch::randn({3}, torch::requires_grad());
  scaleInPlace(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

GPUGUARD_SCENARIO(helper_writes_saved_argument) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::exp(w); // SAVED-FOR-BACKWARD: exp
  scaleInPlace(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  y.sum().backward();
}

GPUGUARD_SCENARIO(helper_writes_argument_under_no_grad) {
  auto w = torch::randn({3}, torch::requires_grad());
  {
    torch::NoGradGuard noGrad;
    scaleInPlace(w);
  }
}

GPUGUARD_SCENARIO(helper_writes_a_copy) {
  auto w = torch::randn({3}, torch::requires_grad());
  scaleInPlace(w.detach().clone());
}
