// 256-bin histogram of a byte buffer with per-block privatisation: each
// block counts into shared memory and merges into the global histogram once.
// A byte is always a valid bin, so no check is needed on data[i].
#include <algorithm>
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

constexpr int kBins = 256;

__global__ void histogram256(const unsigned char *data, size_t n,
                             unsigned *hist) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    local[b] = 0u;
  __syncthreads();

  const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       i < n; i += stride)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b] != 0u)
      atomicAdd(&hist[b], local[b]);
}

int main() {
  const size_t n = 10000019;
  std::vector<unsigned char> data(n);
  for (size_t i = 0; i < n; ++i)
    data[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);

  unsigned char *d_data;
  unsigned *d_hist;
  CUDA_CHECK(cudaMalloc(&d_data, n));
  CUDA_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned)));

  const int threads = 256;
  const int blocks =
      static_cast<int>(std::min<size_t>((n + threads - 1) / threads, 240));
  histogram256<<<blocks, threads>>>(d_data, n, d_hist);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> hist(kBins);
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, kBins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  size_t total = 0;
  for (unsigned c : hist)
    total += c;
  printf("histogram256: %zu of %zu bytes counted\n", total, n);
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_hist));
  return total == n ? EXIT_SUCCESS : EXIT_FAILURE;
}
