// Guard strength: a guard must bound the value actually used as the index,
// tightly enough, from above and (for decrements) from below.
// RUN: %check_gpuguard %s cuda-unchecked-index %t -- -- %cuda_mock_flags
// The strict profile also reports what has no evidence (the STRICT lines).
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-index %t.strict -- --config="{CheckOptions: {cuda-unchecked-index.Strict: true}}" -- %cuda_mock_flags

#include <assert.h>
#include <cuda_runtime.h>

#define GLOBAL_INDEX (blockIdx.x * blockDim.x + threadIdx.x)

// ---- One past the end: `j > n` exits and `<=` conditions --------------------

__global__ void exitLetsTheBoundThrough(float *out, int n) {
  int j = GLOBAL_INDEX;
  if (j > n)
    return;
  out[j] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the guard lets index 'j' of 'out[j]' reach 'n', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'j' can be equal to its bound past this guard
}

__global__ void exitExcludesTheBound(float *out, int n) {
  int j = GLOBAL_INDEX;
  if (j >= n)
    return;
  out[j] = 1.0f;
}

__global__ void loopConditionLetsTheBoundThrough(float *out, int n) {
  for (int i = GLOBAL_INDEX; i <= n; i += blockDim.x * gridDim.x)
    out[i] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: the guard lets index 'i' of 'out[i]' reach 'n', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'i' can be equal to its bound past this guard
}

__global__ void inclusiveBoundMinusOne(float *out, int n) {
  int i = GLOBAL_INDEX;
  if (i <= n - 1)
    out[i] = 0.0f;
  int last = n - 1;
  if (i > last)
    return;
  out[i] = 1.0f;
}

// ---- Offsets: a guard on i does not cover i + 1 or i + blockDim.x ----------

__global__ void neighbourAbove(float *out, const float *in, int n) {
  int i = GLOBAL_INDEX;
  if (i < n)
    out[i] = in[i + 1] - in[i];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index 'i + 1' of 'in[i + 1]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 1'
}

__global__ void neighbourAboveGuarded(float *out, const float *in, int n) {
  int i = GLOBAL_INDEX;
  if (i < n - 1)
    out[i] = in[i + 1] - in[i];
  if (i + 1 < n)
    out[i] = in[i + 1];
}

__global__ void twoElementsPerThread(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i + blockDim.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: index 'i + blockDim.x' of 'in[i + blockDim.x]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + blockDim.x'
  float second = i + blockDim.x < n ? in[i + blockDim.x] : 0.0f;
  if (i < n)
    out[i] += second;
}

// ---- Below zero: i - 1 at i == 0 -------------------------------------------

__global__ void neighbourBelow(float *out, const float *in, int n) {
  int i = GLOBAL_INDEX;
  if (i < n)
    out[i] = in[i] - in[i - 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: index 'i - 1' of 'in[i - 1]' is negative when 'i' is 0; no guard bounds 'i' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

__global__ void neighbourBelowGuarded(float *out, const float *in, int n) {
  int i = GLOBAL_INDEX;
  if (i > 0 && i < n)
    out[i] = in[i] - in[i - 1];
  if (i >= 2 && i < n)
    out[i] += in[i - 2];
}

__global__ void sharedHaloBelow(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = GLOBAL_INDEX;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] - tile[threadIdx.x - 1];
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: index 'threadIdx.x - 1' of 'tile[threadIdx.x - 1]' is negative when 'threadIdx.x' is 0; no guard bounds 'threadIdx.x' from below [cuda-unchecked-index]
  if (i < n && threadIdx.x > 0)
    out[i] = tile[threadIdx.x] - tile[threadIdx.x - 1];
}

// ---- Each dimension needs its own bound -------------------------------------

__global__ void volume(float *v, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny)
    v[(z * ny + y) * nx + x] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: 'z' in the index of 'v[(z * ny + y) * nx + x]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'z' is computed here from 'blockIdx.z', 'blockDim.z' and 'threadIdx.z'
  if (x < nx && y < ny && z < nz)
    v[(z * ny + y) * nx + x] = 1.0f;
}

struct Matrix {
  float *data;
  int rows, cols;
};

__global__ void boundsInStructFields(Matrix m) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m.rows && col < m.cols)
    m.data[row * m.cols + col] = 0.0f;
  if (row < m.rows)
    m.data[row * m.cols + col] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'col' in the index of 'm.data[row * m.cols + col]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'col' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-6]]:23: note: 'col' is compared with a bound here, which does not hold at this access
}

// ---- Guards through copies, locals, unsigned compares and clamps -----------

__global__ void guardInALocalBool(float *out, int n) {
  int i = GLOBAL_INDEX;
  bool inRange = i < n;
  if (inRange)
    out[i] = 0.0f;
  if (!inRange)
    return;
  out[i] = 1.0f;
}

__global__ void copiedAfterTheGuard(float *out, int n) {
  int i = GLOBAL_INDEX;
  if (i >= n)
    return;
  int j = i;
  out[j] = 0.0f;
}

__global__ void unsignedCompare(float *out, const int *offsets, int n) {
  int i = GLOBAL_INDEX + offsets[0];
  if ((unsigned)i < (unsigned)n)
    out[i] = 0.0f;
  unsigned u = GLOBAL_INDEX;
  if (u < (unsigned)n)
    out[u] = 1.0f;
}

__global__ void clamps(float *out, int n) {
  int i = GLOBAL_INDEX;
  int last = min(i, n - 1);
  out[last] = 0.0f;
  int atMost = min(i, n);
  out[atMost] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the guard lets index 'atMost' of 'out[atMost]' reach its bound, one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'atMost' can be equal to its bound past this guard
  out[max(0, min(i, n - 1))] = 2.0f;
}

__global__ void loopWithBreak(float *out, int n) {
  int i = GLOBAL_INDEX;
  for (;;) {
    if (i >= n)
      break;
    out[i] = 0.0f;
    i += blockDim.x * gridDim.x;
  }
}

// ---- Tiles: the column of a tile load in the last, partial tile ------------

#define TILE 16

__global__ void tiledMatmul(const float *a, const float *b, float *c, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    as[ty][tx] = row < n ? a[row * n + t * TILE + tx] : 0.0f;
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:28: warning: the tile column in the index of 'a[row * n + t * TILE + tx]' is not bounded by a guard on every path; in the last, partial tile it runs past the end [cuda-unchecked-index]
    bs[ty][tx] = (t * TILE + ty < n && col < n) ? b[(t * TILE + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = sum;
}

__global__ void tiledMatmulGuarded(const float *a, float *c, int n) {
  __shared__ float as[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    as[ty][tx] = (row < n && t * TILE + tx < n) ? a[row * n + t * TILE + tx] : 0.0f;
    int aCol = t * TILE + tx;
    as[ty][tx] = (row < n && aCol < n) ? a[row * n + aCol] : 0.0f;
    __syncthreads();
  }
  if (row < n)
    c[row * n + tx] = as[ty][tx];
}

// ---- Indexes converted from floating point ----------------------------------

__global__ void histogram(const float *x, int *hist, int n, int nbins) {
  int i = GLOBAL_INDEX;
  if (i >= n)
    return;
  int bin = (int)(x[i] * nbins);
  atomicAdd(&hist[bin], 1);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index 'bin' of 'hist[bin]' is converted from floating point and is not bounded on every path; NaN or an out-of-range value becomes a garbage index [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'bin' is computed here
  if (bin < nbins)
    atomicAdd(&hist[bin], 1);
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: index 'bin' of 'hist[bin]' is converted from floating point and is not bounded below on every path; NaN or a negative value becomes a garbage index [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'bin' is computed here
  if (bin >= 0 && bin < nbins)
    atomicAdd(&hist[bin], 1);
  int clamped = min(max(bin, 0), nbins - 1);
  atomicAdd(&hist[clamped], 1);
}

// ---- Guards in the caller of a __device__ helper ----------------------------

__device__ void storeAt(float *out, int idx, float value) { out[idx] = value; }

__device__ float loadNext(const float *in, int idx) { return in[idx + 1]; }

__device__ void storeChecked(float *out, int idx, int n, float value) {
  if (idx < n)
    out[idx] = value;
}

__global__ void helpers(float *out, const float *in, int n) {
  int i = GLOBAL_INDEX;
  storeAt(out, i, 1.0f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' passed to 'storeAt' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+2]]:7: note: 'i' is compared with a bound here, which does not hold at this access
  // CHECK-NOTES: :[[@LINE-15]]:61: note: 'storeAt' uses it as an index here, with no guard of its own
  if (i < n)
    storeAt(out, i, 2.0f);
  if (i < n)
    out[i] = loadNext(in, i);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index 'i + 1' of 'loadNext(in, i)' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 1'
  // CHECK-NOTES: :[[@LINE-20]]:62: note: 'loadNext' uses it as an index here, with no guard of its own
  storeChecked(out, i, n, 3.0f);
}

// ---- Guards computed by a helper, and arrays one longer than their bound ---

__device__ bool inRange(int i, int n) { return i >= 0 && i < n; }

__global__ void guardFromABoolHelper(float *out, int n) {
  int i = GLOBAL_INDEX;
  if (inRange(i, n))
    out[i] = 0.0f;
  if (!inRange(i, n))
    return;
  out[i + 1] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i + 1' of 'out[i + 1]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-10]]:58: note: guard here bounds 'i', not 'i + 1'
}

__global__ void csrRowPointers(const int *rowPtr, const float *val, float *y,
                               int rows) {
  int row = GLOBAL_INDEX;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = rowPtr[row]; j < rowPtr[row + 1]; ++j)
      sum += val[j];
    y[row] = sum;
  }
}

// ---- Loop counters added to a guarded index --------------------------------

__global__ void slidingWindow(const float *in, float *out, int n, int k) {
  int i = GLOBAL_INDEX;
  if (i >= n)
    return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j)
    sum += in[i + j];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: index 'i + j' of 'in[i + j]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: guard here bounds 'i', not 'i + j'
  out[i] = sum;
}

__global__ void neighbourhood(const float *u, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1)
    for (int dy = -1; dy <= 1; ++dy)
      acc += u[(y + dy) * nx + x];
  if (x < nx && y < ny)
    for (int dy = -1; dy <= 1; ++dy)
      acc += u[(y + dy) * nx + x];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index '(y + dy) * nx + x' of 'u[(y + dy) * nx + x]' is not covered by the guard on 'y' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:17: note: guard here bounds 'y', not 'y + 1'
  if (x < nx && y < ny)
    out[y * nx + x] = acc;
}

// ---- Quotients into arrays of known extent ---------------------------------

// A block of scales, one per 16 values from the third on: `i < 96` keeps
// `i / 16 + 2` (and `(i >> 4) + 2`) at most 7, inside the 8 of the array.
struct ScaleBlock {
  float scales[8];
};

__global__ void storeScales(ScaleBlock *blocks) {
  int i = GLOBAL_INDEX;
  if (i >= 96)
    return;
  blocks[0].scales[i / 16 + 2] = 1.0f;
  blocks[0].scales[(i >> 4) + 2] += 1.0f;
}

// One value more, or one scale further on, passes the end.
__global__ void storeScalesPast(ScaleBlock *blocks) {
  int i = GLOBAL_INDEX;
  if (i >= 97)
    return;
  blocks[0].scales[i / 16 + 2] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i / 16 + 2' of 'blocks[0].scales[i / 16 + 2]' is not covered by the guard on 'i / 16' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: guard here bounds 'i / 16', not 'i / 16 + 2'
  if (i >= 96)
    return;
  blocks[0].scales[i / 16 + 3] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i / 16 + 3' of 'blocks[0].scales[i / 16 + 3]' is not covered by the guard on 'i / 16' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: guard here bounds 'i / 16', not 'i / 16 + 3'
}
