// Top-K values and their columns for every row, one warp per row. Each lane
// keeps a sorted list of its best K in registers; K rounds of a warp argmax
// over the lanes' heads then merge the lists.
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

template <int K>
__global__ void topkRows(const float *x, int rows, int cols, float *outVals,
                         int *outIdx) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float vals[K];
  int idx[K];
  for (int t = 0; t < K; ++t) {
    vals[t] = -INFINITY;
    idx[t] = -1;
  }
  const float *xr = x + static_cast<size_t>(row) * cols;
  for (int c = lane; c < cols; c += 32) {
    const float v = xr[c];
    if (v > vals[K - 1]) {
      int p = K - 1;
      for (; p > 0 && vals[p - 1] < v; --p) {
        vals[p] = vals[p - 1];
        idx[p] = idx[p - 1];
      }
      vals[p] = v;
      idx[p] = c;
    }
  }
  int head = 0;
  for (int t = 0; t < K; ++t) {
    float best = head < K ? vals[head] : -INFINITY;
    const int mine = head < K ? idx[head] : -1;
    int bestLane = lane;
    for (int offset = 16; offset > 0; offset >>= 1) {
      const float v = __shfl_xor_sync(0xffffffffu, best, offset);
      const int l = __shfl_xor_sync(0xffffffffu, bestLane, offset);
      if (v > best || (v == best && l < bestLane)) {
        best = v;
        bestLane = l;
      }
    }
    if (lane == bestLane) {
      outVals[row * K + t] = best;
      outIdx[row * K + t] = mine;
      ++head;
    }
  }
}

int main() {
  constexpr int K = 5;
  const int rows = 3001, cols = 1000;
  std::vector<float> x(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>((i * 2654435761u) % 100000u);

  float *d_x, *d_vals;
  int *d_idx;
  CUDA_CHECK(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_vals, rows * K * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_idx, rows * K * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), x.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const int threads = 128, rowsPerBlock = threads / 32;
  topkRows<K><<<(rows + rowsPerBlock - 1) / rowsPerBlock, threads>>>(
      d_x, rows, cols, d_vals, d_idx);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> vals(rows * K);
  CUDA_CHECK(cudaMemcpy(vals.data(), d_vals, vals.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("topk: row 0 = %.0f %.0f %.0f %.0f %.0f\n", vals[0], vals[1], vals[2],
         vals[3], vals[4]);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_vals));
  CUDA_CHECK(cudaFree(d_idx));
  return 0;
}
