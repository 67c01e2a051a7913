// Every device check and every host wrapper, as `gpuguard instrument` writes
// them, compiles with nvcc 13 and with Clang 22 in CUDA mode (the toolkit's
// headers, and the mock headers with no toolkit at all).
//
// REQUIRES: nvcc, runtime-cuda
//
// RUN: %nvcc -std=c++17 -Werror all-warnings -I%runtime_include %s %runtime_cuda_lib -o %t
// RUN: %clangxx -x cuda --cuda-path=%cuda_path -nocudalib --cuda-gpu-arch=sm_80 \
// RUN:   -Xclang -target-sdk-version=12.9 -Wno-unknown-cuda-version -std=c++17 \
// RUN:   -Wall -Wextra -Werror -I%runtime_include -fsyntax-only %s
// RUN: %clangxx %cuda_mock_flags -Wno-unknown-cuda-version -std=c++17 -Wall -Wextra -Werror \
// RUN:   -I%runtime_include -include cuda_runtime.h -fsyntax-only %s
//
// The same with the checks disabled: the wrappers forward, nothing links
// the runtime.
// RUN: %nvcc -std=c++17 -DGPUGUARD_RT_DISABLE -I%runtime_include %s -o %t.disabled
//
// Without a GPU the CUDA calls fail: the checked ones are reported at their
// sites, and the program still ends normally with a summary.
// RUN: %if cuda-gpu %{ true %} %else %{ %t 2>&1 | FileCheck %s --check-prefix=NOGPU --implicit-check-not="runtime error" %}
// RUN: %if cuda-gpu %{ true %} %else %{ %t.disabled 2>&1 | FileCheck %s --check-prefix=NOGPU-DISABLED --allow-empty --implicit-check-not="runtime error" --implicit-check-not=SUMMARY %}

#include <gpuguard/rt.h>
#ifndef __CUDA_ARCH__
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/scatter.cu", 10, 3, "scatter", "cuda-unchecked-index", 1, -1, "i"},
    {"/src/scatter.cu", 11, 5, "scatter", "cuda-unchecked-index", 2, -1, "out"},
    {"/src/scatter.cu", 12, 9, "scatter", "cuda-div-by-zero", 3, -1, "n"},
    {"/src/scatter.cu", 13, 7, "scatter", "cuda-nan-to-index", 4, -1, "x"},
    {"/src/scatter.cu", 20, 3, "main", "cuda-unchecked-api-call", 10, -1,
     "cudaMalloc"},
    {"/src/scatter.cu", 25, 3, "main", "cuda-unchecked-launch", 11, -1,
     "scatter"},
    {"/src/scatter.cu", 26, 3, "main", "cuda-unchecked-api-call", 10, -1,
     "cudaDeviceSynchronize"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0x5ca7ULL, gpuguard_sites_, 7,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);
#endif

__global__ void scatter(float *Out, const float *In, const int *Ids, int N,
                        unsigned Divisor) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Id = Ids[::gpuguard::rt::checkIndex(I, N, ::gpuguard::rt::SiteRef{0x5ca7ULL, 0})];
  Out[::gpuguard::rt::checkPointerIndex(Out, Id, ::gpuguard::rt::SiteRef{0x5ca7ULL, 1})] +=
      In[I % N] / ::gpuguard::rt::checkDivisor(Divisor, ::gpuguard::rt::SiteRef{0x5ca7ULL, 2});
  Out[0] += static_cast<int>(::gpuguard::rt::checkFinite(In[0], ::gpuguard::rt::SiteRef{0x5ca7ULL, 3}));
  Out[1] += static_cast<long long>(::gpuguard::rt::checkFinite(static_cast<double>(In[1]), ::gpuguard::rt::SiteRef{0x5ca7ULL, 3}));
}

// The wrappers exist where the CUDA runtime API does (not in the mock
// headers).
#ifdef CUDART_VERSION
#define WRAPPED(Call) ::gpuguard::rt::Call
#else
#define WRAPPED(Call) ::Call
#endif

int main() {
  const int N = 256;
  float *Out = nullptr, *In = nullptr;
  int *Ids = nullptr;
  ::gpuguard::rt::checkApi(WRAPPED(cudaMalloc)(&Out, N * sizeof(float)), ::gpuguard::rt::SiteRef{0x5ca7ULL, 4});
#ifdef CUDART_VERSION
  ::gpuguard::rt::cudaMallocManaged(&In, N * sizeof(float));
  cudaStream_t Stream = nullptr;
  cudaStreamCreate(&Stream);
  ::gpuguard::rt::cudaMallocAsync(&Ids, N * sizeof(int), Stream);
  void *Raw = nullptr;
  ::gpuguard::rt::cudaMallocAsync(&Raw, 64, Stream);
  ::gpuguard::rt::cudaMemcpy(Ids, Ids, N * sizeof(int), cudaMemcpyDeviceToDevice);
#endif
  (::gpuguard::rt::beforeLaunch(), scatter<<<2, 128>>>(Out, In, Ids, N, 3u));
  ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x5ca7ULL, 5});
  ::gpuguard::rt::checkApi(WRAPPED(cudaDeviceSynchronize)(), ::gpuguard::rt::SiteRef{0x5ca7ULL, 6});
#ifdef CUDART_VERSION
  ::gpuguard::rt::cudaStreamSynchronize(Stream);
  cudaEvent_t Event = nullptr;
  cudaEventCreate(&Event);
  ::gpuguard::rt::cudaEventSynchronize(Event);
  ::gpuguard::rt::cudaFreeAsync(Raw, Stream);
  ::gpuguard::rt::cudaFreeAsync(Ids, Stream);
  ::gpuguard::rt::cudaFree(In);
  ::gpuguard::rt::cudaFree(Out);
#endif
  ::gpuguard::rt::drain();
  return 0;
}

// NOGPU: /src/scatter.cu:20:3: runtime error: CUDA call 'cudaMalloc' failed ({{cudaError[A-Za-z]+}}: {{.*}}) in main [cuda-unchecked-api-call]
// NOGPU: /src/scatter.cu:25:3: runtime error: kernel launch 'scatter' failed ({{cudaError[A-Za-z]+}}: {{.*}}) in main [cuda-unchecked-launch]
// NOGPU: /src/scatter.cu:26:3: runtime error: CUDA call 'cudaDeviceSynchronize' failed ({{cudaError[A-Za-z]+}}: {{.*}}) in main [cuda-unchecked-api-call]
// NOGPU: SUMMARY: gpuguard: 3 runtime error(s) at 3 site(s)

// NOGPU-DISABLED-NOT: {{.}}
