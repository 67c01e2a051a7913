// Group-by mean: every value is added to the slot of its key with atomics,
// then each key's mean is its sum over its count. Keys come from the data and
// are range-checked; samples with a key outside [0, numKeys) are skipped, and
// a key that never occurs has a mean of zero.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void scatterAdd(const int *keys, const float *values, int n,
                           int numKeys, float *sums, unsigned *counts) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int key = keys[i];
    if (key < 0 || key >= numKeys)
      continue;
    atomicAdd(&sums[key], values[i]);
    atomicAdd(&counts[key], 1u);
  }
}

__global__ void keyMeans(const float *sums, const unsigned *counts, int numKeys,
                         float *means) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < numKeys) {
    const unsigned count = counts[k];
    means[k] = count > 0 ? sums[k] / count : 0.0f;
  }
}

int main() {
  const int n = 1 << 20, numKeys = 1024; // keys 1006..1023 never occur
  std::vector<int> keys(n);
  std::vector<float> values(n, 1.0f);
  for (int i = 0; i < n; ++i)
    keys[i] = (i % 1013) - 7; // a few keys are negative, some >= numKeys

  int *d_keys;
  float *d_values, *d_sums, *d_means;
  unsigned *d_counts;
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, numKeys * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_counts, numKeys * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_means, numKeys * sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sums, 0, numKeys * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_counts, 0, numKeys * sizeof(unsigned)));

  scatterAdd<<<256, 256>>>(d_keys, d_values, n, numKeys, d_sums, d_counts);
  CUDA_CHECK(cudaGetLastError());
  keyMeans<<<(numKeys + 255) / 256, 256>>>(d_sums, d_counts, numKeys, d_means);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> means(numKeys);
  CUDA_CHECK(cudaMemcpy(means.data(), d_means, numKeys * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("scatter_add: mean of key 0 = %.1f\n", means[0]);
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_means));
  return 0;
}
