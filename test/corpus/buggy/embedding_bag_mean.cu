// EmbeddingBag in mean mode: bag b averages the rows of the table named by
// indices[offsets[b] .. offsets[b + 1]). Ids outside the vocabulary are
// skipped, and an empty bag gives a zero vector.
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

// One block per bag (gridDim.x == numBags); the threads walk the dimension.
__global__ void embeddingBagMean(const int *indices, const int *offsets,
                                 int numBags, int numIndices,
                                 const float *table, int vocab, int dim,
                                 float *out) {
  const int bag = blockIdx.x;
  const int begin = offsets[bag];
  const int end = bag + 1 < numBags ? offsets[bag + 1] : numIndices;
  for (int d = threadIdx.x; d < dim; d += blockDim.x) {
    float sum = 0.0f;
    for (int k = begin; k < end; ++k) {
      const int id = indices[k];
      if (id < 0 || id >= vocab)
        continue;
      sum += table[static_cast<size_t>(id) * dim + d];
    }
    // Empty bags (every fifth) have end == begin: 0 / 0 = NaN.
    const float mean = sum / (end - begin); // BUG: cuda-div-by-zero
    out[static_cast<size_t>(bag) * dim + d] = mean;
  }
}

int main() {
  const int vocab = 50000, dim = 64, numBags = 512;
  std::vector<int> offsets(numBags), indices;
  for (int b = 0; b < numBags; ++b) {
    offsets[b] = static_cast<int>(indices.size());
    for (int k = 0; k < b % 5; ++k) // bags 0, 5, 10, ... are empty
      indices.push_back((b * 131 + k * 17) % vocab);
  }
  const int numIndices = static_cast<int>(indices.size());
  std::vector<float> table(static_cast<size_t>(vocab) * dim, 1.0f);

  int *d_indices, *d_offsets;
  float *d_table, *d_out;
  CUDA_CHECK(cudaMalloc(&d_indices, numIndices * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_offsets, numBags * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_table, table.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, numBags * dim * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_indices, indices.data(), numIndices * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_offsets, offsets.data(), numBags * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  embeddingBagMean<<<numBags, 64>>>(d_indices, d_offsets, numBags, numIndices,
                                    d_table, vocab, dim, d_out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> out(numBags * dim);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("embedding_bag: bag 0 = %.1f, bag 1 = %.1f\n", out[0], out[dim]);
  CUDA_CHECK(cudaFree(d_indices));
  CUDA_CHECK(cudaFree(d_offsets));
  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
