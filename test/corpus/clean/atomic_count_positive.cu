// Counts the elements above a threshold and finds the last such index, with
// one atomic per warp: __ballot_sync gathers the lanes' predicates, and lane
// 0 adds the population count. Every lane takes part in the ballot, so the
// bound is part of the predicate instead of an early return.
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

__global__ void countAbove(const float *x, int n, float threshold,
                           unsigned *count, int *lastIndex) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool above = i < n && x[i] > threshold;
  const unsigned mask = __ballot_sync(0xffffffffu, above);
  if ((threadIdx.x & 31) == 0 && mask != 0u)
    atomicAdd(count, static_cast<unsigned>(__popc(mask)));
  if (above)
    atomicMax(lastIndex, i);
}

int main() {
  const int n = 999999;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>((i * 7) % 100);

  float *d_x;
  unsigned *d_count;
  int *d_last;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_last, sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_last, 0xff, sizeof(int))); // -1

  const int threads = 256; // a multiple of the warp size
  countAbove<<<(n + threads - 1) / threads, threads>>>(d_x, n, 89.5f, d_count,
                                                       d_last);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  unsigned count = 0;
  int last = -1;
  CUDA_CHECK(
      cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&last, d_last, sizeof(last), cudaMemcpyDeviceToHost));
  printf("count_above: %u elements, last at %d\n", count, last);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_count));
  CUDA_CHECK(cudaFree(d_last));
  return 0;
}
