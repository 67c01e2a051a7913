// Bitonic sort in global memory: the host runs the (k, j) stages and each
// launch performs one compare-and-swap step. The input is padded with +inf
// up to a power of two; unsigned indices throughout.
#include <cmath>
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

__global__ void bitonicStep(float *data, unsigned n, unsigned j, unsigned k) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned partner = i ^ j;
  if (partner > i && partner < n) {
    const bool ascending = (i & k) == 0;
    const float a = data[i];
    const float b = data[partner];
    if ((a > b) == ascending) {
      data[i] = b;
      data[partner] = a;
    }
  }
}

int main() {
  const unsigned count = 100000;
  unsigned n = 1;
  while (n < count)
    n <<= 1;
  std::vector<float> h(n, INFINITY);
  for (unsigned i = 0; i < count; ++i)
    h[i] = static_cast<float>((i * 7919u) % 100003u);

  float *d_data;
  CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_data, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const unsigned threads = 256;
  const unsigned blocks = (n + threads - 1) / threads;
  for (unsigned k = 2; k <= n; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      bitonicStep<<<blocks, threads>>>(d_data, n, j, k);
      CUDA_CHECK(cudaGetLastError());
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(h.data(), d_data, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned inversions = 0;
  for (unsigned i = 1; i < count; ++i)
    inversions += h[i - 1] > h[i];
  printf("bitonic: %u inversions\n", inversions);
  CUDA_CHECK(cudaFree(d_data));
  return inversions == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
