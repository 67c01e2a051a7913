// Host C++ that calls the CUDA runtime API through the runtime's wrappers.
#include <gpuguard/rt.h>

int main() {
  void *Buffer = nullptr;
  gpuguard::rt::checkApi(gpuguard::rt::cudaMalloc(&Buffer, 64),
                         gpuguard::rt::SiteRef{1, 0});
  gpuguard::rt::cudaFree(Buffer);
  return 0;
}
