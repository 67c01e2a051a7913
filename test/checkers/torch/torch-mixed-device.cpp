// RUN: %check_gpuguard %s torch-mixed-device %t -- -- %torch_mock_flags

#include <torch/torch.h>

namespace F = torch::nn::functional;

bool flag();
void reset(torch::Tensor &t);
void inspect(const torch::Tensor &t);

// ---- Factories with device options and binary operators --------------------

void factories() {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2});
  auto c = a + b;
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'a' is on cuda and 'b' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'a' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'b' is placed on cpu here
  auto d = a + a;
  auto e = b * b;
}

void optionsAndDevices() {
  auto options = torch::TensorOptions().device(torch::kCUDA, 0);
  auto x = torch::zeros({2}, options);
  auto y = torch::ones({2}, torch::dtype(torch::kFloat).device(torch::kCPU));
  auto z = x * y;
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'x' is on cuda:0 and 'y' is on cpu in one 'mul' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'x' is placed on cuda:0 here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'y' is placed on cpu here

  torch::Device first("cuda:0");
  torch::Device second(torch::kCUDA, 1);
  torch::Device current(torch::kCUDA);
  auto p = torch::randn({2}, first);
  auto q = torch::randn({2}, second);
  auto r = torch::randn({2}, current);
  p.add_(q);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'p' is on cuda:0 and 'q' is on cuda:1 in one 'add_' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'p' is placed on cuda:0 here
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'q' is placed on cuda:1 here
  // The current CUDA device may be cuda:1.
  r.add_(q);
  p += r;
  auto s = torch::randn({2}, torch::device(torch::kCPU));
  torch::add(s, r);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 's' is on cpu and 'r' is on cuda in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 's' is placed on cpu here
  // CHECK-NOTES: :[[@LINE-12]]:12: note: 'r' is placed on cuda here
}

void runtimeChoice() {
  torch::Device device =
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto a = torch::randn({2}, device);
  auto b = torch::randn({2});
  auto c = a + b;
  auto d = torch::randn({2}).to(device) * b;
}

// ---- .to(), .cuda(), .cpu() -------------------------------------------------

void moves() {
  auto cpu = torch::randn({2, 3});
  auto gpu = cpu.cuda();
  auto sum = gpu + cpu;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'gpu' is on cuda and 'cpu' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:18: note: 'gpu' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-5]]:14: note: 'cpu' is placed on cpu here
  auto back = gpu.cpu();
  auto fine = back - cpu;
  auto moved = cpu.to(torch::kCUDA);
  moved.sub(cpu);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'moved' is on cuda and 'cpu' is on cpu in one 'sub' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: 'moved' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-12]]:14: note: 'cpu' is placed on cpu here
  auto followed = cpu.to(gpu.device());
  auto same = followed + gpu;
  auto likeOther = cpu.to(gpu);
  auto alsoSame = likeOther * gpu;
  auto byOptions = cpu.to(torch::TensorOptions().device(torch::kCUDA));
  auto mixed = byOptions / cpu;
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: 'byOptions' is on cuda and 'cpu' is on cpu in one 'div' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: 'byOptions' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-21]]:14: note: 'cpu' is placed on cpu here
  auto dtypeOnly = gpu.to(torch::kDouble);
  auto stillGpu = dtypeOnly + cpu;
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'dtypeOnly' is on cuda and 'cpu' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: 'dtypeOnly' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-26]]:14: note: 'cpu' is placed on cpu here
  // Copies between devices are explicit and legal.
  cpu.copy_(gpu);
  gpu.copy_(cpu);
  auto typed = cpu.type_as(gpu);
}

// ---- Results of ops, *_like factories, 0-dim CPU tensors ---------------------

void results() {
  auto a = torch::randn({4}, torch::kCUDA);
  auto b = torch::randn({4});
  auto h = a.relu() * 2;
  auto k = h.sigmoid() - b;
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: 'h.sigmoid()' is on cuda and 'b' is on cpu in one 'sub' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'h.sigmoid()' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'b' is placed on cpu here
  auto z = torch::zeros_like(a);
  torch::where(z > 0, z, b);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'z > 0' is on cuda and 'b' is on cpu in one 'where' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-10]]:12: note: 'z > 0' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-10]]:12: note: 'b' is placed on cpu here
  auto onCpu = torch::ones_like(a, torch::kCPU);
  auto fine = onCpu + b;

  // 0-dim CPU tensors go with CUDA tensors; items are numbers.
  auto scale = torch::tensor(2.0);
  auto scaled = a * scale;
  auto total = b.sum();
  auto centred = a - total;
  auto mean = a * b.mean().item<float>();
  auto kept = b.sum({0}, /*keepdim=*/true);
  auto keptBad = a - kept;
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'a' is on cuda and 'kept' is on cpu in one 'sub' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-24]]:12: note: 'a' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-24]]:12: note: 'kept' is placed on cpu here
  auto empty = torch::randn({});
  auto shifted = a + empty;
  // A 1-element tensor is not 0-dim.
  auto one = torch::tensor({2.0});
  auto bad = a * one;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'a' is on cuda and 'one' is on cpu in one 'mul' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-32]]:12: note: 'a' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'one' is placed on cpu here
}

// ---- Indexing, lists, losses ---------------------------------------------------

void indexing() {
  auto table = torch::randn({10, 4}, torch::kCUDA);
  auto index = torch::arange(3, torch::kLong);
  auto rows = table.index_select(0, index);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'table' is on cuda and 'index' is on cpu in one 'index_select' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:16: note: 'table' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:16: note: 'index' is placed on cpu here
  auto good = table.index_select(0, index.cuda());
  auto fn = torch::index_select(table.cpu(), 0, index);
}

void lists() {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2});
  auto joined = torch::cat({a, b});
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'a' is on cuda and 'b' is on cpu in one 'cat' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'a' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'b' is placed on cpu here
  auto stacked = torch::stack({b, a.cpu()});
  auto pair = torch::stack({b, a}, 1);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'b' is on cpu and 'a' is on cuda in one 'stack' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: 'b' is placed on cpu here
  // CHECK-NOTES: :[[@LINE-10]]:12: note: 'a' is placed on cuda here
  auto fine = torch::cat({a, b.cuda()}, 0);
}

void losses() {
  auto logits = torch::randn({4, 3}, torch::kCUDA);
  auto target = torch::randint(3, {4});
  auto loss = F::cross_entropy(logits, target);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'logits' is on cuda and 'target' is on cpu in one 'cross_entropy' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:17: note: 'logits' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: 'target' is placed on cpu here
  auto good = F::cross_entropy(logits, target.to(logits.device()));

  auto prediction = torch::randn({4}, torch::kCUDA);
  auto expected = torch::zeros({4});
  auto mse = torch::mse_loss(prediction, expected);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'prediction' is on cuda and 'expected' is on cpu in one 'mse_loss' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'prediction' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:19: note: 'expected' is placed on cpu here

  torch::nn::CrossEntropyLoss criterion;
  auto viaModule = criterion(logits, target);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'logits' is on cuda and 'target' is on cpu in one call of 'criterion' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-18]]:17: note: 'logits' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-18]]:17: note: 'target' is placed on cpu here
  auto viaModuleGood = criterion(logits, target.cuda());
}

// ---- Modules -------------------------------------------------------------------

struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    scale = register_parameter("scale", torch::ones({2}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * scale; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
};

struct MovedNet : torch::nn::Module {
  explicit MovedNet(torch::Device device) {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    fc->to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

struct MovesInput : torch::nn::Module {
  MovesInput() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x.cpu()); }
  torch::nn::Linear fc{nullptr};
};

void modules() {
  auto x = torch::randn({3, 4}, torch::kCUDA);
  torch::nn::Linear fc(4, 2);
  auto y = fc(x);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'x' is on cuda and the parameters of 'fc' are on cpu in one call of 'fc' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'x' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'fc' is placed on cpu here
  auto y2 = fc->forward(x);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: 'x' is on cuda and the parameters of 'fc' are on cpu in one call of 'fc' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: 'x' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-8]]:21: note: 'fc' is placed on cpu here
  fc->to(torch::kCUDA);
  auto y3 = fc(x);

  auto net = std::make_shared<Net>();
  auto out = net->forward(x);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'x' is on cuda and the parameters of 'net' are on cpu in one call of 'net' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-16]]:12: note: 'x' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'net' is placed on cpu here
  net->to(torch::kCUDA);
  auto out2 = net->forward(x);

  Net local;
  local.forward(x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'x' is on cuda and the parameters of 'local' are on cpu in one call of 'local' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-24]]:12: note: 'x' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'local' is placed on cpu here

  // Unknown devices: moved in the constructor, input moved in forward,
  // a parameterless module, an empty holder.
  auto moved = std::make_shared<MovedNet>(torch::kCUDA);
  moved->forward(x);
  auto mover = std::make_shared<MovesInput>();
  mover->forward(x);
  torch::nn::ReLU relu;
  relu(x);
  torch::nn::Linear later{nullptr};
  later(x);
}

void moduleOnRuntimeDevice() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear fc(4, 2);
  fc->to(device);
  auto x = torch::randn({3, 4}).to(device);
  auto y = fc(x);
  auto z = fc(torch::randn({3, 4}));
}

// A module that moves itself, as the last statement of its one constructor,
// to the device it is given: its parameters are where the construction
// says.
struct PlacedNetImpl : torch::nn::Module {
  explicit PlacedNetImpl(torch::Device device) {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(PlacedNet);
// Moved before a module is registered, which then stays on the CPU; given
// a device it may reassign; two constructors: unknown.
struct MovedTooEarly : torch::nn::Module {
  explicit MovedTooEarly(torch::Device device) {
    to(device);
    fc = register_module("fc", torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct Reassigns : torch::nn::Module {
  explicit Reassigns(torch::Device device) {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    if (!torch::cuda::is_available())
      device = torch::kCPU;
    to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct TwoConstructors : torch::nn::Module {
  TwoConstructors() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  explicit TwoConstructors(torch::Device device) : TwoConstructors() {
    to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void modulesPlacedByTheirConstructor() {
  auto cpu = torch::randn({3, 4});
  PlacedNet onCuda(torch::kCUDA);
  onCuda(cpu);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cpu' is on cpu and the parameters of 'onCuda' are on cuda in one call of 'onCuda' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'cpu' is placed on cpu here
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'onCuda' is placed on cuda here
  auto shared = std::make_shared<PlacedNetImpl>(torch::Device("cuda:1"));
  shared->forward(cpu);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cpu' is on cpu and the parameters of 'shared' are on cuda:1 in one call of 'shared' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-9]]:14: note: 'cpu' is placed on cpu here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: 'shared' is placed on cuda:1 here
  PlacedNet onCpu(torch::kCPU);
  onCpu(cpu);
  torch::Device chosen(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  PlacedNet either(chosen);
  either(cpu);
  MovedTooEarly early(torch::kCUDA);
  early.forward(cpu);
  Reassigns reassigns(torch::kCUDA);
  reassigns.forward(cpu);
  TwoConstructors two(torch::kCUDA);
  two.forward(cpu);
}

// ---- Flow sensitivity ------------------------------------------------------------

void paths() {
  auto b = torch::randn({2});
  auto t = torch::randn({2});
  if (flag())
    t = t.cuda();
  auto maybe = t + b;

  auto u = torch::randn({2});
  if (flag())
    u = u.cuda();
  else
    u = u.to(torch::kCUDA);
  auto surely = u + b;
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: 'u' is on cuda and 'b' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-5]]:11: note: 'u' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-14]]:12: note: 'b' is placed on cpu here

  auto v = torch::randn({2}, torch::kCUDA);
  v = v.cpu();
  auto after = v + b;

  auto w = torch::randn({2}, torch::kCUDA);
  reset(w);
  auto unknown = w + b;
  inspect(w);
  auto w2 = torch::randn({2}, torch::kCUDA);
  inspect(w2);
  auto known = w2 + b;
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: 'w2' is on cuda and 'b' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'w2' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-29]]:12: note: 'b' is placed on cpu here

  auto acc = torch::zeros({2});
  for (int i = 0; i < 3; ++i) {
    acc += b;
    acc = acc.cuda();
  }
}

torch::Tensor parameters(const torch::Tensor &a, const torch::Tensor &b) {
  return a + b + torch::randn({2}, torch::kCUDA);
}

template <typename T> torch::Tensor templated(T scale) {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2});
  return a * b * scale;
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'a' is on cuda and 'b' is on cpu in one 'mul' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'a' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'b' is placed on cpu here
}
template torch::Tensor templated<double>(double);

void suppressed() {
  auto a = torch::randn({2}, torch::kCUDA);
  auto b = torch::randn({2});
  auto c = a + b; // NOLINT(torch-mixed-device)
}

// Helpers of this file: what they return on every path, decided by
// themselves, is known at their calls, a few calls deep.
static torch::Tensor positionsOf(const torch::Tensor &X) {
  return torch::arange(X.size(1));
}
static torch::Tensor scaledPositions(const torch::Tensor &X) {
  return positionsOf(X) * 2;
}
static torch::Tensor positionsLike(const torch::Tensor &X) {
  return torch::arange(X.size(1), X.options());
}
static torch::Tensor onCudaOrCpu(bool Cuda) {
  if (Cuda)
    return torch::ones({3}, torch::kCUDA);
  return torch::ones({3});
}
void helpers() {
  auto X = torch::randn({2, 3}, torch::kCUDA);
  auto A = X + positionsOf(X);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'X' is on cuda and 'positionsOf(X)' is on cpu in one 'add' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'X' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-18]]:10: note: 'positionsOf(X)' is placed on cpu here
  auto B = X * scaledPositions(X);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'X' is on cuda and 'scaledPositions(X)' is on cpu in one 'mul' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-7]]:12: note: 'X' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-22]]:10: note: 'scaledPositions(X)' is placed on cpu here
  // On the device of its argument: X's here, the CPU tensor's there.
  auto C = X + positionsLike(X);
  auto Cpu = torch::ones({2, 3});
  auto E = X - positionsLike(Cpu);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'X' is on cuda and 'positionsLike(Cpu)' is on cpu in one 'sub' [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE-14]]:12: note: 'X' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'positionsLike(Cpu)' is placed on cpu here
  // Paths that disagree: unknown.
  auto D = X + onCudaOrCpu(true);
}

// What a function of this file does with its argument on every path: it
// adds it to a CPU tensor of its own, so each call must pass a CPU tensor.
static torch::Tensor addPositions(const torch::Tensor &X) {
  auto Pos = torch::arange(X.size(1));
  return X + Pos;
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'X' is on cuda and 'Pos' is on cpu in one 'add' when 'addPositions' is called with 'Batch' on cuda [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE+24]]:3: note: 'addPositions' is called here
  // CHECK-NOTES: :[[@LINE+22]]:16: note: 'Batch' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-5]]:14: note: 'Pos' is placed on cpu here
}
struct Embedder {
  torch::Tensor forward(torch::Tensor X) { return torch::ones({3}) * X; }
  // CHECK-NOTES: :[[@LINE-1]]:68: warning: 'torch::ones({3})' is on cpu and 'X' is on cuda in one 'mul' when 'forward' is called with 'Batch' on cuda [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE+19]]:3: note: 'forward' is called here
  // CHECK-NOTES: :[[@LINE+15]]:16: note: 'Batch' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-4]]:51: note: 'torch::ones({3})' is placed on cpu here
};
// Not on every path, or on the argument's device, or a 0-dim CPU tensor:
// nothing to require of the callers.
static torch::Tensor maybeAddPositions(const torch::Tensor &X, bool Add) {
  if (Add)
    return X + torch::arange(X.size(1));
  return X;
}
static torch::Tensor addPositionsLike(const torch::Tensor &X) {
  return X + torch::arange(X.size(1), X.options());
}
static torch::Tensor scaleBy(const torch::Tensor &X) { return X * torch::tensor(2.0); }
void callsHelpers() {
  auto Batch = torch::randn({2, 3}, torch::kCUDA);
  addPositions(Batch);
  Embedder E;
  E.forward(Batch);
  maybeAddPositions(Batch, true);
  addPositionsLike(Batch);
  scaleBy(Batch);
  // A CPU argument meets the CPU tensor: fine.
  addPositions(torch::randn({2, 3}));
}

// A module called through its holder runs its own forward().
struct PositionsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor X) {
    return X + torch::arange(X.size(1));
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'X' is on cuda and 'torch::arange(X.size(1))' is on cpu in one 'add' when 'forward' is called with 'Batch' on cuda [torch-mixed-device]
    // CHECK-NOTES: :[[@LINE+13]]:3: note: 'forward' is called here
    // CHECK-NOTES: :[[@LINE+10]]:16: note: 'Batch' is placed on cuda here
    // CHECK-NOTES: :[[@LINE-4]]:16: note: 'torch::arange(X.size(1))' is placed on cpu here
  }
};
TORCH_MODULE(Positions);
struct Scale {
  // A member operator's first argument is its object, not X.
  torch::Tensor operator()(torch::Tensor X) { return X * torch::ones({3}); }
};
void callsModuleThroughItsHolder() {
  auto Batch = torch::randn({2, 3}, torch::kCUDA);
  Positions P;
  P(Batch);
  P(torch::randn({2, 3}));
  Scale S;
  S(torch::randn({3}));
}

// Helpers of helpers: an argument passed on, on every path, to a function
// that meets it is met by the caller too, followed three calls deep.
static torch::Tensor shiftByPositions(const torch::Tensor &H) {
  return H - torch::arange(H.size(1));
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'H' is on cuda and 'torch::arange(H.size(1))' is on cpu in one 'sub' when 'embedTokens' is called with 'Batch' on cuda [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE+34]]:3: note: 'embedTokens' is called here
  // CHECK-NOTES: :[[@LINE+12]]:10: note: 'embedTokens' calls 'shiftByPositions' with it here
  // CHECK-NOTES: :[[@LINE+31]]:16: note: 'Batch' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-5]]:14: note: 'torch::arange(H.size(1))' is placed on cpu here
  // CHECK-NOTES: :[[@LINE-6]]:12: warning: 'H' is on cuda and 'torch::arange(H.size(1))' is on cpu in one 'sub' when 'encodeTokens' is called with 'Batch' on cuda [torch-mixed-device]
  // CHECK-NOTES: :[[@LINE+30]]:3: note: 'encodeTokens' is called here
  // CHECK-NOTES: :[[@LINE+10]]:10: note: 'encodeTokens' calls 'embedTokens' with it here
  // CHECK-NOTES: :[[@LINE+6]]:10: note: 'embedTokens' calls 'shiftByPositions' with it here
  // CHECK-NOTES: :[[@LINE+25]]:16: note: 'Batch' is placed on cuda here
  // CHECK-NOTES: :[[@LINE-11]]:14: note: 'torch::arange(H.size(1))' is placed on cpu here
}
static torch::Tensor embedTokens(const torch::Tensor &Tokens) {
  auto H = Tokens * 2;
  return shiftByPositions(H);
}
static torch::Tensor encodeTokens(const torch::Tensor &Tokens) {
  return embedTokens(Tokens);
}
// Under a branch, or with a tensor of its own: nothing required.
static torch::Tensor maybeEmbed(const torch::Tensor &Tokens, bool Embed) {
  if (Embed)
    return embedTokens(Tokens);
  return Tokens;
}
static torch::Tensor embedOwn(const torch::Tensor &Tokens) {
  auto Own = torch::ones({2, 3});
  return shiftByPositions(Own).sum() + Tokens;
}
// Four calls deep: not followed.
static torch::Tensor encodeTwice(const torch::Tensor &Tokens) {
  return encodeTokens(Tokens);
}
void callsHelpersOfHelpers() {
  auto Batch = torch::randn({2, 3}, torch::kCUDA);
  embedTokens(Batch);
  encodeTokens(Batch);
  maybeEmbed(Batch, true);
  embedOwn(Batch);
  encodeTwice(Batch);
  encodeTokens(torch::randn({2, 3}));
}

// A module with several forward() overloads, called as LibTorch allows
// (its holder's operator() takes only a module with one forward()): each
// call runs the overload it resolves to.
struct ShiftImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor X) {
    return X + torch::arange(X.size(1));
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'X' is on cuda and 'torch::arange(X.size(1))' is on cpu in one 'add' when 'forward' is called with 'Batch' on cuda [torch-mixed-device]
    // CHECK-NOTES: :[[@LINE+10]]:3: note: 'forward' is called here
    // CHECK-NOTES: :[[@LINE+7]]:16: note: 'Batch' is placed on cuda here
    // CHECK-NOTES: :[[@LINE-4]]:16: note: 'torch::arange(X.size(1))' is placed on cpu here
  }
  torch::Tensor forward(torch::Tensor X, int64_t Steps) { return X * Steps; }
};
TORCH_MODULE(Shift);
void callsOverloadedForward() {
  auto Batch = torch::randn({2, 3}, torch::kCUDA);
  Shift S;
  S->forward(Batch);
  S->forward(Batch, 1);
}
