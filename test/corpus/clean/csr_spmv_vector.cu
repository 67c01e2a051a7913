// CSR sparse matrix-vector product, one warp per row ("vector" kernel): the
// lanes stride over the row's non-zeros and a shuffle reduction sums them.
// Warps walk the rows with a grid-stride loop.
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

__global__ void spmvCsrVector(int rows, const int *__restrict__ rowPtr,
                              const int *__restrict__ colIdx,
                              const float *__restrict__ vals,
                              const float *__restrict__ x, float *y) {
  const int lane = threadIdx.x & 31;
  const int warpsInGrid = (blockDim.x * gridDim.x) / 32;
  for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; row < rows;
       row += warpsInGrid) {
    const int begin = rowPtr[row];
    const int end = rowPtr[row + 1];
    float sum = 0.0f;
    for (int k = begin + lane; k < end; k += 32)
      sum += vals[k] * __ldg(&x[colIdx[k]]);
    for (int offset = 16; offset > 0; offset >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
      y[row] = sum;
  }
}

int main() {
  // A banded matrix with 64 non-zeros per row (fewer near the edges).
  const int rows = 20000, half = 32;
  std::vector<int> rowPtr(1, 0), colIdx;
  std::vector<float> vals;
  for (int r = 0; r < rows; ++r) {
    for (int c = r - half; c < r + half; ++c)
      if (c >= 0 && c < rows) {
        colIdx.push_back(c);
        vals.push_back(1.0f);
      }
    rowPtr.push_back(static_cast<int>(colIdx.size()));
  }
  const int nnz = rowPtr.back();
  std::vector<float> x(rows, 1.0f);

  int *d_rowPtr, *d_colIdx;
  float *d_vals, *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_rowPtr, rowPtr.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_colIdx, nnz * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_x, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_rowPtr, rowPtr.data(), rowPtr.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_colIdx, colIdx.data(), nnz * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));

  spmvCsrVector<<<160, 256>>>(rows, d_rowPtr, d_colIdx, d_vals, d_x, d_y);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float y0 = 0.0f;
  CUDA_CHECK(cudaMemcpy(&y0, d_y, sizeof(float), cudaMemcpyDeviceToHost));
  printf("spmv vector: y[0] = %.0f (expected %d)\n", y0, half);
  CUDA_CHECK(cudaFree(d_rowPtr));
  CUDA_CHECK(cudaFree(d_colIdx));
  CUDA_CHECK(cudaFree(d_vals));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
