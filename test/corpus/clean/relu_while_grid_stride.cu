// In-place leaky ReLU over a large buffer: size_t indices and a grid-stride
// while loop, so one launch of a bounded grid covers any n.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void leakyReluInPlace(float *data, size_t n, float slope) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
  while (i < n) {
    const float v = data[i];
    data[i] = v > 0.0f ? v : slope * v;
    i += stride;
  }
}

__global__ void fillRamp(float *data, size_t n) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  while (i < n) {
    data[i] = static_cast<float>(i % 1000) - 500.0f;
    i += static_cast<size_t>(blockDim.x) * gridDim.x;
  }
}

int main() {
  const size_t n = 5000001;
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>(
      std::min<size_t>((n + threads - 1) / threads, 4096));

  float *d_data = nullptr;
  CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(float)));
  fillRamp<<<blocks, threads>>>(d_data, n);
  CUDA_CHECK(cudaGetLastError());
  leakyReluInPlace<<<blocks, threads>>>(d_data, n, 0.01f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float sample[4];
  CUDA_CHECK(
      cudaMemcpy(sample, d_data, sizeof(sample), cudaMemcpyDeviceToHost));
  printf("leaky_relu: %f %f %f %f\n", sample[0], sample[1], sample[2],
         sample[3]);
  CUDA_CHECK(cudaFree(d_data));
  return 0;
}
