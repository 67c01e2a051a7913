#include <cuda_runtime.h>

#include "scaling.cuh"

// Adds a bias to every value. The grid is rounded up to whole blocks, so the
// last block has threads past the end.
__global__ void addBias(float *values, float bias, int n) {
  int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  values[i] += bias; // BUG: no `if (i < n)`
  if (i == 0)
    atomicAdd(&launches, 1ull);
}

cudaError_t addBiasAll(float *values, float bias, int n) {
  addBias<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(values, bias, n);
  return cudaGetLastError();
}
