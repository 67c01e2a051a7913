// tensorMemory(), which instrumented host code wraps around a tensor whose
// data pointer it takes, compiles against the real LibTorch headers with the
// CUDA host side on and off, and leaves tensors that are not on a CUDA
// device alone: nothing is registered, nothing reported.
//
// REQUIRES: libtorch, runtime-cuda
//
// RUN: %torch_cxx -std=c++17 -DGPUGUARD_RT_CUDA_HOST -I%cuda_path/include \
// RUN:   -isystem %torch_include -I%runtime_include %s \
// RUN:   %runtime_cuda_lib -L%cuda_path/lib64 -lcudart -ltorch -ltorch_cpu -lc10 \
// RUN:   -Wl,-rpath,%cuda_path/lib64 -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"
// RUN: %torch_cxx -std=c++17 -DGPUGUARD_RT_CUDA_HOST -DGPUGUARD_RT_DISABLE \
// RUN:   -I%cuda_path/include -isystem %torch_include \
// RUN:   -I%runtime_include -fsyntax-only %s

#include <gpuguard/rt.h>
#include <torch/torch.h>

#include <cstdio>

int main() {
  at::Tensor Cpu = torch::arange(16, torch::kFloat);
  at::Tensor Meta = torch::empty({4, 4}, torch::device(torch::kMeta));
  at::Tensor Undefined;
  const at::Tensor &Same = ::gpuguard::rt::tensorMemory(Cpu);
  float *Data = ::gpuguard::rt::tensorMemory(Cpu).data_ptr<float>();
  (void)::gpuguard::rt::tensorMemory(Meta);
  (void)::gpuguard::rt::tensorMemory(Undefined);
#ifndef GPUGUARD_RT_DISABLE
  ::gpuguard::rt::AllocationEntry Found;
  std::printf("same tensor: %d, data: %d, registered: %d\n", &Same == &Cpu,
              Data == Cpu.data_ptr<float>(),
              ::gpuguard::rt::detail::findAllocation(Data, Found));
#endif
  return 0;
}
// CHECK: same tensor: 1, data: 1, registered: 0
// CHECK-NOT: SUMMARY
