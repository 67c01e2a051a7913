// The options of cuda-unchecked-index, each on and off.
// RUN: %check_gpuguard --check-suffix=DEFAULT %s cuda-unchecked-index %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffix=LOADED %s cuda-unchecked-index %t -- --config="{CheckOptions: {cuda-unchecked-index.CheckLoadedIndexes: true}}" -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffix=NOFLOAT %s cuda-unchecked-index %t -- --config="{CheckOptions: {cuda-unchecked-index.CheckFloatIndexes: false}}" -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffix=BLOCK %s cuda-unchecked-index %t -- --config="{CheckOptions: {cuda-unchecked-index.CheckBlockLocalIndexes: true}}" -- %cuda_mock_flags

#include <cuda_runtime.h>

// Loaded indexes: never validated here, reported only with CheckLoadedIndexes.
__global__ void embeddingGather(float *out, const float *table, const int *ids,
                                int tokens, int dim) {
  int t = blockIdx.x;
  int c = threadIdx.x;
  if (t >= tokens || c >= dim)
    return;
  out[t * dim + c] = table[ids[t] * dim + c];
  // CHECK-MESSAGES-LOADED: :[[@LINE-1]]:22: warning: 'ids[t]' in the index of 'table[ids[t] * dim + c]' is loaded from memory and is not checked against a bound on every path [cuda-unchecked-index]
}

__global__ void embeddingGatherChecked(float *out, const float *table,
                                       const int *ids, int tokens, int dim,
                                       int vocab) {
  int t = blockIdx.x;
  int c = threadIdx.x;
  if (t >= tokens || c >= dim)
    return;
  int id = ids[t];
  if (id < 0 || id >= vocab)
    return;
  out[t * dim + c] = table[id * dim + c];
}

__global__ void embeddingGatherUpperOnly(float *out, const float *table,
                                         const int *ids, int tokens, int dim,
                                         int vocab) {
  int t = blockIdx.x;
  int c = threadIdx.x;
  if (t >= tokens || c >= dim)
    return;
  int id = ids[t];
  if (id >= vocab)
    return;
  out[t * dim + c] = table[id * dim + c];
  // CHECK-MESSAGES-LOADED: :[[@LINE-1]]:22: warning: 'id' in the index of 'table[id * dim + c]' is loaded from memory and is not checked against zero on every path [cuda-unchecked-index]
}

// Float-derived indexes: reported unless CheckFloatIndexes is false.
__global__ void binning(const float *x, int *hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[__float2int_rz(x[i] * bins)], 1);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:16: warning: the index of 'hist[__float2int_rz(x[i] * bins)]' is converted from floating point and is not bounded on every path; NaN or an out-of-range value becomes a garbage index [cuda-unchecked-index]
  // CHECK-MESSAGES-LOADED: :[[@LINE-2]]:16: warning: the index of 'hist[__float2int_rz(x[i] * bins)]' is converted from floating point
  // CHECK-MESSAGES-BLOCK: :[[@LINE-3]]:16: warning: the index of 'hist[__float2int_rz(x[i] * bins)]' is converted from floating point
}

// Block-local indexes into shared memory: trusted unless
// CheckBlockLocalIndexes is set.
__global__ void sharedStencil(float *out, const float *in, int n) {
  __shared__ float tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
  // CHECK-MESSAGES-BLOCK: :[[@LINE-1]]:3: warning: index 'threadIdx.x + 1' of 'tile[threadIdx.x + 1]' may pass the end: the launch bounds 'threadIdx.x', not 'threadIdx.x + 1' [cuda-unchecked-index]
  if (threadIdx.x < 256)
    tile[threadIdx.x + 1] += 1.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x + 1];
  // The same fault as the first store's: a note under its warning.
}
