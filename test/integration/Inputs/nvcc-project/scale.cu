#include <cuda_runtime.h>

#include "scaling.cuh"

__device__ unsigned long long launches = 0;

template <class F>
__global__ void transform(float *out, const float *in, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(in[i]);
}

__global__ void squareAll(float *data, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    data[i] = squared(data[i]);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(&launches, 1ull);
}

cudaError_t scaleAll(float *out, const float *in, int n, float factor) {
  // A __device__ lambda: nvcc accepts it only with --extended-lambda.
  transform<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(
      out, in, n, [=] __device__(float x) { return x * factor; });
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    return status;
  squareAll<<<32, BLOCK_SIZE>>>(out, n);
  return cudaGetLastError();
}
