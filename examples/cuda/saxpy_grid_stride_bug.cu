// saxpy_grid_stride: a grid-stride loop written as do-while tests too late.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err));                                        \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

// y = a * x + y
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int stride = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  do {
    y[i] = a * x[i] + y[i]; // BUG: runs once before `i < n` is tested
    i += stride;
  } while (i < n);
}

int main() {
  const int n = 5000;
  float *hY = (float *)malloc(n * sizeof(float));
  float *x, *y;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(y, 0, n * sizeof(float)));
  // Size the grid to the device, not to n: even one SM's 32 blocks of 256
  // threads are more threads than there are elements.
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  saxpy<<<32 * sms, 256>>>(n, 2.0f, x, y);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(hY, y, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("y[0] = %f\n", hY[0]);
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(y));
  free(hY);
  return 0;
}
