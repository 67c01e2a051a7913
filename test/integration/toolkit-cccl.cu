// CUDA 13 keeps libcu++, CUB and Thrust in include/cccl, which nvcc puts on
// the system include path (bin/nvcc.profile). gpuguard does too, so code that
// includes them, directly or through the toolkit's own headers
// (cooperative_groups), parses.
// REQUIRES: cuda-toolkit
// RUN: %gpuguard --checks='-*,cuda-unchecked-index' --config="{CheckOptions: {cuda-unchecked-index.Strict: true}}" --cuda-path=%cuda_path %s -- 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// CHECK: warning: index 'i' of 'out[i]' depends on the thread index

#include <cooperative_groups.h>
#include <cuda/std/type_traits>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void scale(float *out, const float *in, int n) {
  static_assert(cuda::std::is_floating_point<float>::value, "");
  cg::thread_block block = cg::this_thread_block();
  int i = block.group_index().x * block.group_dim().x + threadIdx.x;
  out[i] = in[i] * 2.0f;
}
