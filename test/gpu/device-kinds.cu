// On a GPU: every kind of device check records its values and lets the
// kernel go on; a site that fails in every thread takes one record and
// counts the rest, so a site that fails in a few threads of the same kernel
// is still reported; memory from the stream-ordered allocator is checked
// like any other.
//
// REQUIRES: cuda-gpu, nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not="runtime error"

#include <gpuguard/rt.h>
#ifndef __CUDA_ARCH__
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/kinds.cu", 10, 7, "scale", "cuda-div-by-zero", 3, -1, "count"},
    {"/src/kinds.cu", 11, 7, "scale", "cuda-nan-to-index", 4, -1, "x"},
    {"/src/kinds.cu", 20, 3, "spread", "cuda-unchecked-index", 1, -1, "i"},
    {"/src/kinds.cu", 30, 5, "readAsync", "cuda-unchecked-index", 2, -1,
     "data[i]"},
    {"/src/kinds.cu", 21, 3, "spread", "cuda-unchecked-index", 1, -1, "i"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0x6b1dULL, gpuguard_sites_, 5,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);
#endif

#include <cmath>
#include <cstdio>

using ::gpuguard::rt::SiteRef;

__global__ void scale(float *Out, const int *Counts, const float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  Out[I] = 1.0f / ::gpuguard::rt::checkDivisor(Counts[I], SiteRef{0x6b1dULL, 0});
  int Bin = static_cast<int>(
      ::gpuguard::rt::checkFinite(X[I], SiteRef{0x6b1dULL, 1}));
  Out[I] += Bin;
}

// Every thread fails the first check (a bound of 0); the last 192 threads
// fail the second too.
__global__ void spread(int *Out, int Bound, int Tail) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[::gpuguard::rt::checkIndex(I, Bound, SiteRef{0x6b1dULL, 2})] = 1;
  Out[::gpuguard::rt::checkIndex(I, Tail, SiteRef{0x6b1dULL, 4})] += 1;
}

__global__ void readAsync(const int *Data, int *Sum) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(Sum, Data[::gpuguard::rt::checkPointerIndex(
                     Data, I, SiteRef{0x6b1dULL, 3})]);
}

int main() {
  const int N = 32;
  float *Out = nullptr, *X = nullptr;
  int *Counts = nullptr;
  ::gpuguard::rt::cudaMallocManaged(&Out, N * sizeof(float));
  ::gpuguard::rt::cudaMallocManaged(&X, N * sizeof(float));
  ::gpuguard::rt::cudaMallocManaged(&Counts, N * sizeof(int));
  for (int I = 0; I < N; ++I) {
    Counts[I] = I == 5 ? 0 : 2;
    X[I] = I == 7 ? NAN : 1.5f;
  }
  (::gpuguard::rt::beforeLaunch(), scale<<<1, 64>>>(Out, Counts, X, N));
  cudaError_t Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::fprintf(stderr, "scale %s out[5] %g out[7] %g out[8] %g\n",
               cudaGetErrorName(Status), Out[5], Out[7], Out[8]);

  int *Cells = nullptr;
  ::gpuguard::rt::cudaMalloc(&Cells, 8192 * sizeof(int));
  (::gpuguard::rt::beforeLaunch(), spread<<<32, 256>>>(Cells, 0, 8000));
  Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::fprintf(stderr, "spread %s\n", cudaGetErrorName(Status));

  cudaStream_t Stream = nullptr;
  cudaStreamCreate(&Stream);
  int *Data = nullptr, *Sum = nullptr;
  ::gpuguard::rt::cudaMallocAsync(&Data, 64 * sizeof(int), Stream);
  ::gpuguard::rt::cudaMallocAsync(&Sum, sizeof(int), Stream);
  cudaMemsetAsync(Data, 0, 64 * sizeof(int), Stream);
  cudaMemsetAsync(Sum, 0, sizeof(int), Stream);
  (::gpuguard::rt::beforeLaunch(), readAsync<<<1, 96, 0, Stream>>>(Data, Sum));
  ::gpuguard::rt::cudaFreeAsync(Data, Stream);
  ::gpuguard::rt::cudaFreeAsync(Sum, Stream);
  Status = ::gpuguard::rt::cudaStreamSynchronize(Stream);
  std::fprintf(stderr, "async %s\n", cudaGetErrorName(Status));
  cudaStreamDestroy(Stream);
  ::gpuguard::rt::cudaFree(Cells);
  ::gpuguard::rt::cudaFree(Counts);
  ::gpuguard::rt::cudaFree(X);
  ::gpuguard::rt::cudaFree(Out);
  return 0;
}

// CHECK-DAG: /src/kinds.cu:10:7: runtime error: division by zero in 'count' (divisor 0) in kernel scale, block (0,0,0) thread (5,0,0) [cuda-div-by-zero]
// CHECK-DAG: /src/kinds.cu:11:7: runtime error: non-finite value 'x' before an integer cast (value {{-?nan|-?NaN}}) in kernel scale, block (0,0,0) thread (7,0,0) [cuda-nan-to-index]
// A divisor of 0 goes on as 1, a NaN as 0.
// CHECK: scale cudaSuccess out[5] 2 out[7] 0.5 out[8] 1.5
// CHECK-DAG: /src/kinds.cu:20:3: runtime error: index 'i' out of bounds (index {{[0-9]+}}, bound 0) in kernel spread, block ({{[0-9]+}},0,0) thread ({{[0-9]+}},0,0) [cuda-unchecked-index]
// CHECK-DAG: /src/kinds.cu:21:3: runtime error: index 'i' out of bounds (index {{80[0-9][0-9]|81[0-9][0-9]}}, bound 8000) in kernel spread, block (31,0,0) thread ({{6[4-9]|[7-9][0-9]|1[0-9][0-9]|2[0-5][0-9]}},0,0) [cuda-unchecked-index]
// CHECK: spread cudaSuccess
// Threads 64..95 read past the 64 ints.
// CHECK: /src/kinds.cu:30:5: runtime error: index 'data[i]' outside its allocation (index {{6[4-9]|[7-8][0-9]|9[0-5]}}, extent 64 elements) in kernel readAsync, block (0,0,0) thread ({{6[4-9]|[7-8][0-9]|9[0-5]}},0,0) [cuda-unchecked-index]
// CHECK: async cudaSuccess
// 2 in scale, 8192 + 192 in spread, 32 in readAsync: every failure counted,
// none dropped.
// CHECK: SUMMARY: gpuguard: 8418 runtime error(s) at 5 site(s){{$}}
