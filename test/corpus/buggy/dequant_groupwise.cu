// Group-wise int8 weight dequantisation: every groupSize consecutive weights
// share one float scale. The group size comes from the model configuration
// (inFeatures / numGroups) and is validated on the host and in the kernel.
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

// scales holds one entry per group: ceil(n / groupSize) entries.
__global__ void dequantize(const int8_t *q, const float *scales, float *w,
                           int n, int groupSize) {
  // groupSize is inFeatures / numGroups, which is 0 when a checkpoint has
  // more groups than input features; nothing checks it.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    w[i] = scales[i / groupSize] * q[i]; // BUG: cuda-div-by-zero (known miss: a ratio of two run-time sizes passed to the kernel)
}

int main(int argc, char **argv) {
  const int outFeatures = 4096, inFeatures = 4096;
  // The group count comes from the checkpoint's configuration.
  const int numGroups = argc > 1 ? std::atoi(argv[1]) : 32;
  const int groupSize = inFeatures / numGroups;
  const int n = outFeatures * inFeatures;
  const int numScales = n / groupSize;
  std::vector<int8_t> q(n);
  std::vector<float> scales(numScales, 0.01f);
  for (int i = 0; i < n; ++i)
    q[i] = static_cast<int8_t>(i % 255 - 127);

  int8_t *d_q;
  float *d_scales, *d_w;
  CUDA_CHECK(cudaMalloc(&d_q, n * sizeof(int8_t)));
  CUDA_CHECK(cudaMalloc(&d_scales, numScales * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_w, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_q, q.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_scales, scales.data(), numScales * sizeof(float),
                        cudaMemcpyHostToDevice));

  dequantize<<<1024, 256>>>(d_q, d_scales, d_w, n, groupSize);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float w0 = 0.0f;
  CUDA_CHECK(cudaMemcpy(&w0, d_w, sizeof(float), cudaMemcpyDeviceToHost));
  printf("dequantize: w[0] = %f\n", w0);
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_scales));
  CUDA_CHECK(cudaFree(d_w));
  return 0;
}
