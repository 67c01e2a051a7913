// Inclusive prefix sum of n ints in two levels: a Hillis-Steele scan per
// block with double-buffered shared memory, a scan of the block totals by a
// single block, and a pass that adds each block's offset.
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

template <int BLOCK>
__global__ void scanBlock(const int *in, int *out, int *blockSums, int n) {
  __shared__ int buf[2][BLOCK];
  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  int pout = 0;
  buf[pout][threadIdx.x] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    pout = 1 - pout;
    const int pin = 1 - pout;
    int v = buf[pin][threadIdx.x];
    if (threadIdx.x >= offset)
      v += buf[pin][threadIdx.x - offset];
    buf[pout][threadIdx.x] = v;
    __syncthreads();
  }
  if (gid < n)
    out[gid] = buf[pout][threadIdx.x];
  if (blockSums != nullptr && threadIdx.x == BLOCK - 1)
    blockSums[blockIdx.x] = buf[pout][threadIdx.x];
}

__global__ void addBlockOffsets(int *data, const int *scannedSums, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && gid < n)
    data[gid] += scannedSums[blockIdx.x - 1];
}

int main() {
  constexpr int BLOCK = 512;
  const int n = 200000;
  const int blocks = (n + BLOCK - 1) / BLOCK; // 391 <= BLOCK: one level
  std::vector<int> h(n, 1);

  int *d_in, *d_out, *d_sums;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  scanBlock<BLOCK><<<blocks, BLOCK>>>(d_in, d_out, d_sums, n);
  CUDA_CHECK(cudaGetLastError());
  scanBlock<BLOCK><<<1, BLOCK>>>(d_sums, d_sums, nullptr, blocks);
  CUDA_CHECK(cudaGetLastError());
  addBlockOffsets<<<blocks, BLOCK>>>(d_out, d_sums, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(h.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("inclusive scan: last = %d (expected %d)\n", h[n - 1], n);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_sums));
  return h[n - 1] == n ? EXIT_SUCCESS : EXIT_FAILURE;
}
