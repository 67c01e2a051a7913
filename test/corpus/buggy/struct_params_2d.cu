// Adds a per-column bias to a pitched 2-D matrix. The matrices travel as
// structs that carry their own shape and leading dimension (the pitch from
// cudaMallocPitch, in elements), and the guard reads the bounds from them.
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

struct Matrix {
  float *data;
  int rows;
  int cols;
  int ld; // elements between the starts of two rows, >= cols
};

__global__ void addColumnBias(Matrix y, Matrix x, const float *bias) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  // Only the rows are bounded: c runs to the end of the last block of
  // columns, past bias and past the pitch of the rows.
  if (r < y.rows) {
    const float v = x.data[r * x.ld + c] + bias[c]; // BUG: cuda-unchecked-index
    y.data[r * y.ld + c] = v;                       // BUG: cuda-unchecked-index
  }
}

static Matrix allocMatrix(int rows, int cols) {
  Matrix m;
  size_t pitch = 0;
  CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&m.data), &pitch,
                             cols * sizeof(float), rows));
  m.rows = rows;
  m.cols = cols;
  m.ld = static_cast<int>(pitch / sizeof(float));
  return m;
}

int main() {
  const int rows = 480, cols = 333;
  std::vector<float> h(rows * cols, 1.0f), bias(cols);
  for (int c = 0; c < cols; ++c)
    bias[c] = static_cast<float>(c);

  Matrix x = allocMatrix(rows, cols), y = allocMatrix(rows, cols);
  float *d_bias;
  CUDA_CHECK(cudaMalloc(&d_bias, cols * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_bias, bias.data(), cols * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2D(x.data, x.ld * sizeof(float), h.data(),
                          cols * sizeof(float), cols * sizeof(float), rows,
                          cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  addColumnBias<<<grid, block>>>(y, x, d_bias);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy2D(h.data(), cols * sizeof(float), y.data,
                          y.ld * sizeof(float), cols * sizeof(float), rows,
                          cudaMemcpyDeviceToHost));
  printf("bias2d: y[0][%d] = %.0f\n", cols - 1, h[cols - 1]);
  CUDA_CHECK(cudaFree(x.data));
  CUDA_CHECK(cudaFree(y.data));
  CUDA_CHECK(cudaFree(d_bias));
  return 0;
}
