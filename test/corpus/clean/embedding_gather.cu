// Embedding lookup: out[t] = table[ids[t]]. Token ids come from outside the
// kernel, so each is checked against the vocabulary before it indexes the
// table; a bad id yields a zero row and raises a flag the host reports.
#include <cstdint>
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

// blockDim is (32, 8): one warp per token, the warp's lanes walk the row.
__global__ void embeddingForward(const int64_t *ids, const float *table,
                                 float *out, int numTokens, int64_t vocab,
                                 int dim, int *badId) {
  const int t = blockIdx.x * blockDim.y + threadIdx.y;
  if (t >= numTokens)
    return;
  const int64_t id = ids[t];
  const size_t dst = static_cast<size_t>(t) * dim;
  if (id < 0 || id >= vocab) {
    if (threadIdx.x == 0)
      atomicExch(badId, 1);
    for (int c = threadIdx.x; c < dim; c += blockDim.x)
      out[dst + c] = 0.0f;
    return;
  }
  for (int c = threadIdx.x; c < dim; c += blockDim.x)
    out[dst + c] = table[id * dim + c];
}

int main() {
  const int64_t vocab = 32000;
  const int dim = 512, numTokens = 3001;
  std::vector<int64_t> ids(numTokens);
  for (int t = 0; t < numTokens; ++t)
    ids[t] = (t * 7919LL) % vocab;
  ids[42] = vocab; // an unknown token from a mismatched tokenizer

  int64_t *d_ids;
  float *d_table, *d_out;
  int *d_bad;
  CUDA_CHECK(cudaMalloc(&d_ids, numTokens * sizeof(int64_t)));
  CUDA_CHECK(cudaMalloc(&d_table, vocab * dim * sizeof(float)));
  CUDA_CHECK(
      cudaMalloc(&d_out, static_cast<size_t>(numTokens) * dim * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_bad, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_table, 0, vocab * dim * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_bad, 0, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_ids, ids.data(), numTokens * sizeof(int64_t),
                        cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const int blocks = (numTokens + block.y - 1) / block.y;
  embeddingForward<<<blocks, block>>>(d_ids, d_table, d_out, numTokens, vocab,
                                      dim, d_bad);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  int bad = 0;
  CUDA_CHECK(cudaMemcpy(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost));
  printf("embedding: %s\n", bad ? "some ids were out of range" : "ok");
  CUDA_CHECK(cudaFree(d_ids));
  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_bad));
  return 0;
}
