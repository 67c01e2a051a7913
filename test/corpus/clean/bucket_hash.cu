// Hash partitioning: every key goes to bucket hash(key) % numBuckets, and the
// bucket sizes are counted with atomics. The bucket count scales with the
// input and is at least one.
#include <algorithm>
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

__device__ __forceinline__ unsigned hash32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__global__ void assignBuckets(const unsigned *keys, unsigned n,
                              unsigned numBuckets, unsigned *bucketOf,
                              unsigned *bucketSize) {
  if (numBuckets == 0u)
    return;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned b = hash32(keys[i]) % numBuckets;
    bucketOf[i] = b;
    atomicAdd(&bucketSize[b], 1u);
  }
}

int main() {
  const unsigned n = 1000; // a small batch
  const unsigned numBuckets = std::max(1u, n / 1024u);
  std::vector<unsigned> keys(n);
  for (unsigned i = 0; i < n; ++i)
    keys[i] = i * 2654435761u;

  unsigned *d_keys, *d_bucketOf, *d_size;
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_bucketOf, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_size, numBuckets * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_size, 0, numBuckets * sizeof(unsigned)));

  assignBuckets<<<(n + 255) / 256, 256>>>(d_keys, n, numBuckets, d_bucketOf,
                                          d_size);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> size(numBuckets);
  CUDA_CHECK(cudaMemcpy(size.data(), d_size, numBuckets * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  printf("buckets: %u buckets, first holds %u keys\n", numBuckets, size[0]);
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_bucketOf));
  CUDA_CHECK(cudaFree(d_size));
  return 0;
}
