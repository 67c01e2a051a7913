// `gpuguard instrument` and the runtime agree on each site kind: the value
// the instrumenter writes into the site table is the runtime's enumerator of
// that kind, the function it calls is the one the runtime declares for it,
// and the registration carries the runtime's site-table ABI version. The
// runtime's side is print_site_kinds.cpp compiled against <gpuguard/rt.h>;
// its lines define the FileCheck variables the instrumented copy must use.
// The copy then compiles against the runtime (every entry point resolves).
//
// REQUIRES: cuda-toolkit
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -std=c++17 -DGPUGUARD_RT_CUDA_HOST -isystem %cuda_path/include \
// RUN:   -I%runtime_include %S/Inputs/print_site_kinds.cpp -o %t/print-site-kinds
// RUN: %t/print-site-kinds > %t/kinds
// RUN: %gpuguard instrument --quiet --instrument=all -o %t/out %s -- %cuda_mock_flags > /dev/null 2>&1
// RUN: cat %t/kinds %t/out%s | FileCheck %s
// RUN: %clangxx -x cuda --cuda-path=%cuda_path -nocudalib --cuda-gpu-arch=sm_80 \
// RUN:   -Xclang -target-sdk-version=12.9 -Wno-unknown-cuda-version -std=c++17 \
// RUN:   -I%runtime_include -fsyntax-only %t/out%s

// CHECK: ABI [[#ABI:]]
// CHECK-NEXT: IndexBound [[#INDEX_BOUND:]] [[INDEX_BOUND_CALL:.*]]
// CHECK-NEXT: PointerBound [[#POINTER_BOUND:]] [[POINTER_BOUND_CALL:.*]]
// CHECK-NEXT: NonZeroDivisor [[#NON_ZERO_DIVISOR:]] [[NON_ZERO_DIVISOR_CALL:.*]]
// CHECK-NEXT: FiniteBeforeCast [[#FINITE_BEFORE_CAST:]] [[FINITE_BEFORE_CAST_CALL:.*]]
// CHECK-NEXT: ApiResult [[#API_RESULT:]] [[API_RESULT_CALL:.*]]
// CHECK-NEXT: KernelLaunch [[#KERNEL_LAUNCH:]] [[KERNEL_LAUNCH_CALL:.*]]
// CHECK: hook [[TENSOR_MEMORY_CALL:.*]]
// CHECK-NEXT: hook [[BEFORE_LAUNCH_CALL:.*]]
// CHECK-NEXT: wrapper {{.*}}cudaMalloc
// CHECK-NEXT: located [[AT:.*<]] [[MALLOC_WRAPPER:>::cudaMalloc]]

// CHECK: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// CHECK-NEXT: {{.*}}, "cuda-unchecked-index", [[#INDEX_BOUND]], -1, "out[i]"},
// CHECK-NEXT: {{.*}}, "cuda-unchecked-index", [[#POINTER_BOUND]], -1, "in[i]"},
// CHECK-NEXT: {{.*}}, "cuda-div-by-zero", [[#NON_ZERO_DIVISOR]], -1, "d"},
// CHECK-NEXT: {{.*}}, "cuda-div-by-zero", [[#FINITE_BEFORE_CAST]], -1, "t * n"},
// CHECK-NEXT: {{.*}}, "cuda-unchecked-api-call", [[#API_RESULT]], -1, "cudaMalloc"},
// CHECK-NEXT: {{.*}}, "cuda-unchecked-api-call", [[#KERNEL_LAUNCH]], -1, "kernel"},
// CHECK-NEXT: };
// CHECK-NEXT: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// CHECK-NEXT: 0x{{[0-9a-f]+}}ULL, gpuguard_sites_, 6, [[#ABI]]);

#include <cuda_runtime.h>

__global__ void kernel(float *out, const float *in, int n, int d, float x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = 0.0f;
// CHECK: out[[[INDEX_BOUND_CALL]]i, n, {{.*}})] = 0.0f;
  float v = in[i];
// CHECK: float v = in[[[POINTER_BOUND_CALL]]in, i, {{.*}})];
  int q = n / d;
// CHECK: int q = n / [[NON_ZERO_DIVISOR_CALL]]d, {{.*}});
  float t = x / (float)d;
  int c = (int)(t * n);
// CHECK: int c = (int)[[FINITE_BEFORE_CAST_CALL]](t * n), {{.*}});
  out[0] = v + q + c;
}

void host(float *out, const float *in, int n) {
  float *p;
  cudaMalloc(&p, 4);
// CHECK: [[API_RESULT_CALL]][[AT]][[#@LINE-1]][[MALLOC_WRAPPER]](&p, 4), {{.*}});
  kernel<<<1, 1>>>(out, in, n, 1, 0.0f);
// CHECK: ([[BEFORE_LAUNCH_CALL]]), (kernel<<<1, 1>>>(out, in, n, 1, 0.0f), [[KERNEL_LAUNCH_CALL]]{{.*}}));
}
