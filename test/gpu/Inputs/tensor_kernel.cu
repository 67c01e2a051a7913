// A kernel that writes one float per thread through a raw pointer, as
// extension code does with `t.data_ptr<float>()`; instrumented by hand the
// way `gpuguard instrument` writes a pointer check. Built by nvcc without
// LibTorch's headers and linked into tensor-memory-cuda.cpp.
#include <gpuguard/rt.h>
#ifndef __CUDA_ARCH__
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/ext.cu", 7, 3, "fillOnes", "cuda-unchecked-index", 2, -1,
     "data[i]"},
    {"/src/ext.cu", 12, 3, "launchFillOnes", "cuda-unchecked-launch", 11, -1,
     "fillOnes"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0x7e45ULL, gpuguard_sites_, 2,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);
#endif

__global__ void fillOnes(float *Data) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Data[::gpuguard::rt::checkPointerIndex(
      Data, I, ::gpuguard::rt::SiteRef{0x7e45ULL, 0})] = 1.0f;
}

void launchFillOnes(float *Data, int Blocks, int Threads) {
  (::gpuguard::rt::beforeLaunch(), fillOnes<<<Blocks, Threads>>>(Data));
  ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x7e45ULL, 1});
  ::gpuguard::rt::cudaDeviceSynchronize();
}
