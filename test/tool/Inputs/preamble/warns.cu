// Its preamble warns: parsed in full, and the warning is said as before.
#include <cuda_runtime.h>
#include "warns.cuh"

__global__ void fill(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = 0.0f;
}

void launchFill(float *data, int n) {
  fill<<<(n + 255) / 256, 256>>>(data, n);
}
