// Numerically stable softmax over the rows of a matrix, one block per row:
// subtract the row maximum before exponentiating, then normalise by the sum.
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

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Every thread of the block gets the result. blockDim.x is a multiple of 32.
template <typename Op>
__device__ float blockAllReduce(float v, Op op, float *scratch) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if ((threadIdx.x & 31) == 0)
    scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  v = scratch[0];
  for (int w = 1; w < (blockDim.x >> 5); ++w)
    v = op(v, scratch[w]);
  __syncthreads(); // scratch is reused by the next reduction
  return v;
}

__global__ void softmaxRows(const float *x, float *y, int cols) {
  __shared__ float scratch[32];
  const float *xr = x + static_cast<size_t>(blockIdx.x) * cols;
  float *yr = y + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  m = blockAllReduce(m, MaxOp(), scratch);

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float e = __expf(xr[c] - m);
    yr[c] = e;
    s += e;
  }
  s = blockAllReduce(s, SumOp(), scratch);
  const float inv = 1.0f / s; // s >= 1: the maximum contributes exp(0)
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] *= inv;
}

int main() {
  const int rows = 4096, cols = 1000;
  std::vector<float> h(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = 100.0f * sinf(0.001f * i); // large logits: needs the max shift

  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  softmaxRows<<<rows, 256>>>(d_x, d_y, cols);
  CUDA_CHECK(cudaGetLastError());
  // A fault inside the kernel is reported here first, and dropped.
  cudaDeviceSynchronize(); // BUG: cuda-unchecked-api-call

  CUDA_CHECK(cudaMemcpy(h.data(), d_y, h.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  double rowSum = 0.0;
  for (int c = 0; c < cols; ++c)
    rowSum += h[c];
  printf("softmax: row 0 sums to %f\n", rowSum);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
