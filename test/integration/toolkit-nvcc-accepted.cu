// Three constructs that nvcc compiles and Clang rejects, as CUDA's own samples
// write them: a `__shared__ cuda::barrier` (nvcc warns that it does not run
// the constructor; the code calls init() itself), `%globaltimer` in inline
// assembly with one `%` (nvcc passes it to ptxas), and asm operands with no
// comma between them (nvcc reads them as a list). gpuguard checks the file:
// no compile error, exit code 0, and the kernel beside them analysed. With
// the compiler's warnings enabled, all three are warnings.
// REQUIRES: cuda-toolkit
// RUN: %gpuguard --checks='-*,cuda-unchecked-index' --cuda-path=%cuda_path %s -- -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=clang-diagnostic
// CHECK: toolkit-nvcc-accepted.cu:[[@LINE+37]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
// RUN: %gpuguard --quiet --checks='-*,cuda-unchecked-index,clang-diagnostic-*' --cuda-path=%cuda_path %s -- -std=c++17 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARNINGS --implicit-check-not=error:
// WARNINGS-DAG: toolkit-nvcc-accepted.cu:[[@LINE+18]]:{{[0-9]+}}: warning: initialization is not supported for __shared__ variables [clang-diagnostic-warning]
// WARNINGS-DAG: toolkit-nvcc-accepted.cu:[[@LINE+27]]:{{[0-9]+}}: warning: invalid % escape in inline assembly string [clang-diagnostic-warning]
// WARNINGS-DAG: toolkit-nvcc-accepted.cu:[[@LINE+41]]:66: warning: expected ')' [clang-diagnostic-warning]
// WARNINGS-DAG: warning: index 'i' of 'out[i]'
//
// Any other compile error still makes the file one that was not checked.
// RUN: sed -e 's/return t;/return t/' %s > %t.cu
// RUN: %expect_exit 3 %gpuguard --quiet --checks='-*,cuda-unchecked-index' --cuda-path=%cuda_path %t.cu -- -std=c++17 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: error: expected ';' after return statement
// The same "expected ')'" outside the operands of an asm statement.
// RUN: sed -e 's/arrive<<<1, 32>>>(data);/arrive<<<1, 32>>>((data) "x");/' %s > %t2.cu
// RUN: %expect_exit 3 %gpuguard --quiet --checks='-*,cuda-unchecked-index' --cuda-path=%cuda_path %t2.cu -- -std=c++17 2>&1 | FileCheck %s --check-prefix=BROKEN2
// BROKEN2: error: expected ')'

#include <cuda/barrier>
#include <cuda_runtime.h>

__global__ void arrive(float *data) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  data[threadIdx.x] += 1.0f;
  bar.arrive_and_wait();
}

__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void stamp(unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = now();
}

void run(float *data, unsigned long long *out, int n) {
  arrive<<<1, 32>>>(data);
  stamp<<<(n + 255) / 256, 256>>>(out, n);
}

__device__ void release(unsigned char *flag, unsigned int value) {
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(value) "l"(flag) : "memory");
}
