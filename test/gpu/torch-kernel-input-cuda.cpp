// torch-unchecked-kernel-input's runtime check on tensors that really live
// on the GPU, driven as an instrumented launch drives it: a contiguous CUDA
// tensor on the current device passes, a transposed one is reported with its
// sizes and strides, and a CPU one as not a GPU's.
//
// REQUIRES: cuda-gpu, libtorch-cuda, runtime-torch-cuda, gxx
//
// RUN: %gxx %torch_cuda_flags -I%runtime_include %s %runtime_torch_lib \
// RUN:   %runtime_lib %torch_cuda_libs -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"

// CHECK: /p/ext.cu:8:47: runtime error: tensor passed to a kernel as a raw pointer is not a contiguous tensor on the current GPU ('x.t()' not contiguous: sizes [3, 2], strides [1, 3]) in forward [torch-unchecked-kernel-input]
// CHECK-NEXT: /p/ext.cu:9:47: runtime error: tensor passed to a kernel as a raw pointer is not a contiguous tensor on the current GPU ('host' on cpu, not a GPU) in forward [torch-unchecked-kernel-input]
// CHECK-NEXT: done
// CHECK-NEXT: SUMMARY: gpuguard: 2 runtime error(s) at 2 site(s)

#include <gpuguard/torch.h>

#include <cstdio>

using gpuguard::rt::SiteInfo;
using gpuguard::rt::torch::operand;

static const SiteInfo Sites[] = {
    {"/p/ext.cu", 7, 47, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInputFlat, -1, "x"},
    {"/p/ext.cu", 8, 47, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInputFlat, -1, "x.t()"},
    {"/p/ext.cu", 9, 47, "forward", "torch-unchecked-kernel-input",
     gpuguard::rt::TorchKernelInputFlat, -1, "host"},
};
static const gpuguard::rt::SiteTableRegistrar
    Registrar(0x5432ULL, Sites, 3, GPUGUARD_SITE_TABLE_ABI_VERSION);

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  auto X = torch::arange(6, torch::device(torch::kCUDA).dtype(torch::kFloat))
               .reshape({2, 3});
  (void)operand(Sites[0], 0, 1, X).data_ptr<float>();
  auto Transposed = X.t();
  (void)operand(Sites[1], 0, 1, Transposed);
  auto Host = X.cpu();
  (void)operand(Sites[2], 0, 1, Host);
  std::printf("done\n");
  return 0;
}
