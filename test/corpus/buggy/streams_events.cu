// Overlapping copies and compute: the buffer is cut into chunks, and each
// chunk's upload, kernel and download go to one of several streams. Pinned
// host memory makes the copies asynchronous; events time the whole run.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void scaleOffset(float *data, int n, float scale, float offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * scale + offset;
}

int main() {
  const int kStreams = 4;
  const int n = 1 << 22, chunk = 1 << 20; // n is a multiple of chunk
  const int threads = 256;
  float *h = nullptr, *d = nullptr;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f;

  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  for (int c = 0; c * chunk < n; ++c) {
    cudaStream_t st = streams[c % kStreams];
    float *dp = d + static_cast<size_t>(c) * chunk;
    float *hp = h + static_cast<size_t>(c) * chunk;
    const size_t bytes = chunk * sizeof(float);
    // The upload is not checked: the kernel below runs on whatever a failed
    // copy left. The launch needs no check of its own: its configuration is
    // constant and valid, so its only errors are faults, which the checked
    // stream synchronisations below report.
    cudaMemcpyAsync(dp, hp, bytes, // BUG: cuda-unchecked-api-call
                    cudaMemcpyHostToDevice, st);
    const int grid = chunk / threads;
    scaleOffset<<<grid, threads, 0, st>>>(dp, chunk, 2.0f, 1.0f);
    CUDA_CHECK(cudaMemcpyAsync(hp, dp, bytes, cudaMemcpyDeviceToHost, st));
  }
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamSynchronize(streams[s]));
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  CUDA_CHECK(cudaEventSynchronize(stop));

  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("streams: h[0] = %.0f, h[n-1] = %.0f, %.3f ms\n", h[0], h[n - 1], ms);

  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(h));
  return 0;
}
