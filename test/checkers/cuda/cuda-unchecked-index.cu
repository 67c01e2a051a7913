// The default profile reports an index only with evidence that it goes
// out of bounds; the strict profile also reports the unproven ones.
// RUN: %check_gpuguard %s cuda-unchecked-index %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-index %t.strict -- --config="{CheckOptions: {cuda-unchecked-index.Strict: true}}" -- %cuda_mock_flags

#include <assert.h>
#include <cuda_runtime.h>

// ---- No guard at all -------------------------------------------------------

__global__ void noGuard(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: the same index reaches 'in[i]' here
}

// An offset index with no guard anywhere: nothing is "the guard on 'i'".
__global__ void noGuardWithOffset(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 0;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'p[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  p[i + 1] = 1;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i + 1' of 'p[i + 1]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

__global__ void inlineIndex(float *out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the index of 'out[blockIdx.x * blockDim.x + threadIdx.x]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
}

__global__ void pointerArithmetic(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  *(out + i) = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of '*(out + i)' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+1]]:7: note: 'i' is compared with a bound here, which does not hold at this access
  if (i < n)
    *(out + i) = 2.0f;
}

// ---- if (i < n) ------------------------------------------------------------

__global__ void ifGuard(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

__global__ void ifGuardReversed(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i)
    out[i] = 1.0f;
}

__global__ void accessAfterTheGuardedBlock(float *out, float *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
  aux[i] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'aux[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is compared with a bound here, which does not hold at this access
}

__global__ void guardOnOnePathOnly(float *out, int n, bool checked) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (checked && i >= n)
    return;
  out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'i' is compared with a bound here, which does not hold at this access
}

__global__ void wholeExpressionGuard(float *out, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// ---- if (i < n && j < m) ---------------------------------------------------

__global__ void conjunction(float *c, int rows, int cols) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && col < cols)
    c[row * cols + col] = 0.0f;
}

__global__ void conjunctionMissingADimension(float *c, int rows, int cols) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    c[row * cols + col] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: 'col' in the index of 'c[row * cols + col]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'col' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

__global__ void disjunctionOnTheFalseEdge(float *c, int rows, int cols) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows || col >= cols)
    return;
  c[row * cols + col] = 0.0f;
}

__global__ void disjunctionOnTheTrueEdge(float *c, int rows, int cols) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows || col < cols)
    c[row * cols + col] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: 'row' in the index of 'c[row * cols + col]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'row' is computed here from 'blockIdx.y', 'blockDim.y' and 'threadIdx.y'
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'col' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

// ---- Early exits -----------------------------------------------------------

__global__ void earlyReturn(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[i];
}

__global__ void earlyReturnNegated(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!(i < n))
    return;
  out[i] = 1.0f;
}

__global__ void earlyContinue(float *out, const int *offsets, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rows; ++r) {
    int j = i + offsets[r];
    if (j >= n)
      continue;
    out[j] = 1.0f;
  }
}

__global__ void reassignedAfterTheExit(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  i += blockDim.x;
  out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'i' is compared with a bound here, which does not hold at this access
}

// Dividing a guarded index in place only brings it closer to 0: darknet's
// `x = id % w; id /= w;` keeps `id < n`. Adding to it does not.
__global__ void dividedInPlace(float *out, const float *scales, int n, int w) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n)
    return;
  int x = id % w;
  id /= w;
  id >>= 1;
  out[x] = scales[id];
  id += w;
  out[x] += scales[id];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: index 'id' of 'scales[id]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-10]]:7: note: 'id' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-10]]:7: note: 'id' is compared with a bound here, which does not hold at this access
}

// ---- Guards carried by a flag ----------------------------------------------

// A flag set only where the guard holds, or cleared where it fails.
__global__ void flagSetUnderTheGuard(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = false;
  if (i < n)
    inside = true;
  if (inside)
    out[i] = in[i];
}

__global__ void flagClearedPastTheEnd(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = true;
  if (i >= n)
    active = false;
  if (!active)
    return;
  out[i] = in[i];
}

__global__ void flagAssignedAGuard(float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = false;
  if (m > 0)
    inside = i < n;
  if (inside)
    out[i] = 1.0f;
}

// A guard kept in an integer flag, as C code writes it, inside the loop that
// computes what it tests.
__global__ void integerFlag(float *out, const float *in, int rows, int w,
                            int size) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= rows * w)
    return;
  int col = id % w;
  int row = id / w;
  int first = -(size / 2);
  float sum = 0.0f;
  for (int m = 0; m < size; ++m) {
    int c = first + col + m;
    int valid = (c >= 0 && c < w);
    sum += valid ? in[c + w * row] : 0;
  }
  out[id] = sum;
}

// True on a path with no guard, or stale once the index moves.
__global__ void flagTrueWithoutTheGuard(float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = true;
  if (m > 0)
    inside = i < n;
  if (inside)
    out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:14: note: 'i' is compared with a bound here, which does not hold at this access
}

__global__ void flagOfAnOldIndex(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = false;
  if (i < n)
    inside = true;
  i += 1;
  if (inside)
    out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'i' is compared with a bound here, which does not hold at this access
}

__device__ void setFlag(bool *flag);
__global__ void flagWhoseAddressIsTaken(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = false;
  if (i < n)
    inside = true;
  setFlag(&inside);
  if (inside)
    out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'i' is compared with a bound here, which does not hold at this access
}

// ---- Grid-stride loops -----------------------------------------------------

__global__ void gridStride(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

__global__ void gridStrideWhile(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    out[i] = 1.0f;
    i += stride;
  }
}

__global__ void gridStrideUpdatedBeforeTheAccess(float *out, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;) {
    i += stride;
    out[i] = 1.0f;
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  }
}

__global__ void doWhileTestsTooLate(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  do {
    out[i] = 1.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
    // CHECK-NOTES: :[[@LINE+2]]:12: note: 'i' is compared with a bound here, which does not hold at this access
    i += blockDim.x * gridDim.x;
  } while (i < n);
}

// ---- Ternaries -------------------------------------------------------------

__global__ void ternary(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i < n)
    out[i] = v;
}

__global__ void ternaryWrongBranch(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? 0.0f : in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:28: warning: index 'i' of 'in[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  out[0] = v;
}

__global__ void shortCircuit(int *flags, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f)
    flags[i] = 1;
}

// ---- Other bounds: assert, clamps, launch coordinates ----------------------

__global__ void asserted(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = 1.0f;
}

__global__ void clamped(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = min(i, n - 1);
  out[j] = 1.0f;
  out[i % n] = 2.0f;
}

__global__ void launchCoordinates(float *partial, const float *in, int n) {
  __shared__ float cache[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cache[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = cache[0];
}

__global__ void blockLocalIndexIntoGlobalMemory(float *out) {
  out[threadIdx.y * 32 + threadIdx.x] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the index of 'out[threadIdx.y * 32 + threadIdx.x]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
}

// ---- Host code and indexes that are not thread-dependent -------------------

__device__ float loadedIndex(const float *table, const int *ids, int i) {
  return table[ids[i]];
}

void hostLoop(float *out, int n) {
  for (int i = 0; i <= n; ++i)
    out[i] = 0.0f;
}

// ---- Suppression -----------------------------------------------------------

__global__ void suppressed(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f; // NOLINT(cuda-unchecked-index)
  // NOLINTNEXTLINE(cuda-unchecked-index)
  out[i + 1] = 1.0f;
}
