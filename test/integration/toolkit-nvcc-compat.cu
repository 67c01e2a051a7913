// Code that compiles with nvcc but not with Clang's CUDA headers alone:
// host min/max and isfinite from crt/math_functions.hpp, clock() and assert()
// with no include of their own (nvcc's crt/common_functions.h includes them),
// the cache-hinted stores of sm_32_intrinsics.h, and CUDA 12's cudaMemAdvise
// with a device number. gpuguard parses it whole, so the kernel below is
// checked instead of dropped with the file's compile errors.
// REQUIRES: cuda-toolkit
// RUN: %gpuguard --checks='-*,cuda-unchecked-index,clang-diagnostic-*' \
// RUN:   --cuda-path=%cuda_path %s -- 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

template <class T> bool allFinite(const T *values, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(values[i]))
      return false;
  return true;
}

__global__ void streamingStore(float *out, int4 *packed, const float *in,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __stcs(out + i, in[i]);
  __stcg(packed + i, make_int4(1, 2, 3, 4));
  float seen = __ldlu(in + i);
  out[i] = max(seen, 0.0f);
  if (i <= n - 1)
    out[i + 1] = min(i, n);
  // CHECK: :[[@LINE-1]]:5: warning: index 'i + 1' of 'out[i + 1]' is not covered by the guard on 'i'
}

int main() {
  clock_t start = clock();
  int blocks = max(1, 1000 / 256);
  float *data = nullptr;
  assert(blocks > 0);
  cudaMemAdvise(data, 4, cudaMemAdviseSetReadMostly, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemAdvise' is deprecated: CUDA 13 takes a cudaMemLocation here
  return allFinite(data, 0) + min(blocks, 2) + (int)(clock() - start);
}
