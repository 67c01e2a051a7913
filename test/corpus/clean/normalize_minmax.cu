// Min-max scaling of every feature (column) of a table to [0, 1]. A constant
// column has max == min; the range is floored at eps so that it maps to 0
// instead of 0 / 0.
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

__global__ void columnMinMax(const float *x, int rows, int cols, float *colMin,
                             float *colMax) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float lo = INFINITY, hi = -INFINITY;
  for (int r = 0; r < rows; ++r) {
    const float v = x[static_cast<size_t>(r) * cols + c];
    lo = fminf(lo, v);
    hi = fmaxf(hi, v);
  }
  colMin[c] = lo;
  colMax[c] = hi;
}

__global__ void normalizeMinMax(const float *x, int rows, int cols,
                                const float *colMin, const float *colMax,
                                float eps, float *y) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) {
    const float lo = colMin[c];
    const float range = fmaxf(colMax[c] - lo, eps);
    const size_t i = static_cast<size_t>(r) * cols + c;
    y[i] = (x[i] - lo) / range;
  }
}

int main() {
  const int rows = 10000, cols = 37;
  std::vector<float> x(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[static_cast<size_t>(r) * cols + c] =
          c == 5 ? 1.0f : (r % (c + 2)) * 0.5f;

  float *d_x, *d_y, *d_min, *d_max;
  CUDA_CHECK(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_min, cols * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_max, cols * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), x.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  columnMinMax<<<(cols + 63) / 64, 64>>>(d_x, rows, cols, d_min, d_max);
  CUDA_CHECK(cudaGetLastError());
  const dim3 block(32, 8);
  const dim3 grid((cols + block.x - 1) / block.x,
                  (rows + block.y - 1) / block.y);
  normalizeMinMax<<<grid, block>>>(d_x, rows, cols, d_min, d_max, 1e-12f, d_y);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(x.data(), d_y, x.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("minmax: y[1][0] = %f, constant column -> %f\n", x[cols], x[5]);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_min));
  CUDA_CHECK(cudaFree(d_max));
  return 0;
}
