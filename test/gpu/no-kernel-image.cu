// On a GPU the program was not built for (SASS for sm_75 only, no PTX): one
// line before the first allocation or launch says that its kernels cannot
// run here and how to rebuild, instead of a launch that fails with a code
// naming no cause.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -gencode arch=compute_75,code=sm_75 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: %t 2>&1 | FileCheck %s

#include <gpuguard/rt.h>

#include <cstdio>

__global__ void fill(float *Data) { Data[threadIdx.x] = 1.0f; }

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  float *Data = nullptr;
  if (::gpuguard::rt::cudaMalloc(&Data, 256 * sizeof(float)) != cudaSuccess)
    return 1;
  // CHECK: gpuguard: this program's kernels cannot run on this GPU (cudaErrorNoKernelImageForDevice: {{.*}}; GPU {{[0-9]+}} is sm_{{[0-9]+}} and the program has neither SASS for it nor PTX older than it: rebuild with -gencode arch=compute_{{[0-9]+}},code=sm_{{[0-9]+}} ('gpuguard doctor <program>' lists what it has))
  fill<<<1, 256>>>(Data);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  // CHECK: launch: cudaErrorNoKernelImageForDevice
  ::gpuguard::rt::cudaFree(Data);
  return 0;
}
