// vector_add: c = a + b, one thread per element, early-return guard.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void vectorAdd(const float *__restrict__ a,
                          const float *__restrict__ b, float *__restrict__ c,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  c[i] = a[i] + b[i];
}

int main() {
  const int n = 100003; // not a multiple of the block size
  const size_t bytes = n * sizeof(float);
  float *h_a = static_cast<float *>(malloc(bytes));
  float *h_b = static_cast<float *>(malloc(bytes));
  float *h_c = static_cast<float *>(malloc(bytes));
  for (int i = 0; i < n; ++i) {
    h_a[i] = 0.5f * i;
    h_b[i] = 1.0f - i;
  }

  float *d_a, *d_b, *d_c;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMalloc(&d_c, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int i = 0; i < n; ++i)
    if (h_c[i] != h_a[i] + h_b[i])
      ++errors;
  printf("vector_add: %d errors\n", errors);

  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  free(h_a);
  free(h_b);
  free(h_c);
  return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
