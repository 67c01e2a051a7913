// Dot product templated on the element type and the block size: the block
// size is a compile-time constant, so the shared buffer and the unrolled
// tree are sized for it, and the host launches exactly BLOCK threads.
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

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    dotPartial(const T *a, const T *b, T *partial, int n) {
  static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");
  __shared__ T cache[BLOCK];
  T sum = T(0);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
    sum += a[i] * b[i];
  cache[threadIdx.x] = sum;
  __syncthreads();
#pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = cache[0];
}

template <typename T, int BLOCK> static T dot(const std::vector<T> &x) {
  const int n = static_cast<int>(x.size());
  const int blocks = 120;
  T *d_x, *d_partial;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  dotPartial<T, BLOCK><<<blocks, BLOCK>>>(d_x, d_x, d_partial, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<T> partial(blocks);
  CUDA_CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(T),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_partial));
  T total = T(0);
  for (T p : partial)
    total += p;
  return total;
}

int main() {
  std::vector<float> xf(100000, 0.5f);
  std::vector<double> xd(33333, 2.0);
  printf("dot<float, 256> = %.1f\n", dot<float, 256>(xf));
  printf("dot<double, 128> = %.1f\n", dot<double, 128>(xd));
  return 0;
}
