// relu_early_exit: ReLU that returns early, so every access below is in range.
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

// y = max(x, 0), plus the mask that the backward pass needs.
__global__ void reluForward(const float *x, float *y, unsigned char *mask,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = fmaxf(x[i], 0.0f);
  mask[i] = x[i] > 0.0f;
}

int main() {
  const int n = 1000;
  float *hX = (float *)malloc(n * sizeof(float));
  float *hY = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    hX[i] = (float)(i % 7) - 3.0f;
  float *x, *y;
  unsigned char *mask;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&mask, n));
  CUDA_CHECK(cudaMemcpy(x, hX, n * sizeof(float), cudaMemcpyHostToDevice));
  const int threads = 256;
  reluForward<<<(n + threads - 1) / threads, threads>>>(x, y, mask, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(hY, y, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("y[%d] = %f\n", n - 1, hY[n - 1]);
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(mask));
  free(hX);
  free(hY);
  return 0;
}
