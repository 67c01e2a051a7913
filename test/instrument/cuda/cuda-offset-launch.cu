// A launch that passes a pointer into the middle of an allocation with the
// whole allocation's count: the kernel's guard is right for what it is told,
// so the runtime checks the guarded access against the allocation its
// pointer points into, once however many launches are flagged. A kernel that
// no launch gets wrong keeps its access as written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuguard instrument -o %t/out %s -- %cuda_mock_flags > %t/out.txt 2>&1
// RUN: FileCheck %s --match-full-lines -DSRC=%s < %t/out%s
// RUN: FileCheck %s --check-prefix=NOTE -DSRC=%s < %t/out.txt

// NOTE: gpuguard: note: instrumented '[[SRC]]' with 1 runtime check(s) into '{{.*}}'

#include <cuda_runtime.h>

// CHECK: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// CHECK-NEXT:     {"[[SRC]]", 24, 5, "scaleFrom", "cuda-unchecked-index", 2, -1, "p[i]"},
// CHECK-NEXT: };
// CHECK: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// CHECK-NEXT:     0x[[KEY:[0-9a-f]{16}]]ULL, gpuguard_sites_, 1, 1);

__global__ void scaleFrom(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
// CHECK:     p[::gpuguard::rt::checkPointerIndex(p, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 0})] *= 2.0f;
}

__global__ void scaleAll(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
// CHECK:     p[i] *= 2.0f;
}

void run(int n, int skip) {
  float *d;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  scaleFrom<<<(n + 255) / 256, 256>>>(d + skip, n);
  scaleFrom<<<(n + 255) / 256, 256>>>(&d[skip], n);
  scaleAll<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
}
