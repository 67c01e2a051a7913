// Backward differences (run-length decoding, delta encoding) and forward
// differences (a discrete gradient). Each neighbour read has its own bound:
// i > 0 for i - 1, and i + 1 < n for i + 1.
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

// out[0] = in[0], out[i] = in[i] - in[i - 1].
__global__ void backwardDiff(const int *in, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Thread 0 reads in[-1].
  if (i < n)
    out[i] = in[i] - in[i - 1]; // BUG: cuda-unchecked-index
}

// grad[i] = x[i + 1] - x[i], and 0 at the last element.
__global__ void forwardDiff(const float *x, float *grad, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The last element reads x[n].
  if (i < n)
    grad[i] = x[i + 1] - x[i]; // BUG: cuda-unchecked-index
}

int main() {
  const int n = 65537;
  std::vector<int> prefix(n);
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) {
    prefix[i] = 3 * i + i % 7;
    x[i] = 0.5f * i;
  }

  int *d_prefix, *d_delta;
  float *d_x, *d_grad;
  CUDA_CHECK(cudaMalloc(&d_prefix, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_delta, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_grad, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_prefix, prefix.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  backwardDiff<<<blocks, threads>>>(d_prefix, d_delta, n);
  CUDA_CHECK(cudaGetLastError());
  forwardDiff<<<blocks, threads>>>(d_x, d_grad, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float g = 0.0f;
  CUDA_CHECK(cudaMemcpy(&g, d_grad, sizeof(float), cudaMemcpyDeviceToHost));
  printf("diff: grad[0] = %.2f\n", g);
  CUDA_CHECK(cudaFree(d_prefix));
  CUDA_CHECK(cudaFree(d_delta));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_grad));
  return 0;
}
