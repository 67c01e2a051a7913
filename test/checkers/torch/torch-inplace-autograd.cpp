// RUN: %check_gpuguard %s torch-inplace-autograd %t -- -- %torch_mock_flags

#include <torch/torch.h>

// ---- Leaves that require grad ------------------------------------------------

void leafFromFactoryOption() {
  auto w = torch::randn({3}, torch::requires_grad());
  w.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'w' is made to require grad here
}

void leafFromOptionsObject() {
  auto w = torch::zeros({3}, torch::TensorOptions().requires_grad(true));
  w.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'w' is made to require grad here
}

void leafFromSetRequiresGrad() {
  auto w = torch::ones({3});
  w.set_requires_grad(true);
  w.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'zero_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'w' is made to require grad here
}

void leafFromRequiresGradUnderscore() {
  auto w = torch::rand({3}).requires_grad_();
  w.fill_(0.5);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'fill_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'w' is made to require grad here
}

void leafTemporary() {
  torch::randn({3}, torch::requires_grad()).add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' on a temporary tensor, a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: the tensor is made to require grad here
}

struct Net : torch::nn::Module {
  Net() { w = register_parameter("w", torch::randn({3})); }
  void reset() { w.uniform_(); }
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: in-place 'uniform_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'w' is made to require grad here
  void resetWithoutGrad() {
    torch::NoGradGuard noGrad;
    w.uniform_();
  }
  torch::Tensor w;
};

void registeredParameter(Net &net) {
  auto &p = net.register_parameter("b", torch::zeros({3}));
  p.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'p', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: 'p' is made to require grad here
  net.w.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-18]]:15: note: 'w' is made to require grad here
  auto &buffer = net.register_buffer("running", torch::zeros({3}));
  buffer.add_(1);
}

void moduleParameters(torch::nn::Linear &linear) {
  for (auto &p : linear->parameters())
    p.mul_(0.5);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'p', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:18: note: 'p' is made to require grad here
  linear->weight.clamp_(-1, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'clamp_' on 'weight', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  {
    torch::NoGradGuard noGrad;
    for (auto &p : linear->parameters())
      p.mul_(0.5);
    linear->weight.clamp_(-1, 1);
  }
  linear->bias.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'zero_' on 'bias', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
}

void autoGradMode() {
  auto w = torch::randn({3}, torch::requires_grad());
  {
    torch::AutoGradMode disabled(false);
    w.add_(1);
  }
  {
    torch::AutoGradMode enabled(true);
    w.sub_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'sub_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-9]]:30: note: 'w' is made to require grad here
  }
}

void compoundAssignmentAndIndexing() {
  auto w = torch::randn({3}, torch::requires_grad());
  w += 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'w' is made to require grad here
  w[0] = 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'fill_' on a view of 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-6]]:30: note: 'w' is made to require grad here
  torch::relu_(w);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'relu_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-9]]:30: note: 'w' is made to require grad here
}

void leafNegatives() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto c = w.clone();
  c.add_(1);
  auto d = w.detach();
  d.zero_();
  auto f = torch::randn({3});
  f.add_(1);
  auto g = torch::randn({3}, torch::requires_grad(false));
  g.add_(1);
  auto h = w * 2;
  h.add_(1);
  auto u = torch::ones({3});
  u.set_requires_grad(true);
  u.set_requires_grad(false);
  u.zero_();
}

// ---- Tensors saved for backward ----------------------------------------------

void savedSelfByMul() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y * y;
  y.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'mul' here
  z.sum().backward();
}

void savedSelfByPow() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y.pow(2);
  y.mul_(3);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'pow' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'pow' here
  z.sum().backward();
}

void savedSelfByLog() {
  auto w = torch::rand({3}, torch::requires_grad());
  auto y = w + 1;
  auto z = torch::log(y);
  y.clamp_min_(1e-6);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'clamp_min_' modifies 'y', which 'log' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'log' here
  z.sum().backward();
}

void savedResultBySigmoid() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

void savedResultByExp() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.exp();
  y += 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'exp' here
  y.sum().backward();
}

void savedResultByTanh() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.tanh();
  y[0] = 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'fill_' modifies a view of 'y', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'tanh' here
  y.sum().backward();
}

void savedResultByRelu() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::relu(w);
  torch::relu_(y);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'relu_' modifies 'y', which 'relu' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'relu' here
  y.sum().backward();
}

void savedResultBySoftmax() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w.softmax(0);
  y.div_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'div_' modifies 'y', which 'softmax' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'softmax' here
  (y * y).sum().backward();
}

void savedViewAndReference() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  auto v = y.view({3});
  v.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'zero_' modifies a view of 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'y' was saved for backward by 'sigmoid' here
  auto &r = y;
  r.masked_fill_(y > 0.5, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'masked_fill_' modifies a view of 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

void savedThenWrittenWithoutGrad() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  {
    torch::NoGradGuard noGrad;
    y.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-5]]:12: note: 'y' was saved for backward by 'sigmoid' here
  }
  y.sum().backward();
}

void savedOtherOperand(torch::Tensor x) {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(x * w);
  x.mul_(0.9);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'x', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:27: note: 'x' was saved for backward by 'mul' here
  y.sum().backward();
}

void savedInEarlierIteration() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto h = w * 2;
  auto loss = torch::zeros({1});
  for (int i = 0; i < 3; ++i) {
    h.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'add_' modifies 'h', which 'mul' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE+1]]:20: note: 'h' was saved for backward by 'mul' here
    loss = loss + (h * h).sum();
  }
  loss.backward();
}

// ---- Silent: what autograd accepts ---------------------------------------------

void inplaceBeforeSave() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  y.add_(1);
  auto z = y.sigmoid();
  z.sum().backward();
}

void clampBeforeLog() {
  auto w = torch::rand({3}, torch::requires_grad());
  auto y = w * 2;
  y.clamp_(1e-6);
  auto z = y.log();
  z.sum().backward();
}

void cloneOfSaved() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  auto c = y.clone();
  c.add_(1);
  auto m = y.cpu().mean().cuda();
  m.add_(1);
  y.sum().backward();
}

torch::Tensor noBackwardAfterwards() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.mul_(2);
  return y;
}

void backwardBeforeInplace() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.sum().backward();
  y.mul_(2);
}

void addSavesNothing() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y + w;
  y.add_(1);
  z.sum().backward();
}

void scalarOperandSavesNothing() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = w * 2;
  auto z = y * 3;
  y.add_(1);
  z.sum().backward();
}

void unknownTensorsStaySilent(torch::Tensor a, torch::Tensor b) {
  auto y = torch::sigmoid(a);
  y.mul_(2);
  auto z = a * b;
  a.add_(1);
  z.sum().backward();
}

void backwardEachIteration() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto x = torch::randn({3});
  for (int i = 0; i < 3; ++i) {
    auto y = torch::sigmoid(x * w);
    y.sum().backward();
    x.mul_(0.9);
  }
}

void trainingLoop(torch::Tensor x, torch::Tensor target) {
  auto w = torch::randn({3}, torch::requires_grad());
  for (int i = 0; i < 10; ++i) {
    auto loss = ((x * w).sigmoid() - target).pow(2).sum();
    loss.backward();
    {
      torch::NoGradGuard noGrad;
      w.sub_(0.1 * w.grad());
      w.grad().zero_();
    }
  }
}

void suppressed() {
  auto w = torch::randn({3}, torch::requires_grad());
  w.add_(1); // NOLINT(torch-inplace-autograd)
}

// ---- A module's forward(): the caller runs backward() ------------------------

struct ResidualImpl : torch::nn::Module {
  explicit ResidualImpl(int64_t dim)
      : inner(register_module("inner", torch::nn::Linear(dim, dim))),
        outer(register_module("outer", torch::nn::Linear(dim, dim))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::relu(inner(x));
    h += x;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'add_' modifies 'h', which 'relu' saved for backward; a backward() through the result of this module's forward() will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'h' was saved for backward by 'relu' here
    return outer(h);
  }

  torch::nn::Linear inner, outer;
};
TORCH_MODULE(Residual);

// Unregistered members and `->forward(...)` hold parameters all the same.
struct ArrowForwardImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto h = torch::sigmoid(inner->forward(x));
    h.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'mul_' modifies 'h', which 'sigmoid' saved for backward; a backward() through the result of this module's forward() will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'h' was saved for backward by 'sigmoid' here
    return h;
  }
  torch::nn::Linear inner{4, 4};
};

// A user module with a registered parameter, used as a submodule.
struct ScaleImpl : torch::nn::Module {
  ScaleImpl() { scale = register_parameter("scale", torch::ones({1})); }
  torch::Tensor forward(const torch::Tensor &x) { return x * scale; }
  torch::Tensor scale;
};
TORCH_MODULE(Scale);

struct ScaledTanhImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::tanh(scale(x));
    h.clamp_(-0.5, 0.5);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'clamp_' modifies 'h', which 'tanh' saved for backward; a backward() through the result of this module's forward() will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'h' was saved for backward by 'tanh' here
    return h;
  }
  Scale scale;
};

struct ResidualOutOfPlaceImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::relu(inner(x));
    h = h + x;
    return outer(h);
  }
  torch::nn::Linear inner{4, 4}, outer{4, 4};
};

struct ResidualNoWriteImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    const auto h = torch::relu(inner(x));
    return x + outer(h);
  }
  torch::nn::Linear inner{4, 4}, outer{4, 4};
};

// ReLU holds no parameters, and nothing says that x requires grad.
struct ParameterFreeImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::sigmoid(act(x));
    h.mul_(2);
    return h;
  }
  torch::nn::ReLU act;
};

struct NoGradForwardImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    torch::NoGradGuard noGrad;
    auto h = torch::relu(inner(x));
    h += x;
    return h;
  }
  torch::nn::Linear inner{4, 4};
};

// Not a module: the forward() of a plain class and a helper function build a
// graph with no backward() in sight.
struct NotAModule {
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::relu(inner(x));
    h += x;
    return h;
  }
  torch::nn::Linear inner{4, 4};
};

torch::Tensor residualHelper(torch::nn::Linear &inner, const torch::Tensor &x) {
  auto h = torch::relu(inner(x));
  h += x;
  return h;
}

// A module's output requires grad: a backward() in the same function fails.
void moduleOutputInTrainingStep(torch::nn::Linear &layer, torch::Tensor x) {
  auto y = torch::sigmoid(layer(x));
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

void moduleOutputUnderNoGrad(torch::nn::Linear &layer, torch::Tensor x) {
  auto w = torch::randn({4}, torch::requires_grad());
  torch::Tensor y;
  {
    torch::NoGradGuard noGrad;
    y = torch::sigmoid(layer(x));
  }
  y.mul_(2);
  (y * w).sum().backward();
}

// ---- In place through options ------------------------------------------------

namespace F = torch::nn::functional;

void functionalReluInPlaceAfterSigmoid() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto s = torch::sigmoid(w);
  auto r = F::relu(s, F::ReLUFuncOptions().inplace(true));
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: in-place 'relu_' modifies 's', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 's' was saved for backward by 'sigmoid' here
  r.sum().backward();
}

void functionalOptionsInALocal() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto s = torch::tanh(w);
  auto options = F::LeakyReLUFuncOptions().negative_slope(0.1).inplace(true);
  auto r = F::leaky_relu(s, options);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: in-place 'leaky_relu_' modifies 's', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 's' was saved for backward by 'tanh' here
  F::detail::relu(s, true);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'relu_' modifies 's', which 'leaky_relu' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 's' was saved for backward by 'leaky_relu' here
  r.sum().backward();
}

void functionalOutOfPlace() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto s = torch::sigmoid(w);
  auto a = F::relu(s);
  auto b = F::relu(s, F::ReLUFuncOptions().inplace(false));
  auto c = F::relu(s, F::ReLUFuncOptions().inplace(true).inplace(false));
  auto d = F::dropout(s, F::DropoutFuncOptions().p(0.2));
  (a + b + c + d).sum().backward();
}

void moduleBuiltInPlaceAfterTanh() {
  auto w = torch::randn({3}, torch::requires_grad());
  torch::nn::ReLU relu(torch::nn::ReLUOptions().inplace(true));
  torch::nn::ReLU plain;
  auto h = torch::tanh(w);
  auto kept = plain(h);
  auto r = relu(h);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: in-place 'relu_' modifies 'h', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'h' was saved for backward by 'tanh' here
  (r + kept).sum().backward();
}

// A member built in place, called in forward() after a saving op.
struct TanhThenReluImpl : torch::nn::Module {
  TanhThenReluImpl()
      : act(register_module(
            "act", torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)))) {
    drop = register_module(
        "drop", torch::nn::Dropout(torch::nn::DropoutOptions(0.1).inplace(true)));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = torch::tanh(inner(x));
    h = act->forward(h);
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: in-place 'relu_' modifies 'h', which 'tanh' saved for backward; a backward() through the result of this module's forward() will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'h' was saved for backward by 'tanh' here
    auto g = torch::sigmoid(h);
    return drop(g);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: in-place 'dropout_' modifies 'g', which 'sigmoid' saved for backward; a backward() through the result of this module's forward() will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'g' was saved for backward by 'sigmoid' here
  }
  torch::nn::Linear inner{4, 4};
  torch::nn::ReLU act{nullptr};
  torch::nn::Dropout drop{nullptr};
};

// ---- Writes through detach() ---------------------------------------------------

void detachSharesTheSavedStorage() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto y = torch::sigmoid(w);
  y.detach().zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'zero_' modifies a view of 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

// A leaf's detached copy may be written: that is how weights are reset.
void detachOfALeaf() {
  auto w = torch::randn({3}, torch::requires_grad());
  w.detach().zero_();
  auto d = w.detach();
  d.add_(1);
  (w * 2).sum().backward();
}

// ---- Shapes users report most often ----------------------------------------------

void recurrentStateNoise(torch::Tensor x) {
  auto w = torch::randn({3, 3}, torch::requires_grad());
  auto h = torch::zeros({3});
  for (int t = 0; t < 4; ++t) {
    h = torch::tanh(torch::matmul(w, h) + x);
    h += torch::randn({3}) * 0.1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in-place 'add_' modifies 'h', which 'tanh' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
    // CHECK-NOTES: :[[@LINE-3]]:9: note: 'h' was saved for backward by 'tanh' here
  }
  h.sum().backward();
}

void recurrentStateNoiseOutOfPlace(torch::Tensor x) {
  auto w = torch::randn({3, 3}, torch::requires_grad());
  auto h = torch::zeros({3});
  for (int t = 0; t < 4; ++t) {
    h = torch::tanh(torch::matmul(w, h) + x);
    h = h + torch::randn({3}) * 0.1;
  }
  h.sum().backward();
}

void normaliseExpInPlace() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto e = torch::exp(w);
  e /= e.sum();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'div_' modifies 'e', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'e' was saved for backward by 'exp' here
  e.sum().backward();
}

void maskedFillSoftmaxOutput() {
  auto w = torch::randn({3}, torch::requires_grad());
  auto p = torch::softmax(w, 0);
  p.masked_fill_(p < 0.1, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'masked_fill_' modifies 'p', which 'softmax' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'p' was saved for backward by 'softmax' here
  auto q = torch::softmax(w, 0).masked_fill(p < 0.1, 0);
  (p + q).sum().backward();
}

// ---- What a function of the file returns ------------------------------------

torch::Tensor makeWeights(int64_t n) {
  return torch::randn({n}, torch::requires_grad());
}

torch::Tensor makeWeightsLater(int64_t n) {
  auto w = torch::zeros({n});
  w.requires_grad_();
  return w;
}

torch::Tensor scaledWeights(int64_t n) { return makeWeights(n) * 2; }

torch::Tensor weightsOnOnePath(int64_t n, bool train) {
  if (train)
    return torch::randn({n}, torch::requires_grad());
  return torch::randn({n});
}

torch::Tensor passedThrough(torch::Tensor x) { return x; }

void leafFromHelper() {
  auto w = makeWeights(3);
  w.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-23]]:28: note: 'w' is made to require grad here
}

void leafFromHelperThatSetsItLater() {
  auto w = makeWeightsLater(3);
  w.mul_(0.5);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-25]]:3: note: 'w' is made to require grad here
}

void helperResultSavedForBackward() {
  auto y = torch::sigmoid(scaledWeights(3));
  y.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

void helperResultsThatMayBeWritten(torch::Tensor x) {
  // A non-leaf that requires grad, saved by nothing.
  auto s = scaledWeights(3);
  s.add_(1);
  // Requires grad on one path only.
  auto w = weightsOnOnePath(3, true);
  w.add_(1);
  // Requires grad only when its argument does.
  auto p = passedThrough(x);
  p.add_(1);
  // Under no-grad, the helper's leaf may be written.
  {
    torch::NoGradGuard Guard;
    auto v = makeWeights(3);
    v.add_(1);
  }
  // A detached copy of the helper's leaf.
  makeWeights(3).detach().add_(1);
}

// A helper's or a sub-module's result that an op of its own saved.
torch::Tensor squashed(const torch::Tensor &X) {
  return torch::sigmoid(X * makeWeights(3));
}
torch::Tensor squashedOnOnePath(const torch::Tensor &X, bool B) {
  if (B)
    return torch::sigmoid(X * makeWeights(3));
  return X * 2;
}
struct GateImpl : torch::nn::Module {
  GateImpl() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor X) { return torch::sigmoid(fc(X)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Gate);

void helperOutputSavedForBackward(torch::Tensor x) {
  auto y = squashed(x);
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' modifies 'y', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-18]]:10: note: 'y' was saved for backward by 'sigmoid' here
  y.sum().backward();
}

void subModuleOutputSavedForBackward(torch::Tensor x) {
  Gate gate;
  auto g = gate(x);
  g.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'g', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-18]]:51: note: 'g' was saved for backward by 'sigmoid' here
  auto h = gate->forward(x);
  h.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'h', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-22]]:51: note: 'h' was saved for backward by 'sigmoid' here
  (g + h).sum().backward();
}

// Of several forward() overloads, `m->forward(...)` runs the one it
// resolves to: only the first saves its output.
struct TwoGatesImpl : torch::nn::Module {
  TwoGatesImpl() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor X) { return torch::sigmoid(fc(X)); }
  torch::Tensor forward(torch::Tensor X, double Scale) { return fc(X) * Scale; }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(TwoGates);

void overloadedForwardOutputSavedForBackward(torch::Tensor x) {
  TwoGates gates;
  auto g = gates->forward(x);
  g.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'add_' modifies 'g', which 'sigmoid' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-11]]:51: note: 'g' was saved for backward by 'sigmoid' here
  auto s = gates->forward(x, 2.0);
  s.add_(1);
  (g + s).sum().backward();
}

void savedHelperOutputsThatMayBeWritten(torch::Tensor x) {
  // Saved on one path only.
  auto a = squashedOnOnePath(x, true);
  a.add_(1);
  // Called under no-grad: nothing is saved.
  torch::Tensor b;
  {
    torch::NoGradGuard Guard;
    b = squashed(x);
  }
  b.add_(1);
  // A copy.
  auto c = squashed(x).clone();
  c.add_(1);
  (a + c).sum().backward();
}

void savedHelperOutputWithoutBackward(torch::Tensor x) {
  auto y = squashed(x);
  y.mul_(2);
}

void opOverAFactoryWithTheOption(torch::Tensor x) {
  // The factory inside is the leaf; sigmoid's result is not one.
  auto y = torch::sigmoid(x * torch::randn({3}, torch::requires_grad()));
  y.add_(1);
}

// A function of the file that writes its argument in place on every path.
void scaleInPlace(torch::Tensor T) { T.mul_(2); }
void clampInPlace(torch::Tensor &T) {
  auto Flat = T.view({-1});
  Flat.clamp_(0, 1);
}
void scaleSometimes(torch::Tensor T, bool B) {
  if (B)
    T.mul_(2);
}
void scaleACopy(torch::Tensor T) {
  T = T * 1;
  T.mul_(2);
}
void readOnly(const torch::Tensor &T) { auto U = T * 2; }

void argumentsWrittenByHelpers() {
  auto w = torch::randn({3}, torch::requires_grad());
  scaleInPlace(w);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'mul_' on 'w', a leaf tensor that requires grad; autograd rejects it outside a no-grad scope [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'w' is made to require grad here
  // CHECK-NOTES: :[[@LINE-20]]:38: note: 'scaleInPlace' writes its argument in place here
  auto y = torch::exp(w);
  clampInPlace(y);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: in-place 'clamp_' modifies 'y', which 'exp' saved for backward; the backward() that follows will fail [torch-inplace-autograd]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'y' was saved for backward by 'exp' here
  // CHECK-NOTES: :[[@LINE-22]]:3: note: 'clampInPlace' writes its argument in place here
  // Not on every path, a rebound parameter, a reader.
  scaleSometimes(w, true);
  scaleACopy(w);
  readOnly(w);
  {
    torch::NoGradGuard Guard;
    scaleInPlace(w);
  }
  y.sum().backward();
}
