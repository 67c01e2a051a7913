// The check behind torch-unchecked-kernel-input's instrumented launches,
// driven by hand on the host: a tensor a kernel receives must be a CUDA
// tensor on the current device, and contiguous when the kernel indexes its
// raw pointer flat. Every problem of the tensor is named in one line, at the
// launch argument, and the program goes on.
//
// REQUIRES: runtime-torch
// RUN: %torch_cxx %torch_flags -isystem %runtime_include -w -O0 %s -o %t %runtime_torch_lib %runtime_lib -ltorch -ltorch_cpu -lc10
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"

// CHECK: /p/ext.cu:7:47: runtime error: tensor passed to a kernel as a raw pointer is not a contiguous tensor on the current GPU ('input' on cpu, not a GPU) in forward [torch-unchecked-kernel-input]
// CHECK-NEXT: /p/ext.cu:8:47: runtime error: tensor passed to a kernel as a raw pointer is not a contiguous tensor on the current GPU ('input.t()' on cpu, not a GPU; not contiguous: sizes [3, 2], strides [1, 3]) in forward [torch-unchecked-kernel-input]
// CHECK-NEXT: /p/ext.cu:9:30: runtime error: tensor passed to a kernel is not on the current GPU ('rows' on meta, not a GPU) in forward [torch-unchecked-kernel-input]
// CHECK-NEXT: done
// CHECK-NEXT: SUMMARY: gpuguard: 4 runtime error(s) at 3 site(s)

#include <gpuguard/torch.h>

#include <cstdio>

using gpuguard::rt::SiteInfo;
using gpuguard::rt::torch::operand;

static const SiteInfo Sites[] = {
    {"/p/ext.cu", 7, 47, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInputFlat, -1, "input"},
    {"/p/ext.cu", 8, 47, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInputFlat, -1, "input.t()"},
    {"/p/ext.cu", 9, 30, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInput, -1, "rows"},
    {"/p/ext.cu", 10, 30, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInput, -1, "undefined"},
};
static const gpuguard::rt::SiteTableRegistrar
    Registrar(0x4321ULL, Sites, 4, GPUGUARD_SITE_TABLE_ABI_VERSION);

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  auto Input = torch::arange(6, torch::kFloat).reshape({2, 3});
  // The launch arguments as instrumented: `operand(...).data_ptr<float>()`.
  const float *Data = operand(Sites[0], 0, 1, Input).data_ptr<float>();
  auto Transposed = Input.t();
  (void)operand(Sites[1], 0, 1, Transposed);
  auto Rows = torch::empty({4, 4}, torch::device(torch::kMeta));
  (void)operand(Sites[2], 0, 1, Rows);
  at::Tensor Undefined;
  (void)operand(Sites[3], 0, 1, Undefined);
  // The same site again reports nothing new.
  (void)operand(Sites[0], 0, 1, Input);
  std::printf("%s\n", Data == Input.data_ptr<float>() ? "done" : "wrong data");
  return 0;
}
