// Matrix transpose through a shared tile padded by one column, so that the
// column-wise reads of the tile do not conflict on shared-memory banks. A
// block of 32x8 threads moves a 32x32 tile; both the load and the store are
// bounded in both dimensions for the partial tiles at the edges.
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

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

// in is rows x cols, out is cols x rows, both row-major.
__global__ void transpose(float *out, const float *in, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x; // the transposed block
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) {
      const float v = tile[threadIdx.x][threadIdx.y + j];
      out[(y + j) * rows + x] = v;
    }
}

int main() {
  const int rows = 1000, cols = 777;
  std::vector<float> h(rows * cols), t(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    h[i] = static_cast<float>(i);

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const dim3 block(TILE_DIM, BLOCK_ROWS);
  const dim3 grid((cols + TILE_DIM - 1) / TILE_DIM,
                  (rows + TILE_DIM - 1) / TILE_DIM);
  transpose<<<grid, block>>>(d_out, d_in, rows, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(t.data(), d_out, t.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      errors += t[c * rows + r] != h[r * cols + c];
  printf("transpose: %d errors\n", errors);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
