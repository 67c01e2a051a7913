// A launcher whose callers are all in other files leaves its launch to
// them, unless the file's launchers check their own launches as a rule:
// then the one that does not is an oversight (bitsandbytes' ops.cu checks
// the launch in 18 of its 20 launchers). The strict profile reports every
// such launcher anyway.
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- -- %cuda_mock_flags
//
// Thin launchers that leave checks to their callers, beside the ones that
// check: no rule, nothing reported.
// RUN: %check_gpuguard --check-suffix=MIXED %s cuda-unchecked-api-call %t.mixed -- -- %cuda_mock_flags -DTHIN_LAUNCHERS

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      __builtin_trap();                                                        \
  } while (0)

__global__ void scale(float *d, int n) {}
template <typename T> __global__ void fill(T *d, T v, int n) {}

void quantize(float *d, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, n);
  CUDA_CHECK(cudaPeekAtLastError());
}

void dequantize(float *d, int n) {
  scale<<<(n + 1023) / 1024, 1024>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
}

template <typename T> void fillAll(T *d, T v, int n) {
  fill<<<(n + 255) / 256, 256>>>(d, v, n);
  CUDA_CHECK(cudaPeekAtLastError());
}
template void fillAll<float>(float *, float, int);
template void fillAll<int>(int *, int, int);

void clip(float *d, int n, bool small) {
  if (small)
    scale<<<1, 256>>>(d, n);
  else
    scale<<<(n + 255) / 256, 256>>>(d, n);
  CUDA_CHECK(cudaPeekAtLastError());
}

#ifndef THIN_LAUNCHERS
void gemm(float *d, int n) {
  scale<<<(n + 159) / 160, 160>>>(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE+2]]:1: note: the function returns here with the launch unchecked
  // CHECK-NOTES: :[[@LINE-30]]:6: note: 4 of the 5 functions in this file that launch kernels check their launches before they return, as 'quantize' does
}
#else
// CHECK-NOTES-MIXED-NOT: warning:
void gemm(float *d, int n) { scale<<<(n + 159) / 160, 160>>>(d, n); }
void gemv(float *d, int n) { scale<<<(n + 255) / 256, 256>>>(d, n); }
#endif
