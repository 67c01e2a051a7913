// Row-wise maximum, one warp per row. The butterfly reduction with
// __shfl_xor_sync leaves the maximum in every lane.
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

constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 8;

__device__ __forceinline__ float warpAllMax(float v) {
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
  return v;
}

__global__ void rowMax(const float *x, float *out, int rows, int cols) {
  const int lane = threadIdx.x & (kWarpSize - 1);
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / kWarpSize;
  if (row >= rows)
    return; // the whole warp leaves together: row is uniform in the warp
  const float *xr = x + static_cast<size_t>(row) * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += kWarpSize)
    m = fmaxf(m, xr[c]);
  m = warpAllMax(m);
  if (lane == 0)
    out[row] = m;
}

int main() {
  const int rows = 1000, cols = 777;
  std::vector<float> h(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = static_cast<float>((i * 37) % 1009);

  float *d_x, *d_out;
  CUDA_CHECK(cudaMalloc(&d_x, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  rowMax<<<blocks, kWarpsPerBlock * kWarpSize>>>(d_x, d_out, rows, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> out(rows);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, rows * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("row_max: row 0 = %.0f, row %d = %.0f\n", out[0], rows - 1,
         out[rows - 1]);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
