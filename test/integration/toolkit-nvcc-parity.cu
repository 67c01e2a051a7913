// What nvcc accepts without flags, gpuguard parses without flags too:
// kernels that launch kernels (dynamic parallelism, which only builds with
// relocatable device code, so it is always accepted), and OpenMP host code
// including <omp.h>, which nvcc's host compiler, GCC, finds in its own
// include directory.
// REQUIRES: cuda-toolkit, gcc-openmp-header
// RUN: %gpuguard --checks='-*,cuda-unchecked-index' --config="{CheckOptions: {cuda-unchecked-index.Strict: true}}" --cuda-path=%cuda_path %s -- 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// Both sides parse, and the kernels are analysed.
// CHECK: toolkit-nvcc-parity.cu:[[@LINE+9]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]

#include <cuda_runtime.h>
#include <omp.h>

#include <cstdio>

__global__ void child(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 0.0f;
}

__global__ void parent(float *out, int n) {
  if (threadIdx.x == 0)
    child<<<(n + 255) / 256, 256>>>(out, n);
}

int main() {
  omp_set_num_threads(2);
  int threads = 0;
#pragma omp parallel reduction(+ : threads)
  threads += 1;
  std::printf("%d host threads\n", threads);
  return 0;
}
