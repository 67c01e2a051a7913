// A kernel whose index has no guard, for result-cache.test; its header is
// edited by the test.
#include "launch.cuh"
#include <cuda_runtime.h>

__global__ void scale(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= kFactor;
}

void run(float *data, int n) {
  scale<<<(n + kThreads - 1) / kThreads, kThreads>>>(data, n);
}
