// What the device checks cost a kernel that passes them: the same
// memory-bound kernel plain, with an index check per access, and with a
// pointer check per access (a binary search of the allocation table, with 3
// and with 1,000 live allocations). Timed with CUDA events, the median of
// several runs each, printed as ratios to the plain kernel side by side.
//
//   nvcc -O3 -std=c++17 -I runtime/include bench/gpu_overhead.cu \
//     <build>/lib/libgpuguard_runtime_cuda.a \
//     <build>/lib/libgpuguard_runtime_reporter.a -lpthread -o gpu_overhead
//   ./gpu_overhead
#include <gpuguard/rt.h>
#ifndef __CUDA_ARCH__
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"bench/gpu_overhead.cu", 1, 1, "indexChecked", "cuda-unchecked-index", 1,
     -1, "i"},
    {"bench/gpu_overhead.cu", 2, 1, "pointerChecked", "cuda-unchecked-index",
     2, -1, "x[i]"},
    {"bench/gpu_overhead.cu", 3, 1, "pointerChecked", "cuda-unchecked-index",
     2, -1, "y[i]"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0xbe4cULL, gpuguard_sites_, 3,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);
#endif

#include <algorithm>
#include <cstdio>
#include <vector>

using ::gpuguard::rt::SiteRef;

__global__ void plain(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

__global__ void indexChecked(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Checked = ::gpuguard::rt::checkIndex(I, N, SiteRef{0xbe4cULL, 0});
  Y[Checked] = A * X[Checked] + Y[Checked];
}

__global__ void pointerChecked(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[::gpuguard::rt::checkPointerIndex(Y, I, SiteRef{0xbe4cULL, 2})] =
        A * X[::gpuguard::rt::checkPointerIndex(X, I, SiteRef{0xbe4cULL, 1})] +
        Y[I];
}

template <class Launch> static float medianMilliseconds(Launch Run) {
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  for (int Warm = 0; Warm < 3; ++Warm)
    Run();
  std::vector<float> Times;
  for (int Round = 0; Round < 9; ++Round) {
    cudaEventRecord(Start);
    for (int Repeat = 0; Repeat < 20; ++Repeat)
      Run();
    cudaEventRecord(Stop);
    cudaEventSynchronize(Stop);
    float Elapsed = 0;
    cudaEventElapsedTime(&Elapsed, Start, Stop);
    Times.push_back(Elapsed / 20);
  }
  std::sort(Times.begin(), Times.end());
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  return Times[Times.size() / 2];
}

int main() {
  const int N = 1 << 26;
  const int Threads = 256, Blocks = (N + Threads - 1) / Threads;
  float *X = nullptr, *Y = nullptr;
  ::gpuguard::rt::cudaMalloc(&X, N * sizeof(float));
  ::gpuguard::rt::cudaMalloc(&Y, N * sizeof(float));
  cudaMemset(X, 0, N * sizeof(float));
  cudaMemset(Y, 0, N * sizeof(float));
  const double Bytes = 3.0 * N * sizeof(float);

  auto Row = [&](const char *Name, float Ms, float Baseline) {
    std::printf("%-34s %8.3f ms %8.1f GB/s %6.3fx\n", Name, Ms,
                Bytes / Ms / 1e6, Ms / Baseline);
  };
  std::printf("saxpy over %d floats (%.0f MB moved per run), median of 9\n",
              N, Bytes / 1e6);
  float Plain = medianMilliseconds(
      [&] { plain<<<Blocks, Threads>>>(N, 2.0f, X, Y); });
  Row("plain (baseline)", Plain, Plain);
  Row("checkIndex", medianMilliseconds([&] {
        (::gpuguard::rt::beforeLaunch(),
         indexChecked<<<Blocks, Threads>>>(N, 2.0f, X, Y));
      }),
      Plain);
  Row("checkPointerIndex, 3 allocations", medianMilliseconds([&] {
        (::gpuguard::rt::beforeLaunch(),
         pointerChecked<<<Blocks, Threads>>>(N, 2.0f, X, Y));
      }),
      Plain);
  std::vector<void *> Others(998);
  for (void *&Other : Others)
    ::gpuguard::rt::cudaMalloc(&Other, 256);
  Row("checkPointerIndex, 1000 allocations", medianMilliseconds([&] {
        (::gpuguard::rt::beforeLaunch(),
         pointerChecked<<<Blocks, Threads>>>(N, 2.0f, X, Y));
      }),
      Plain);
  cudaError_t Status = ::gpuguard::rt::cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorName(Status));
  for (void *Other : Others)
    ::gpuguard::rt::cudaFree(Other);
  ::gpuguard::rt::cudaFree(X);
  ::gpuguard::rt::cudaFree(Y);
  return Status == cudaSuccess ? 0 : 1;
}
