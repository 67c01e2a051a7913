// On a GPU: the allocation wrappers remember the line that made each
// allocation. An allocation the device cannot hold is reported with what
// was asked, what the device has left and what holds it; at exit the
// memory still live is listed by line, largest first.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env GPUGUARD_OPTIONS=report_leaks=0 %t 2>&1 | FileCheck %s --check-prefix=QUIET

#include <gpuguard/rt.h>

#include <cstdio>

int main() {
  // Unbuffered, so that the output keeps the order of the runtime's lines.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  float *Weights = nullptr, *Scratch = nullptr, *Huge = nullptr;
  // As `gpuguard instrument` writes two allocations of one statement: nvcc
  // joins the statement onto its first line, so each call names its own.
  if (::gpuguard::rt::CalledAt<__LINE__>::cudaMalloc(&Weights, 64 << 20) !=
          cudaSuccess ||
      ::gpuguard::rt::CalledAt<__LINE__>::cudaMalloc(&Scratch, 1 << 20) !=
          cudaSuccess)
    return 1;
  // 1 PiB: more than any GPU has.
  cudaError_t Result = ::gpuguard::rt::cudaMalloc(&Huge, size_t(1) << 50);
  std::printf("huge: %s\n", cudaGetErrorName(Result));
  // CHECK: device-memory-report.cu:[[@LINE-2]]:0: runtime error: 'cudaMalloc' of 1125899906842624 bytes (1024.0 TiB) failed: out of memory (the device has {{[0-9]+}} bytes ({{.*}}) free of {{[0-9]+}} bytes ({{.*}})) [out-of-memory]
  // CHECK-NEXT: live through the CUDA wrappers: 2 allocation(s), 68157440 bytes (65.0 MiB); the largest:
  // CHECK-NEXT: 67108864 bytes (64.0 MiB) in 1 allocation(s) by cudaMalloc at {{.*}}device-memory-report.cu:22
  // CHECK-NEXT: 1048576 bytes (1.0 MiB) in 1 allocation(s) by cudaMalloc at {{.*}}device-memory-report.cu:24
  // CHECK-NEXT: huge: cudaErrorMemoryAllocation
  // QUIET: huge: cudaErrorMemoryAllocation
  ::gpuguard::rt::cudaFree(Scratch);
  return 0;
  // CHECK: gpuguard: device memory still allocated: 1 allocation(s), 67108864 bytes (64.0 MiB) [cuda-device-memory-leak]
  // CHECK-NEXT: 67108864 bytes (64.0 MiB) in 1 allocation(s) by cudaMalloc at {{.*}}device-memory-report.cu:22
  // QUIET-NOT: still allocated
}
