// Integer mean per segment: scores are summed and counted per segment with
// atomics, then each segment's mean is its sum over its count. A segment
// with no element has a count of zero and a mean of zero.
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

__global__ void accumulate(const int *segment, const int *score, int n,
                           int numSegments, unsigned long long *sums,
                           int *counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int s = segment[i];
    if (s >= 0 && s < numSegments) {
      atomicAdd(&sums[s], static_cast<unsigned long long>(score[i]));
      atomicAdd(&counts[s], 1);
    }
  }
}

__global__ void segmentMean(const unsigned long long *sums, const int *counts,
                            int numSegments, int *means) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < numSegments) {
    const int count = counts[s];
    means[s] = count > 0 ? static_cast<int>(sums[s] / count) : 0;
  }
}

int main() {
  const int n = 100000, numSegments = 1000;
  std::vector<int> segment(n), score(n);
  for (int i = 0; i < n; ++i) {
    segment[i] = (i * 7) % 997; // segments 997..999 stay empty
    score[i] = i % 100;
  }

  int *d_segment, *d_score, *d_counts, *d_means;
  unsigned long long *d_sums;
  CUDA_CHECK(cudaMalloc(&d_segment, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_score, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sums, numSegments * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_counts, numSegments * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_means, numSegments * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_segment, segment.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_score, score.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sums, 0, numSegments * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_counts, 0, numSegments * sizeof(int)));

  accumulate<<<(n + 255) / 256, 256>>>(d_segment, d_score, n, numSegments,
                                       d_sums, d_counts);
  CUDA_CHECK(cudaGetLastError());
  segmentMean<<<(numSegments + 255) / 256, 256>>>(d_sums, d_counts, numSegments,
                                                  d_means);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> means(numSegments);
  const size_t meanBytes = numSegments * sizeof(int);
  CUDA_CHECK(
      cudaMemcpy(means.data(), d_means, meanBytes, cudaMemcpyDeviceToHost));
  printf("segment means: %d %d ... %d\n", means[0], means[1], means[999]);
  CUDA_CHECK(cudaFree(d_segment));
  CUDA_CHECK(cudaFree(d_score));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_means));
  return 0;
}
