// tensorMemory() on tensors that live on the GPU: a CUDA tensor's storage is
// registered, a kernel that writes past it is reported at the access with
// the storage's extent, and the entry goes once the storage dies, even
// though LibTorch's caching allocator keeps the memory.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda, libtorch-cuda, gxx
//
// RUN: %nvcc -std=c++17 -c -I%runtime_include %S/Inputs/tensor_kernel.cu -o %t.kernel.o
// RUN: %gxx -std=c++20 -DGPUGUARD_RT_CUDA_HOST -I%cuda_path/include \
// RUN:   -isystem %torch_cuda_root/include \
// RUN:   -isystem %torch_cuda_root/include/torch/csrc/api/include \
// RUN:   -I%runtime_include %s %t.kernel.o %runtime_cuda_lib \
// RUN:   -L%torch_cuda_root/lib -Wl,--no-as-needed -ltorch -ltorch_cpu \
// RUN:   -ltorch_cuda -lc10 -lc10_cuda -Wl,--as-needed \
// RUN:   -L%cuda_path/lib64 -lcudart -Wl,-rpath,%torch_cuda_root/lib \
// RUN:   -Wl,-rpath,%cuda_path/lib64 -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"

#include <gpuguard/rt.h>
#include <torch/torch.h>

#include <cstdio>

void launchFillOnes(float *Data, int Blocks, int Threads);

static int registered(const void *Address) {
  ::gpuguard::rt::AllocationEntry Found{};
  return ::gpuguard::rt::detail::findAllocation(Address, Found);
}

int main() {
  const void *Released = nullptr;
  {
    at::Tensor Values = torch::zeros(
        {100}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat));
    float *Data = ::gpuguard::rt::tensorMemory(Values).data_ptr<float>();
    Released = Data;
    at::Tensor View = Values.narrow(0, 10, 10);
    std::fprintf(stderr, "registered: %d, view inside: %d\n", registered(Data),
                registered(View.data_ptr<float>()));
    // 128 threads write 100 floats: threads 100..127 are past the storage.
    launchFillOnes(Data, 1, 128);
    std::fprintf(stderr, "sum %.0f\n", Values.sum().item<float>());
  }
  // The storage is gone (its memory stays cached); the next launch drops it.
  ::gpuguard::rt::beforeLaunch();
  std::fprintf(stderr, "after release: %d\n", registered(Released));
  return 0;
}

// CHECK: registered: 1, view inside: 1
// CHECK: /src/ext.cu:7:3: runtime error: index 'data[i]' outside its allocation (index {{1[0-2][0-9]}}, extent 100 elements) in kernel fillOnes, block (0,0,0) thread ({{1[0-2][0-9]}},0,0) [cuda-unchecked-index]
// CHECK: sum 100
// CHECK: after release: 0
// CHECK: SUMMARY: gpuguard: 28 runtime error(s) at 1 site(s)
