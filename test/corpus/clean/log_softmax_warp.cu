// log_softmax for rows of up to a few thousand columns, one warp per row:
// y = x - (max + log(sum(exp(x - max)))).
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

__device__ __forceinline__ float warpMax(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void logSoftmaxWarp(const float *x, float *y, int rows, int cols) {
  const int warpsPerBlock = blockDim.x / 32;
  const int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row < rows) {
    const size_t base = static_cast<size_t>(row) * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32)
      m = fmaxf(m, x[base + c]);
    m = warpMax(m);
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
      s += expf(x[base + c] - m);
    const float logZ = m + logf(warpSum(s));
    for (int c = lane; c < cols; c += 32)
      y[base + c] = x[base + c] - logZ;
  }
}

int main() {
  const int rows = 10001, cols = 129;
  const int threads = 128; // four rows per block
  std::vector<float> h(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = static_cast<float>(i % 17) - 8.0f;

  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  const int rowsPerBlock = threads / 32;
  const int blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
  logSoftmaxWarp<<<blocks, threads>>>(d_x, d_y, rows, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(h.data(), d_y, h.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  double total = 0.0;
  for (int c = 0; c < cols; ++c)
    total += exp(h[c]);
  printf("log_softmax: exp of row 0 sums to %f\n", total);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
