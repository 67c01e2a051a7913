// y = A * x for a sparse matrix in CSR format, one thread per row. rowPtr
// has rows + 1 entries, so rowPtr[row + 1] is valid for every row; the
// column indices are part of the matrix and lie in [0, cols).
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

__global__ void spmvCsrScalar(int rows, const int *rowPtr, const int *colIdx,
                              const float *vals, const float *x, float *y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const int begin = rowPtr[row];
  const int end = rowPtr[row + 1];
  float dot = 0.0f;
  for (int k = begin; k < end; ++k)
    dot += vals[k] * x[colIdx[k]];
  y[row] = dot;
}

int main() {
  // The 1-D Poisson matrix: 2 on the diagonal, -1 beside it.
  const int rows = 100000;
  std::vector<int> rowPtr(rows + 1), colIdx;
  std::vector<float> vals;
  for (int r = 0; r < rows; ++r) {
    rowPtr[r] = static_cast<int>(colIdx.size());
    for (int c = r - 1; c <= r + 1; ++c) {
      if (c < 0 || c >= rows)
        continue;
      colIdx.push_back(c);
      vals.push_back(c == r ? 2.0f : -1.0f);
    }
  }
  rowPtr[rows] = static_cast<int>(colIdx.size());
  const int nnz = rowPtr[rows];
  std::vector<float> x(rows, 1.0f), y(rows);

  int *d_rowPtr, *d_colIdx;
  float *d_vals, *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_rowPtr, (rows + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_colIdx, nnz * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_x, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_rowPtr, rowPtr.data(), (rows + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_colIdx, colIdx.data(), nnz * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));

  spmvCsrScalar<<<(rows + 127) / 128, 128>>>(rows, d_rowPtr, d_colIdx, d_vals,
                                             d_x, d_y);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
  printf("spmv: y[0] = %.0f, y[1] = %.0f, y[last] = %.0f\n", y[0], y[1],
         y[rows - 1]);
  CUDA_CHECK(cudaFree(d_rowPtr));
  CUDA_CHECK(cudaFree(d_colIdx));
  CUDA_CHECK(cudaFree(d_vals));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
