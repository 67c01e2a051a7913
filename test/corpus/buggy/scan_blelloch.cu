// Work-efficient (Blelloch) exclusive scan of up to 2 * blockDim.x values in
// one block: an up-sweep builds partial sums in place, the root is cleared,
// and a down-sweep distributes them. Missing inputs are padded with zeros.
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

__global__ void blellochScan(const unsigned *in, unsigned *out, int n) {
  extern __shared__ unsigned temp[]; // 2 * blockDim.x entries
  const int tid = threadIdx.x;
  const int m = 2 * blockDim.x; // a power of two, at least n
  const int ai = tid;
  const int bi = tid + blockDim.x;
  temp[ai] = ai < n ? in[ai] : 0u;
  temp[bi] = bi < n ? in[bi] : 0u;

  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) { // up-sweep
    __syncthreads();
    if (tid < d) {
      const int a = offset * (2 * tid + 1) - 1;
      const int b = offset * (2 * tid + 2) - 1;
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[m - 1] = 0u;
  for (int d = 1; d < m; d *= 2) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int a = offset * (2 * tid + 1) - 1;
      const int b = offset * (2 * tid + 2) - 1;
      const unsigned t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (ai < n)
    out[ai] = temp[ai];
  if (bi < n)
    out[bi] = temp[bi];
}

int main() {
  const int n = 1000;
  const int threads = 512; // 2 * 512 >= n
  std::vector<unsigned> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = i % 3;

  unsigned *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  // The launch is not checked: if it is rejected (threads raised past the
  // block-size limit for a longer input), the synchronisation below still
  // succeeds and out is read uninitialised.
  const size_t smem = 2 * threads * sizeof(unsigned);
  blellochScan<<<1, threads, smem>>>( // BUG: cuda-unchecked-api-call (known miss: a checked synchronisation counts as the check; a rejected configuration is the strict profile's)
      d_in, d_out, n);
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  unsigned expected = 0;
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    errors += out[i] != expected;
    expected += h[i];
  }
  printf("blelloch scan: %d errors\n", errors);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
