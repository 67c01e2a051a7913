// Sum of n floats: grid-stride accumulation, a warp reduction with
// __shfl_down_sync, one partial per warp in shared memory, then one atomic
// per block.
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

__inline__ __device__ float warpReduceSum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduceSum(const float *in, float *out, int n) {
  __shared__ float warpSums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];

  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  sum = warpReduceSum(sum);
  if (lane == 0)
    warpSums[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = threadIdx.x < blockDim.x / warpSize ? warpSums[lane] : 0.0f;
    sum = warpReduceSum(sum);
    if (lane == 0)
      atomicAdd(out, sum);
  }
}

int main() {
  const int n = 1 << 24;
  std::vector<float> h(n, 0.25f);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float)));

  const int threads = 512;
  const int blocks = std::min((n + threads - 1) / threads, 1024);
  reduceSum<<<blocks, threads>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  // A fault inside the kernel is reported here first, and dropped.
  cudaDeviceSynchronize(); // BUG: cuda-unchecked-api-call

  float result = 0.0f;
  CUDA_CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  printf("sum = %.1f (expected %.1f)\n", result, 0.25 * n);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
