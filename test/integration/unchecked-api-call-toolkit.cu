// cuda-unchecked-api-call with the installed CUDA toolkit's own headers, where
// cudaError_t is a typedef of an enum, API functions are declared
// `extern __host__ __cudart_builtin__ cudaError_t CUDARTAPI`, and macros
// rename some of them (cuMemFree_v2, and with per-thread default streams,
// cudaMemcpy_ptds): findings name the functions as they are written.
// Teardown results are checked here (CheckTeardownResults), so that the
// renamed cuMemFree_v2 shows, in the strict profile, which reports every
// site the analysis sees.
// REQUIRES: cuda-toolkit
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- --cuda-path=%cuda_path --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true, cuda-unchecked-api-call.CheckTeardownResults: true}}" --
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t.ptds -- --cuda-path=%cuda_path --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true, cuda-unchecked-api-call.CheckTeardownResults: true}}" -- -DCUDA_API_PER_THREAD_DEFAULT_STREAM

#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err));                                        \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void scale(float *out, const float *in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

void unchecked(float *d, float *h, int n, cudaStream_t stream) {
  cudaMalloc(&d, n * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  scale<<<(n + 255) / 256, 256, 0, stream>>>(d, d, 2.0f, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the kernel's errors surface here instead, in the result of 'cudaMemcpy'
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: the 'cudaError_t' result of 'cudaMemcpy' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  scale<<<(n + 255) / 256, 256, 0, stream>>>(d, d, 2.0f, n);
  cudaGetLastError();
  CUDA_CHECK(cudaStreamSynchronize(stream));
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: the result of 'cudaStreamSynchronize' reports the kernel's faults, but not a launch rejected for its configuration
  // CHECK-NOTES: :[[@LINE-4]]:3: warning: the 'cudaError_t' result of 'cudaGetLastError' is discarded, so the launch error it reports is lost [cuda-unchecked-api-call]
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaFree' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
}

void uncheckedDriver(CUdeviceptr ptr) {
  cuMemFree(ptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'CUresult' result of 'cuMemFree' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  cuCtxSynchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'CUresult' result of 'cuCtxSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  if (cuMemFree(ptr) != CUDA_SUCCESS || cuCtxSynchronize() != CUDA_SUCCESS)
    exit(EXIT_FAILURE);
}

void launchAtTheEnd(float *d, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, d, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the function returns here with the launch unchecked
}

int checked() {
  const int n = 1000;
  float *in = nullptr, *out = nullptr, *h = nullptr;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, n * sizeof(float)) != cudaSuccess)
    return 1;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  for (int pass = 0; pass < 4; ++pass) {
    scale<<<(n + 255) / 256, 256, 0, stream>>>(out, in, 2.0f, n);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaMemcpyAsync(h, out, n * sizeof(float), cudaMemcpyDeviceToHost,
                             stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  scale<<<(n + 255) / 256, 256>>>(out, in, 2.0f, n);
  if (cudaPeekAtLastError() != cudaSuccess)
    return 1;
  cudaError_t status = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(status));
  (void)cudaFreeHost(h);
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return 0;
}
