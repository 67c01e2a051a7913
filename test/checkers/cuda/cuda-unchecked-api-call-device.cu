// The device runtime of dynamic parallelism returns statuses too, but
// device code seldom checks them. A dropped one is reported where the
// file's device code reads a status elsewhere (DEVICE_CHECKS), or where a
// failed allocation leaves a pointer unset for the code after it; the
// strict profile reports every drop. Launches from device code need
// relocatable device code, which gpuguard assumes and clang-tidy is told
// (-fgpu-rdc).
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- -- %cuda_mock_flags -fgpu-rdc
// RUN: %check_gpuguard --check-suffixes=,CHECKS %s cuda-unchecked-api-call %t.strict -- --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags -fgpu-rdc
// RUN: %check_gpuguard --check-suffixes=,CHECKS %s cuda-unchecked-api-call %t.checks -- -- %cuda_mock_flags -fgpu-rdc -DDEVICE_CHECKS

#include <cuda_runtime.h>

__global__ void child(float *data, int n) {}

// Child launches on streams of their own (the quicksort samples): a failed
// stream creation sends them to an invalid stream.
__global__ void parent(float *data, int n) {
  cudaStream_t left, right;
  cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking);
  // CHECK-NOTES-CHECKS: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaStreamCreateWithFlags' is discarded [cuda-unchecked-api-call]
  cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking);
  // CHECK-NOTES-CHECKS: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaStreamCreateWithFlags' is discarded [cuda-unchecked-api-call]
  child<<<1, 32, 0, left>>>(data, n / 2);
  child<<<1, 32, 0, right>>>(data + n / 2, n - n / 2);
  cudaStreamDestroy(left);
  cudaStreamDestroy(right);
}

// A device-side allocation that fails leaves the pointer unset, and the
// child writes through it (the Bezier tessellation sample).
struct Line {
  float *points;
  int count;
};
__global__ void fill(Line *line) {}
__global__ void tessellate(Line *lines, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cudaMalloc((void **)&lines[i].points, lines[i].count * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  fill<<<1, 32>>>(&lines[i]);
}

#ifdef DEVICE_CHECKS
// Device code that checks a status elsewhere: its author expects failures.
__global__ void checkedCopy(float *to, const float *from, int n) {
  if (cudaMemcpyAsync(to, from, n * sizeof(float), cudaMemcpyDeviceToDevice) !=
      cudaSuccess)
    return;
}
#endif
