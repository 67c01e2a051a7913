// Batched tiled matrix product, templated on the element type and the tile
// size; blockIdx.z selects the matrix of the batch.
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

template <typename T, int TILE>
__global__ void batchedMatmul(const T *A, const T *B, T *C, int M, int N,
                              int K) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const T *Ab = A + static_cast<size_t>(blockIdx.z) * M * K;
  const T *Bb = B + static_cast<size_t>(blockIdx.z) * K * N;
  T *Cb = C + static_cast<size_t>(blockIdx.z) * M * N;

  T acc = T(0);
  for (int t = 0; t < K; t += TILE) {
    const int aCol = t + tx;
    const int bRow = t + ty;
    // Only the K extent is checked: in the last partial tiles, rows of A past
    // M and columns of B past N are loaded (from the next matrix of the
    // batch, or past the end of the last one).
    if (aCol < K)
      As[ty][tx] = Ab[row * K + aCol]; // BUG: cuda-unchecked-index
    else
      As[ty][tx] = T(0);
    if (bRow < K)
      Bs[ty][tx] = Bb[bRow * N + col]; // BUG: cuda-unchecked-index
    else
      Bs[ty][tx] = T(0);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    Cb[row * N + col] = acc;
}

template <typename T, int TILE>
static void run(int batch, int M, int N, int K) {
  std::vector<T> hA(static_cast<size_t>(batch) * M * K, T(1));
  std::vector<T> hB(static_cast<size_t>(batch) * K * N, T(2));
  T *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dB, hB.size() * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dC, static_cast<size_t>(batch) * M * N * sizeof(T)));
  CUDA_CHECK(
      cudaMemcpy(dA, hA.data(), hA.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(dB, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, batch);
  batchedMatmul<T, TILE><<<grid, block>>>(dA, dB, dC, M, N, K);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  T first;
  CUDA_CHECK(cudaMemcpy(&first, dC, sizeof(T), cudaMemcpyDeviceToHost));
  printf("batched_matmul: C[0] = %g (expected %d)\n", (double)first, 2 * K);
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
}

int main() {
  run<float, 16>(4, 100, 70, 45);
  run<double, 8>(3, 31, 17, 29);
  return 0;
}
