// Softmax cross-entropy with ignore_index, one warp per sample. Targets equal
// to ignoreIndex contribute nothing; any other target outside [0, C) is an
// error the host reports. The mean is over the samples that count, and is
// zero when every target is ignored.
#include <cmath>
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

__global__ void crossEntropy(const float *logits, const int64_t *target,
                             int rows, int C, int64_t ignoreIndex,
                             float *lossSum, int *validCount, int *badTarget) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const int64_t t = target[row];
  if (t == ignoreIndex)
    return;
  if (t < 0 || t >= C) {
    if (lane == 0)
      atomicExch(badTarget, 1);
    return;
  }
  const size_t base = static_cast<size_t>(row) * C;
  float m = -INFINITY;
  for (int c = lane; c < C; c += 32)
    m = fmaxf(m, logits[base + c]);
  for (int offset = 16; offset > 0; offset >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += expf(logits[base + c] - m);
  for (int offset = 16; offset > 0; offset >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (lane == 0) {
    const float picked = logits[base + t];
    const float loss = m + logf(s) - picked;
    atomicAdd(lossSum, loss);
    atomicAdd(validCount, 1);
  }
}

__global__ void meanLoss(const float *lossSum, const int *validCount,
                         float *out) {
  const int count = *validCount;
  *out = count > 0 ? *lossSum / count : 0.0f;
}

int main() {
  const int rows = 2048, C = 1000;
  const int64_t ignoreIndex = -100;
  std::vector<float> logits(static_cast<size_t>(rows) * C, 0.0f);
  std::vector<int64_t> target(rows);
  for (int r = 0; r < rows; ++r)
    target[r] = r % 4 == 0 ? ignoreIndex : (r * 31) % C; // padding tokens

  float *d_logits, *d_sum, *d_mean;
  int64_t *d_target;
  int *d_count, *d_bad;
  CUDA_CHECK(cudaMalloc(&d_logits, logits.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_target, rows * sizeof(int64_t)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mean, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_bad, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_logits, logits.data(), logits.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_target, target.data(), rows * sizeof(int64_t),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(float)));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_bad, 0, sizeof(int)));

  const int threads = 256, blocks = (rows * 32 + threads - 1) / threads;
  crossEntropy<<<blocks, threads>>>(d_logits, d_target, rows, C, ignoreIndex,
                                    d_sum, d_count, d_bad);
  CUDA_CHECK(cudaGetLastError());
  meanLoss<<<1, 1>>>(d_sum, d_count, d_mean);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float mean = 0.0f;
  int bad = 0;
  CUDA_CHECK(cudaMemcpy(&mean, d_mean, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost));
  printf("cross_entropy: mean %f (log C = %f)%s\n", mean, logf(C),
         bad ? ", bad targets" : "");
  CUDA_CHECK(cudaFree(d_logits));
  CUDA_CHECK(cudaFree(d_target));
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_mean));
  CUDA_CHECK(cudaFree(d_count));
  CUDA_CHECK(cudaFree(d_bad));
  return 0;
}
