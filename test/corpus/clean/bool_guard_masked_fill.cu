// masked_fill: x[i] = value where mask[i] is set. The 2-D kernel keeps its
// bounds test in a named bool; the 1-D kernel compares against a local copy
// of the element count.
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

__global__ void maskedFill2d(float *x, const unsigned char *mask, int rows,
                             int cols, float value) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const bool inside = r < rows && c < cols;
  if (!inside)
    return;
  const int idx = r * cols + c;
  if (mask[idx])
    x[idx] = value;
}

__global__ void maskedFill1d(float *x, const unsigned char *mask, int rows,
                             int cols, float value) {
  const int count = rows * cols;
  const int limit = count;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < limit && mask[i])
    x[i] = value;
}

int main() {
  const int rows = 1000, cols = 300, n = rows * cols;
  std::vector<unsigned char> mask(n);
  for (int i = 0; i < n; ++i)
    mask[i] = i % 3 == 0;

  float *d_x;
  unsigned char *d_mask;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mask, n));
  CUDA_CHECK(cudaMemset(d_x, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_mask, mask.data(), n, cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  maskedFill2d<<<grid, block>>>(d_x, d_mask, rows, cols, -1.0f);
  CUDA_CHECK(cudaGetLastError());
  maskedFill1d<<<(n + 255) / 256, 256>>>(d_x, d_mask, rows, cols, -2.0f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float first = 0.0f;
  CUDA_CHECK(cudaMemcpy(&first, d_x, sizeof(float), cudaMemcpyDeviceToHost));
  printf("masked_fill: x[0] = %.0f\n", first);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_mask));
  return 0;
}
