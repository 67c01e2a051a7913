// The check's verdicts with the installed CUDA toolkit's own headers, where
// threadIdx and friends are Clang's MS-property builtins.
// REQUIRES: cuda-toolkit
// RUN: %check_gpuguard %s cuda-unchecked-index %t -- --cuda-path=%cuda_path --
//
// The same verdicts with gpuguard's bundled headers, on a machine with no
// toolkit: one line says which headers are used.
// RUN: %check_gpuguard %s cuda-unchecked-index %t.bundled -- --bundled-cuda-headers --
// RUN: env GPUGUARD_CUDA_SEARCH_PATHS=%t.none CUDA_PATH=%t.none %gpuguard %s -- 2>&1 | FileCheck %s --check-prefix=FALLBACK
// FALLBACK: gpuguard: note: no CUDA toolkit found ($CUDA_PATH, /usr/local/cuda); parsing with gpuguard's bundled CUDA headers (pass --cuda-path to use a toolkit)
// FALLBACK: warning: index 'i' of 'out[i]'

#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *out, const float *in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * factor;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // (with 'in[i]' in a note: one fault, one warning)
}

__global__ void scaleGuarded(float *out, const float *in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

__global__ void matmul(const float *a, const float *b, float *c, int m, int n,
                       int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float sum = 0.0f;
  for (int e = 0; e < k; ++e)
    sum += a[row * k + e] * b[e * n + col];
  c[row * n + col] = sum;
}

__global__ void blockSum(const float *in, float *partial, int n) {
  __shared__ float cache[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  for (; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  cache[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    v = cache[tid] + cache[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (tid == 0)
    partial[blockIdx.x] = v;
}

__global__ void checkedByAssert(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = i;
}

int main() {
  const int n = 1000;
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, n * sizeof(float)) != cudaSuccess)
    return 1;
  scaleGuarded<<<(n + 255) / 256, 256>>>(out, in, 2.0f, n);
  // The same rounded-up grid for the kernel with no guard: the evidence.
  scale<<<(n + 255) / 256, 256>>>(out, in, 2.0f, n);
  // A pointer into the middle of 'out', with the size of all of it.
  scaleGuarded<<<(n + 255) / 256, 256>>>(out + 10, in, 2.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'out + 10' points '10' elements into 'out', but the launch passes the size of all of 'out' for 'n': the last threads of 'scaleGuarded' run past its end [cuda-unchecked-index]
  cudaError_t status = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(status));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
