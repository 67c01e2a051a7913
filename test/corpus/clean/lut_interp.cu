// Piecewise-linear lookup table, as used for tone curves and activation
// approximations. Inputs are raw floats: non-finite inputs pass through, and
// the table position is clamped before it becomes an integer index.
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

// table holds tableSize >= 2 samples at xMin, xMin + step, ...
__global__ void lutInterp(const float *x, float *y, int n, const float *table,
                          int tableSize, float xMin, float invStep) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float v = x[i];
  if (!isfinite(v)) {
    y[i] = v;
    return;
  }
  const float last = static_cast<float>(tableSize - 1);
  const float pos = fminf(fmaxf((v - xMin) * invStep, 0.0f), last);
  const int k = min(static_cast<int>(pos), tableSize - 2);
  const float t = pos - k;
  y[i] = table[k] + t * (table[k + 1] - table[k]);
}

int main() {
  const int n = 1 << 18, tableSize = 257;
  const float xMin = -4.0f, xMax = 4.0f;
  const float invStep = (tableSize - 1) / (xMax - xMin);
  std::vector<float> table(tableSize), x(n);
  for (int k = 0; k < tableSize; ++k)
    table[k] = tanhf(xMin + k / invStep);
  for (int i = 0; i < n; ++i)
    x[i] = (i % 2001 - 1000) * 0.01f; // -10 .. 10, beyond the table
  x[3] = INFINITY;

  float *d_x, *d_y, *d_table;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_table, tableSize * sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_table, table.data(), tableSize * sizeof(float),
                        cudaMemcpyHostToDevice));

  lutInterp<<<(n + 255) / 256, 256>>>(d_x, d_y, n, d_table, tableSize, xMin,
                                      invStep);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(x.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("lut: y[0] = %f, y[1000] = %f\n", x[0], x[1000]);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_table));
  return 0;
}
