// Histogram of integer samples into nbins equal-width bins over [lo, hi].
// The width is at least one even when every sample has the same value, and
// samples outside [lo, hi] are not counted.
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

__global__ void histogramInt(const int *v, int n, int lo, int hi, int nbins,
                             int *hist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int x = v[i];
  if (x < lo || x > hi)
    return;
  // When every sample has the same value, hi == lo and this divides by zero.
  const int scaled = (x - lo) * nbins / (hi - lo); // BUG: cuda-div-by-zero
  const int bin = min(scaled, nbins - 1);
  atomicAdd(&hist[bin], 1);
}

int main() {
  const int n = 50000, nbins = 16;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = 18 + (i * 31) % 70; // ages 18..87
  const auto [minIt, maxIt] = std::minmax_element(v.begin(), v.end());
  const int lo = *minIt, hi = *maxIt;

  int *d_v, *d_hist;
  CUDA_CHECK(cudaMalloc(&d_v, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_hist, nbins * sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(d_v, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hist, 0, nbins * sizeof(int)));

  const int threads = 256;
  histogramInt<<<(n + threads - 1) / threads, threads>>>(d_v, n, lo, hi, nbins,
                                                         d_hist);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> hist(nbins);
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, nbins * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < nbins; ++b)
    printf("%d ", hist[b]);
  printf("\n");
  CUDA_CHECK(cudaFree(d_v));
  CUDA_CHECK(cudaFree(d_hist));
  return 0;
}
