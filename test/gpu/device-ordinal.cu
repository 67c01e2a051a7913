// On a GPU: a device ordinal past the GPUs the process sees is reported at
// the cudaSetDevice that names it, with the count and the rank variables
// that chose it; the program still gets cudaErrorInvalidDevice, and a
// device that exists is made current without a word.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: env LOCAL_RANK=0 RANK=64 %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"

#include <gpuguard/rt.h>

#include <cstdio>

int main() {
  // Unbuffered, so that the output keeps the order of the runtime's lines.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  cudaError_t Result = ::gpuguard::rt::cudaSetDevice(64);
  // CHECK: device-ordinal.cu:[[@LINE-1]]:0: runtime error: 'cudaSetDevice' names device 64 and this process sees {{[1-9][0-9]*}} GPU(s) ({{.*}}LOCAL_RANK=0; RANK=64) [cuda-unvalidated-device-ordinal]
  std::printf("missing: %s\n", cudaGetErrorName(Result));
  // CHECK-NEXT: missing: cudaErrorInvalidDevice
  (void)cudaGetLastError();
  Result = ::gpuguard::rt::cudaSetDevice(0);
  std::printf("first: %s\n", cudaGetErrorName(Result));
  // CHECK-NEXT: first: cudaSuccess
  // CHECK-NEXT: SUMMARY: gpuguard: 1 runtime error(s) at 1 site(s)
  return 0;
}
