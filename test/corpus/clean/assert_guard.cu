// Sigmoid over a buffer padded to a whole number of blocks. The launch covers
// the padded length exactly, so every thread's index is in range; the assert
// states that invariant and catches a wrong launch in debug builds.
#include <cassert>
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

constexpr int kThreads = 256;

__global__ void sigmoidPadded(const float *x, float *y, int paddedN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < paddedN);
  y[i] = 1.0f / (1.0f + __expf(-x[i]));
}

int main() {
  const int n = 123457;
  const int paddedN = (n + kThreads - 1) / kThreads * kThreads;
  std::vector<float> h(paddedN, 0.0f);
  for (int i = 0; i < n; ++i)
    h[i] = (i % 21 - 10) * 0.5f;

  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, paddedN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, paddedN * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h.data(), paddedN * sizeof(float),
                        cudaMemcpyHostToDevice));

  sigmoidPadded<<<paddedN / kThreads, kThreads>>>(d_x, d_y, paddedN);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(h.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("sigmoid: y[10] = %f (expected 0.5)\n", h[10]);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
