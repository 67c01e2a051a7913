// On a GPU: a kernel indexes past its bound; the check records it and the
// kernel continues with index 0, so the CUDA context survives. The report
// names the block and thread, and later work on the same context succeeds.
// A second program leaves a real illegal access unchecked: the error shows up
// at the next synchronisation and is reported at the launch.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"
// RUN: %nvcc -std=c++17 -DUNCHECKED_FAULT -I%runtime_include %s %runtime_cuda_lib -o %t.fault
// RUN: %t.fault 2>&1 | FileCheck %s --check-prefix=FAULT --implicit-check-not="runtime error"
// RUN: %nvcc -std=c++17 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: env GPUGUARD_OPTIONS=halt_on_error=1 not --crash %t 2>&1 | FileCheck %s --check-prefix=HALT

#include <gpuguard/rt.h>
#ifndef __CUDA_ARCH__
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/fill.cu", 5, 3, "fill", "cuda-unchecked-index", 1, -1, "i"},
    {"/src/fill.cu", 6, 3, "fill", "cuda-unchecked-index", 2, -1, "out"},
    {"/src/fill.cu", 20, 3, "main", "cuda-unchecked-launch", 11, -1, "fill"},
    {"/src/fill.cu", 30, 3, "main", "cuda-unchecked-launch", 11, -1,
     "fault"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0xf111ULL, gpuguard_sites_, 4,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);
#endif

#include <cstdio>

__global__ void fill(int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  // Thread 100 of 128 is the first past N = 100 in block 0.
  Out[::gpuguard::rt::checkIndex(I, N, ::gpuguard::rt::SiteRef{0xf111ULL, 0})] = 1;
  // The registry knows Out's 100 ints.
  Out[::gpuguard::rt::checkPointerIndex(Out, I, ::gpuguard::rt::SiteRef{0xf111ULL, 1})] += 1;
}

__global__ void fault(int *Out) { Out[1 << 30] = 1; }

int main() {
  const int N = 100;
  int *Out = nullptr;
  ::gpuguard::rt::cudaMalloc(&Out, N * sizeof(int));
#ifdef UNCHECKED_FAULT
  fault<<<1, 1>>>(Out);
  ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0xf111ULL, 3});
  cudaError_t Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::fprintf(stderr, "status %s\n", cudaGetErrorName(Status));
#else
  fill<<<2, 128>>>(Out, N);
  ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0xf111ULL, 2});
  cudaError_t Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::fprintf(stderr, "status %s\n", cudaGetErrorName(Status));
  // The context still works: copy back and check what the kernel wrote.
  int Host[N];
  Status = ::gpuguard::rt::cudaMemcpy(Host, Out, sizeof(Host),
                                      cudaMemcpyDeviceToHost);
  std::fprintf(stderr, "copy %s out[1] %d\n", cudaGetErrorName(Status),
               Host[1]);
  fill<<<1, 64>>>(Out, N);
  Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::fprintf(stderr, "again %s\n", cudaGetErrorName(Status));
#endif
  ::gpuguard::rt::cudaFree(Out);
  return 0;
}

// Threads 100..255 fail both checks: 156 records each.
// CHECK-DAG: /src/fill.cu:5:3: runtime error: index 'i' out of bounds (index {{1[0-9][0-9]|2[0-5][0-9]}}, bound 100) in kernel fill, block ({{[01]}},0,0) thread ({{[0-9]+}},0,0) [cuda-unchecked-index]
// CHECK-DAG: /src/fill.cu:6:3: runtime error: index 'out' outside its allocation (index {{1[0-9][0-9]|2[0-5][0-9]}}, extent 100 elements) in kernel fill, block ({{[01]}},0,0) thread ({{[0-9]+}},0,0) [cuda-unchecked-index]
// CHECK: status cudaSuccess
// CHECK: copy cudaSuccess out[1] 2
// CHECK: again cudaSuccess
// CHECK: SUMMARY: gpuguard: 312 runtime error(s) at 2 site(s){{$}}

// The error the device raises depends on where the address falls (an
// H100 says cudaErrorInvalidAddressSpace for this one).
// FAULT: /src/fill.cu:30:3: runtime error: kernel 'fault' failed asynchronously ([[ERROR:cudaError(IllegalAddress|InvalidAddressSpace)]]: {{[^,]+}}, found by cudaDeviceSynchronize) in main [cuda-unchecked-launch]
// FAULT: status [[ERROR]]
// FAULT: SUMMARY: gpuguard: 1 runtime error(s) at 1 site(s)

// HALT: /src/fill.cu:20:3: runtime error: kernel 'fill' failed asynchronously ({{cudaError[A-Za-z]+}}: {{.*}}, found by cudaDeviceSynchronize; a device check may have stopped it (halt_on_error=1)) in main [cuda-unchecked-launch]
