// Row gather and scatter through an index array. Index entries come from
// the host and -1 means "no source": every entry is range-checked before it
// is used as an index.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK_CUDA(expr)                                                       \
  do {                                                                         \
    const cudaError_t status_ = (expr);                                        \
    if (status_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s failed at %s:%d: %s\n", #expr, __FILE__, __LINE__,   \
              cudaGetErrorString(status_));                                    \
      abort();                                                                 \
    }                                                                          \
  } while (0)

// out[i] = src[index[i]], or 0 when index[i] is outside [0, srcN).
__global__ void gather(const float *src, const int *index, float *out, int n,
                       int srcN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // Missing sources are marked -1, and the gather reads src[-1] for them.
    out[i] = src[index[i]]; // BUG: cuda-unchecked-index (CheckLoadedIndexes)
  }
}

// dst[index[i]] = src[i] for entries of index inside [0, dstN).
__global__ void scatter(const float *src, const int *index, float *dst, int n,
                        int dstN) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    const int j = index[i];
    if (j >= 0 && j < dstN)
      dst[j] = src[i];
  }
}

int main() {
  const int srcN = 5000, n = 4099;
  std::vector<float> src(srcN);
  std::vector<int> index(n);
  for (int i = 0; i < srcN; ++i)
    src[i] = static_cast<float>(i);
  for (int i = 0; i < n; ++i)
    index[i] = i % 10 == 9 ? -1 : (i * 13) % srcN; // every tenth is missing

  float *d_src, *d_out, *d_back;
  int *d_index;
  CHECK_CUDA(cudaMalloc(&d_src, srcN * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_back, srcN * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_index, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_src, src.data(), srcN * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_index, index.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_back, 0, srcN * sizeof(float)));

  gather<<<(n + 127) / 128, 128>>>(d_src, d_index, d_out, n, srcN);
  CHECK_CUDA(cudaGetLastError());
  scatter<<<8, 256>>>(d_out, d_index, d_back, n, srcN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> back(srcN);
  CHECK_CUDA(cudaMemcpy(back.data(), d_back, srcN * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("gather/scatter: back[13] = %.0f\n", back[13]);
  CHECK_CUDA(cudaFree(d_src));
  CHECK_CUDA(cudaFree(d_back));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_index));
  return 0;
}
