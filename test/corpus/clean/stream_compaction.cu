// Stream compaction: keep the elements above a threshold, in order. Pass 1
// counts the kept elements of each block, pass 2 scans the counts into block
// offsets, pass 3 ranks each kept element inside its block with warp ballots
// and writes it at its block offset plus its rank.
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

constexpr int BLOCK = 256;
constexpr int MAX_BLOCKS = 1024;

__global__ void countKept(const float *x, int n, float threshold,
                          int *blockCounts) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int keep = i < n && x[i] > threshold;
  const int total = __syncthreads_count(keep);
  if (threadIdx.x == 0)
    blockCounts[blockIdx.x] = total;
}

// One block of MAX_BLOCKS threads: exclusive scan of numBlocks counts.
__global__ void scanCounts(const int *counts, int *offsets, int numBlocks,
                           int *total) {
  __shared__ int s[MAX_BLOCKS];
  const int t = threadIdx.x;
  const int own = t < numBlocks ? counts[t] : 0;
  s[t] = own;
  __syncthreads();
  for (int d = 1; d < MAX_BLOCKS; d *= 2) {
    const int add = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  if (t < numBlocks)
    offsets[t] = s[t] - own;
  if (t == MAX_BLOCKS - 1)
    *total = s[t];
}

__global__ void scatterKept(const float *x, int n, float threshold,
                            const int *blockOffsets, float *out) {
  __shared__ int warpCounts[BLOCK / 32];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const bool keep = i < n && x[i] > threshold;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  if (lane == 0)
    warpCounts[warp] = __popc(ballot);
  __syncthreads();
  int rank = __popc(ballot & ((1u << lane) - 1u));
  for (int w = 0; w < warp; ++w)
    rank += warpCounts[w];
  if (keep)
    out[blockOffsets[blockIdx.x] + rank] = x[i];
}

int main() {
  const int n = 200000;
  const int blocks = (n + BLOCK - 1) / BLOCK; // at most MAX_BLOCKS
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>((i * 37) % 101);

  float *d_x, *d_out;
  int *d_counts, *d_offsets, *d_total;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_counts, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_offsets, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  countKept<<<blocks, BLOCK>>>(d_x, n, 50.0f, d_counts);
  CUDA_CHECK(cudaGetLastError());
  scanCounts<<<1, MAX_BLOCKS>>>(d_counts, d_offsets, blocks, d_total);
  CUDA_CHECK(cudaGetLastError());
  scatterKept<<<blocks, BLOCK>>>(d_x, n, 50.0f, d_offsets, d_out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  int total = 0;
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  printf("compaction: kept %d of %d\n", total, n);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_offsets));
  CUDA_CHECK(cudaFree(d_total));
  return 0;
}
