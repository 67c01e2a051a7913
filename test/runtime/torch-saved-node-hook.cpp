// The checks behind --instrument=all's writes to saved tensors with no
// visible backward(), driven by hand: a node-save site hooks the node that
// saved the tensor, a deferred-write site notes the write, and the report
// comes only when a backward() reaches that node, before PyTorch's error.
//
// REQUIRES: runtime-torch
// RUN: %torch_cxx %torch_flags -isystem %runtime_include -w -O0 %s -o %t %runtime_torch_lib %runtime_lib -ltorch -ltorch_cpu -lc10
// RUN: %t reached 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: %t through_view 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: %t input_not_needed 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not="runtime error"
// RUN: %t graph_freed 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not="runtime error"
// RUN: %t never_backpropagated 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not="runtime error"
// RUN: %t no_grad 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not="runtime error"
// RUN: %t each_iteration 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not="runtime error"

// REPORT: /p/t.cpp:2:3: runtime error: in-place write to a tensor saved for backward ('mul_' changed it from version 0 and backward() reached the node that saved it) in f, saved by 'mul' at /p/t.cpp:1:12 [torch-inplace-autograd]
// REPORT-NEXT: threw: one of the variables needed for gradient computation has been modified by an inplace operation
// OK: {{^}}ok{{$}}

#include <gpuguard/torch.h>

#include <cstdio>
#include <cstring>
#include <string>

using gpuguard::rt::SiteInfo;
using gpuguard::rt::torch::operand;

static const SiteInfo Sites[] = {
    {"/p/t.cpp", 1, 12, "f", "torch-inplace-autograd",
     gpuguard::rt::TorchSavedForBackwardNode, -1, "mul"},
    {"/p/t.cpp", 2, 3, "f", "torch-inplace-autograd",
     gpuguard::rt::TorchInplaceWriteDeferred, 0, "mul_"},
};
static const gpuguard::rt::SiteTableRegistrar
    Registrar(0x1234ULL, Sites, 2, GPUGUARD_SITE_TABLE_ABI_VERSION);

/// `a * b` as an instrumented saving op: the saved operand, then the result.
static torch::Tensor savedProduct(const torch::Tensor &A,
                                  const torch::Tensor &B) {
  return operand(Sites[0], 1, 2, operand(Sites[0], 0, 2, A) * B);
}

static void scale(torch::Tensor T) { operand(Sites[1], 0, 1, T).mul_(2); }

int main(int Argc, char **Argv) {
  if (Argc != 2)
    return 2;
  // Unbuffered, so that the output keeps the order of the runtime's lines.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  std::string Run = Argv[1];
  auto X = torch::randn({3}, torch::requires_grad());
  try {
    if (Run == "reached") {
      auto A = X * 3;
      auto Z = savedProduct(A, A);
      scale(A);
      Z.sum().backward();
    } else if (Run == "through_view") {
      auto A = X * 3;
      auto Z = savedProduct(A, A);
      scale(A.view({3}));
      Z.sum().backward();
    } else if (Run == "input_not_needed") {
      // `a * c` saves no `a` when `c` does not require grad.
      auto A = X * 3;
      auto Z = savedProduct(A, torch::ones({3}));
      scale(A);
      Z.sum().backward();
    } else if (Run == "graph_freed") {
      auto A = X * 3;
      auto Z = savedProduct(A, A);
      Z.sum().backward();
      scale(A);
    } else if (Run == "never_backpropagated") {
      auto A = X * 3;
      auto Z = savedProduct(A, A);
      scale(A);
    } else if (Run == "no_grad") {
      auto A = torch::randn({3});
      auto Z = savedProduct(A, A);
      scale(A);
      Z.sum();
    } else if (Run == "each_iteration") {
      for (int I = 0; I < 300; ++I) {
        auto A = X * 3;
        auto Z = savedProduct(A, A);
        Z.sum().backward();
        scale(A);
      }
    }
    std::puts("ok");
  } catch (const std::exception &Error) {
    std::printf("threw: %.*s\n",
                static_cast<int>(std::strcspn(Error.what(), "\n")),
                Error.what());
  }
  return 0;
}
