// 1-D weighted stencil of radius 3. Each block stages its elements and a
// halo of RADIUS on each side in shared memory; values outside [0, n) are
// zeros.
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

constexpr int RADIUS = 3;
constexpr int BLOCK = 256;
__constant__ float c_weights[2 * RADIUS + 1];

__global__ void stencil1d(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  const int gi = blockIdx.x * BLOCK + threadIdx.x;
  const int li = threadIdx.x + RADIUS;

  tile[li] = gi < n ? in[gi] : 0.0f;
  if (threadIdx.x < RADIUS) {
    const int left = gi - RADIUS;
    const int right = gi + BLOCK;
    tile[li - RADIUS] = (left >= 0 && left < n) ? in[left] : 0.0f;
    tile[li + BLOCK] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();

  if (gi < n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += c_weights[k + RADIUS] * tile[li + k];
    out[gi] = acc;
  }
}

int main() {
  const int n = 1 << 20 | 5;
  const float weights[2 * RADIUS + 1] = {1, 2, 3, 4, 3, 2, 1};
  std::vector<float> h(n, 1.0f);

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof(weights)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  stencil1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(h.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("stencil1d: out[0] = %.0f, out[n/2] = %.0f, out[n-1] = %.0f\n", h[0],
         h[n / 2], h[n - 1]);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
