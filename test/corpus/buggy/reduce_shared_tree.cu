// Two-pass sum: each block adds two elements per thread while loading,
// reduces in shared memory with a tree, and writes one partial; a second
// launch of one block reduces the partials.
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

__global__ void reducePartial(const float *in, float *partial, unsigned n) {
  extern __shared__ float sdata[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

  float sum = 0.0f;
  // The pair's second element is read whenever the first is in range; in the
  // last block i + blockDim.x can be n or more.
  if (i < n)
    sum = in[i] + in[i + blockDim.x]; // BUG: cuda-unchecked-index
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned n = 1000003;
  const unsigned threads = 256;
  const unsigned blocks = (n + 2 * threads - 1) / (2 * threads);
  const unsigned finalThreads = 1024; // covers 2 * 1024 >= blocks partials
  std::vector<float> h(n, 1.0f);

  float *d_in, *d_partial, *d_sum;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  reducePartial<<<blocks, threads, threads * sizeof(float)>>>(d_in, d_partial,
                                                              n);
  CUDA_CHECK(cudaGetLastError());
  // This launch is not checked: a rejected launch (too many threads, too much
  // shared memory) is reported only by cudaGetLastError, not by the
  // synchronisation, and sum is then read uninitialised.
  const size_t smem = finalThreads * sizeof(float);
  reducePartial<<<1, finalThreads, smem>>>( // BUG: cuda-unchecked-api-call (known miss: a checked synchronisation counts as the check; a rejected configuration is the strict profile's)
      d_partial, d_sum, blocks);
  CUDA_CHECK(cudaDeviceSynchronize());

  float sum = 0.0f;
  CUDA_CHECK(cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
  printf("sum = %.0f (expected %u)\n", sum, n);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_sum));
  return 0;
}
