// A kernel with nothing to report, for result-cache.test.
#include <cuda_runtime.h>
__global__ void fill(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = 0.0f;
}
