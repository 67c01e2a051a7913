// Each torch check inserts the runtime's operand captures around the
// operands of the op it flags, and only there: a NOLINT'ed finding gets no
// runtime check, --instrument=all adds the ops not proven safe, lines stay
// where they were after the #line directive, and the input is not changed.
// RUN: rm -rf %t && cp %s %t.cpp && cp %t.cpp %t.orig
// RUN: %gpuguard instrument --quiet -o %t/flagged %t.cpp -- %torch_mock_flags > %t.findings 2>&1
// RUN: FileCheck %s --check-prefix=FLAGGED -DSRC=%t.cpp < %t/flagged%t.cpp
// RUN: FileCheck %s --check-prefix=FINDINGS < %t.findings
// RUN: cmp %t.cpp %t.orig
// RUN: %gpuguard instrument --quiet --instrument=all -o %t/all %t.cpp -- %torch_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=ALL -DSRC=%t.cpp < %t/all%t.cpp && FileCheck %s --check-prefix=ALL-SITES -DSRC=%t.cpp < %t/all%t.cpp
// The copies compile against the mock headers and the runtime's declarations.
// RUN: %clangxx -fsyntax-only %torch_mock_flags -I%S/Inputs %t/flagged%t.cpp && %clangxx -fsyntax-only %torch_mock_flags -I%S/Inputs %t/all%t.cpp

// FLAGGED: // Instrumented copy of [[SRC]] made by 'gpuguard instrument'; edit the original.
// FLAGGED-NEXT: #include <gpuguard/torch.h>
// FLAGGED-NEXT: #ifndef __CUDA_ARCH__
// FLAGGED-NEXT: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// FLAGGED-NEXT: {"[[SRC]]", 41, 16, "divide", "torch-div-by-zero", 25, -1, "z"},
// FLAGGED-NEXT: {"[[SRC]]", 54, 16, "lookup", "torch-index-range", 21, -1, "embedding"},
// FLAGGED-NEXT: {"[[SRC]]", 64, 3, "inplace", "torch-inplace-autograd", 29, 3, "mul_"},
// FLAGGED-NEXT: {"[[SRC]]", 62, 12, "inplace", "torch-inplace-autograd", 28, -1, "sigmoid"},
// FLAGGED-NEXT: {"[[SRC]]", 72, 12, "mixed", "torch-mixed-device", 20, -1, "add"},
// FLAGGED-NEXT: {"[[SRC]]", 79, 29, "shapes", "torch-loss-shape", 27, -1, "mse_loss"},
// FLAGGED-NEXT: };
// FLAGGED-NEXT: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// FLAGGED-NEXT: 0x{{[0-9a-f]+}}ULL, gpuguard_sites_, 6, 1);
// FLAGGED-NEXT: #endif
// FLAGGED-NEXT: #line 1 "[[SRC]]"
// FLAGGED-NEXT: // Each torch check

// FINDINGS-COUNT-5: warning:
// FINDINGS-NOT: warning:

#include <torch/torch.h>

namespace F = torch::nn::functional;

torch::Tensor divide(torch::Tensor x) {
  auto z = torch::zeros({3});
  auto a = x / z;
// FLAGGED: auto a = x / ::gpuguard::rt::torch::operand(gpuguard_sites_[0], 0, 1, z);
  auto b = x / torch::zeros({3}); // NOLINT(torch-div-by-zero)
// FLAGGED: auto b = x / torch::zeros({3}); // NOLINT
  auto c = x / x.sum();
// FLAGGED: auto c = x / x.sum();
// ALL: auto c = x / ::gpuguard::rt::torch::operand(gpuguard_sites_[{{[0-9]+}}], 0, 1, x.sum());
  return a + b + c;
}

torch::Tensor lookup(torch::Tensor other) {
  torch::nn::Embedding emb(10, 4);
  auto ids = torch::full({2}, 12, torch::kLong);
  auto e = emb(ids);
// FLAGGED: auto e = ::gpuguard::rt::torch::operand(gpuguard_sites_[1], 0, 2, emb)(::gpuguard::rt::torch::operand(gpuguard_sites_[1], 1, 2, ids));
  return emb->forward(other);
// ALL: return {{.*}}operand(gpuguard_sites_[{{[0-9]+}}], 0, 2, emb){{.*}}->forward({{.*}}operand(gpuguard_sites_[{{[0-9]+}}], 1, 2, other)
}

void inplace(torch::Tensor x) {
  auto w = x.requires_grad_();
  auto y = w.sigmoid();
// FLAGGED: auto y = ::gpuguard::rt::torch::operand(gpuguard_sites_[3], 0, 1, w.sigmoid());
  y.mul_(2);
// FLAGGED: ::gpuguard::rt::torch::operand(gpuguard_sites_[2], 0, 1, y).mul_(2);
  y.sum().backward();
}

torch::Tensor mixed() {
  auto a = torch::ones({3}, torch::kCUDA);
  auto b = torch::ones({3});
  return a + b;
// FLAGGED: return ::gpuguard::rt::torch::operand(gpuguard_sites_[4], 0, 2, a) + ::gpuguard::rt::torch::operand(gpuguard_sites_[4], 1, 2, b);
}

torch::Tensor shapes() {
  auto input = torch::rand({4, 1});
  auto target = torch::rand({4});
  return F::mse_loss(input, target);
// FLAGGED: return F::mse_loss(::gpuguard::rt::torch::operand(gpuguard_sites_[5], 0, 2, input), ::gpuguard::rt::torch::operand(gpuguard_sites_[5], 1, 2, target));
}

// No backward() follows these writes to saved tensors: not findings, and
// instrumented with --instrument=all only, to be checked if a backward()
// reaches the node that saved the tensor.
torch::Tensor candidateResult(bool grad) {
  auto x = torch::randn({3}, torch::requires_grad(grad));
  auto y = torch::sigmoid(x);
// ALL-SITES-DAG: {"[[SRC]]", [[#@LINE-1]], 12, "candidateResult", "torch-inplace-autograd", 31, -1, "sigmoid"},
// FLAGGED: {{^}}  auto y = torch::sigmoid(x);{{$}}
// ALL: auto y = ::gpuguard::rt::torch::operand(gpuguard_sites_{{\[}}[[RESULT:[0-9]+]]{{\]}}, 0, 1, torch::sigmoid(x));
  y.mul_(2);
// ALL-SITES-DAG: {"[[SRC]]", [[#@LINE-1]], 3, "candidateResult", "torch-inplace-autograd", 32, {{[0-9]+}}, "mul_"},
// FLAGGED: {{^}}  y.mul_(2);{{$}}
// ALL: ::gpuguard::rt::torch::operand(gpuguard_sites_[{{[0-9]+}}], 0, 1, y).mul_(2);
  return y.sum();
}

torch::Tensor candidateOperand(bool grad) {
  auto x = torch::randn({3}, torch::requires_grad(grad));
  auto y = x * 2;
  auto z = y.pow(2);
// ALL-SITES-DAG: {"[[SRC]]", [[#@LINE-1]], 12, "candidateOperand", "torch-inplace-autograd", 31, -1, "pow"},
// FLAGGED: {{^}}  auto z = y.pow(2);{{$}}
// ALL: auto z = ::gpuguard::rt::torch::operand(gpuguard_sites_{{\[}}[[OPERAND:[0-9]+]]{{\]}}, 1, 2, ::gpuguard::rt::torch::operand(gpuguard_sites_{{\[}}[[OPERAND]]{{\]}}, 0, 2, y).pow(2));
  y.add_(1);
// ALL-SITES-DAG: {"[[SRC]]", [[#@LINE-1]], 3, "candidateOperand", "torch-inplace-autograd", 32, {{[0-9]+}}, "add_"},
// FLAGGED: {{^}}  y.add_(1);{{$}}
// ALL: ::gpuguard::rt::torch::operand(gpuguard_sites_[{{[0-9]+}}], 0, 1, y).add_(1);
  return z.sum();
}
