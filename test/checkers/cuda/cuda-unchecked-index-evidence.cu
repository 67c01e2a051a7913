// Evidence before a report: each shape real kernels use, with the evidence
// that makes a finding (reported by default) or its absence (STRICT lines:
// reported only in the strict profile, and checked at run time by
// `--instrument=all`). Regressions of the real-code measurements in
// docs/real-code.md.
// RUN: %check_gpuguard %s cuda-unchecked-index %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-index %t.strict -- --config="{CheckOptions: {cuda-unchecked-index.Strict: true}}" -- %cuda_mock_flags

#include <assert.h>
#include <cuda_runtime.h>

__device__ int min(int a, int b);
int ceilDiv(int a, int b) { return (a + b - 1) / b; }

// ---- The launch decides ----------------------------------------------------

// Launched with a grid rounded up from the data: the last block has threads
// past the end, and nothing stops them.
__global__ void normalize(float *out, const float *in, const float *mean,
                          int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int bt = idx / C;
  out[idx] = in[idx] - mean[bt];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'idx' of 'out[idx]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'idx' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+15]]:15: note: 'normalize' is launched with this grid, rounded up from the data size; the last block has threads past the end
  // CHECK-NOTES: :[[@LINE-4]]:14: note: the same index reaches 'in[idx]' here
  // CHECK-NOTES: :[[@LINE-5]]:24: note: the same index reaches 'mean[bt]' here
}

// Launched only with a grid that covers the data exactly: no evidence.
__global__ void scaleExact(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:19: note: the same index reaches 'in[i]' here
}

void launchBoth(float *out, const float *in, const float *mean, int B, int C) {
  normalize<<<ceilDiv(B * C, 256), 256>>>(out, in, mean, C);
  scaleExact<<<B * C / 256, 256>>>(out, in);
}

// A value derived from a guarded index is the algorithm's to bound, not the
// launch's: `pos` is guarded, `dst` is a rank computed from it.
__device__ int rankOf(const int *keys, int key);
__global__ void scatterByRank(int *out, const int *keys, int n) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= n)
    return;
  int dst = rankOf(keys, keys[pos]) + pos;
  out[dst] = keys[pos];
}

void launchScatter(int *out, const int *keys, int n) {
  scatterByRank<<<(n + 255) / 256, 256>>>(out, keys, n);
}

// A launcher that requires the data to fill whole blocks, by an assert or
// an early exit, makes its rounded-up grid exact: vectorised kernels have no
// guard and rely on it.
__global__ void copyPackedVectors(float *out, const float *in) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  out[i] = in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: the same index reaches 'in[i]' here
}

void launchCopyPackedVectors(float *out, const float *in, int N) {
  const int blockSize = 256;
  assert(N % (blockSize * 4) == 0);
  copyPackedVectors<<<ceilDiv(N, blockSize * 4), blockSize>>>(out, in);
}

__global__ void copyChecked(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: the same index reaches 'in[i]' here
}

int launchCopyChecked(float *out, const float *in, int N) {
  if (N % 128 != 0)
    return -1;
  copyChecked<<<(N + 127) / 128, 128>>>(out, in);
  return 0;
}

// A requirement on another count, or one that does not stop the launcher,
// proves nothing of this grid.
__global__ void copyOtherCount(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+8]]:20: note: 'copyOtherCount' is launched with this grid, rounded up from the data size; the last block has threads past the end
  // CHECK-NOTES: :[[@LINE-4]]:12: note: the same index reaches 'in[i]' here
}

void launchCopyOtherCount(float *out, const float *in, int N, int M) {
  assert(M % 256 == 0);
  if (N % 256 != 0)
    N = 0;
  copyOtherCount<<<ceilDiv(N, 256), 256>>>(out, in);
}

// A rounded-up grid has no whole block past the data: a block's own slot,
// from block coordinates alone, stays below the number of blocks.
__global__ void blockPartialSums(float *partial, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = i < n ? in[blockIdx.y * n + i] : 0.0f;
  if (threadIdx.x == 0) {
    int slot = blockIdx.y * gridDim.x + blockIdx.x;
    partial[slot] = sum;
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'slot' of 'partial[slot]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:9: note: 'slot' is computed here from 'blockIdx.y', 'gridDim.x' and 'blockIdx.x'
  }
}

void launchBlockPartialSums(float *partial, const float *in, int n,
                            int slices) {
  blockPartialSums<<<dim3(ceilDiv(n, 256), slices), 256>>>(partial, in, n);
}

// A grid rounded up along y only: one block column per row, exact in x,
// and the columns guarded. The row, from x, has no threads past the data.
__global__ void rowsByBlock(const float *x, float *dst, int ne0) {
  const int col = 2 * (blockDim.y * blockIdx.y + threadIdx.y);
  if (col >= ne0)
    return;
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  dst[row * ne0 + col] = x[row * ne0 + col];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: 'row' in the index of 'dst[row * ne0 + col]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:13: note: 'row' is computed here from 'blockDim.x', 'blockIdx.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:26: note: the same index reaches 'x[row * ne0 + col]' here
}

// The same launch with the columns unguarded: y is where threads pass.
__global__ void rowsByBlockUnguarded(const float *x, float *dst, int ne0) {
  const int col = blockDim.y * blockIdx.y + threadIdx.y;
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  dst[row * ne0 + col] = x[row * ne0 + col];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'col' in the index of 'dst[row * ne0 + col]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'col' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
  // CHECK-NOTES: :[[@LINE+8]]:37: note: 'rowsByBlockUnguarded' is launched with this grid, rounded up from the data size; the last block has threads past the end
  // CHECK-NOTES: :[[@LINE-5]]:13: note: 'row' is computed here from 'blockDim.x', 'blockIdx.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:26: note: the same index reaches 'x[row * ne0 + col]' here
}

void launchRowsByBlock(const float *x, float *dst, int ne0, int rows) {
  rowsByBlock<<<dim3(rows, (ne0 + 511) / 512, 1), dim3(1, 256, 1)>>>(x, dst,
                                                                     ne0);
  rowsByBlockUnguarded<<<dim3(rows, (ne0 + 255) / 256, 1), dim3(1, 256, 1)>>>(
      x, dst, ne0);
}

// ---- Guards that are too weak ----------------------------------------------

// `idx > N` lets idx == N through: one past the end.
__global__ void rowStats(float *mean, const float *x, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx > N)
    return;
  mean[idx] = x[idx];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the guard lets index 'idx' of 'mean[idx]' reach 'N', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'idx' can be equal to its bound past this guard
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the same index reaches 'x[idx]' here
}

// An inclusive bound that is itself a position in the row is how code says
// "up to and including": `own` is the thread's own position.
__global__ void upToOwnPosition(float *row, int T) {
  int own = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = threadIdx.x; i <= own; i += 32)
    row[i] += 1.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the guard lets index 'i' of 'row[i]' reach 'own', one past the end [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:29: note: 'i' can be equal to its bound past this guard
}

// Clamped to a position (`t` is a loop counter), not to a size.
__global__ void clampedToPosition(float *row, int T) {
  for (int t = 0; t < T; ++t) {
    int k = min(t, (int)threadIdx.x);
    row[k] += 1.0f;
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the guard lets index 'k' of 'row[k]' reach its bound, one past the end [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:13: note: 'k' can be equal to its bound past this guard
  }
}

// Packed triangular storage: row r starts at r * (r + 1) / 2, and the
// n(n+1)/2 elements hold every row below n. `r + 1` there is no index.
__global__ void unpackLower(float *full, const float *packed, int n,
                            int stride) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < n && r < n) {
    int packedIndex = r * (r + 1) / 2 + c;
    full[r * stride + c] = c <= r ? packed[packedIndex] : 0.0f;
    // The row after r, as a linear row, is past the guard.
    full[(r + 1) * stride + c] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: index '(r + 1) * stride + c' of 'full[(r + 1) * stride + c]' is not covered by the guard on 'r' [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE-6]]:16: note: guard here bounds 'r', not 'r + 1'
  }
}

// The diagonal of a packed triangle: row i ends at (i + 1)(i + 2)/2 - 1.
__global__ void packedDiagonal(float *diag, const float *packed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    diag[i] = packed[(i + 1) * (i + 2) / 2 - 1];
  if (i <= n)
    diag[0] += packed[i * (i + 1) / 2];
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: the guard lets index 'i' of 'packed[i * (i + 1) / 2]' reach 'n', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'i' can be equal to its bound past this guard
}

// An array a loop walks from `Ap[row]` to `Ap[row + 1]` holds row offsets,
// one more than the rows, whatever its name: `Ap[row + 1]` is in bounds. The
// same pair read as neighbouring values is a difference one past the end.
__global__ void csrRowSums(float *y, const float *Ax, const int *Ap, int m) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    int rowEnd = Ap[row + 1];
    float sum = 0.0f;
    for (int k = Ap[row]; k < rowEnd; ++k)
      sum += Ax[k];
    y[row] = sum;
  }
}

__global__ void forwardDifference(float *d, const float *x, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    d[i] = x[i + 1] - x[i];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: index 'i + 1' of 'x[i + 1]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 1'
}

// The author's own test comes after the read it should guard: `&&` tests
// in order, so the last step reads one past the row. Swapping the operands
// is the fix.
__global__ void intersectRows(int *matches, const int *cols, const int *rowPtr,
                              int m) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= m)
    return;
  int it = rowPtr[v], end = rowPtr[v + 1], count = 0;
  for (int e = rowPtr[v]; e < end; ++e) {
    while (cols[it] < cols[e] && it < end)
      ++it;
    // CHECK-NOTES: :[[@LINE-2]]:12: warning: 'cols[it]' reads index 'it' before 'it < end' tests it; '&&' evaluates its operands in order [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: FIX-IT applied suggested code changes
    // CHECK-NOTES: :[[@LINE-4]]:34: note: FIX-IT applied suggested code changes
    // CHECK-FIXES:    while (it < end && cols[it] < cols[e])
    if (it != end && cols[it] == cols[e])
      ++count;
  }
  matches[v] = count;
}

// The offset written into the guard against a constant size: `m + 1 < 512`
// keeps `m + 1` below 512. A larger offset still passes it.
__global__ void shiftedPair(float *dst, const float *src) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m + 1 < 512)
    dst[m] = src[m + 1];
  if (m + 1 < 512)
    dst[m] = src[m + 2];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index 'm + 2' of 'src[m + 2]' is not covered by the guard on 'm' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'm', not 'm + 2'
}

// A halo tile's last index, inclusive, set per block: not a size. The test
// of the lower end before the access bounds nothing past its own `if`, and
// is no upper bound of 0.
__global__ void haloColumn(const double *p, double *q, int n, int nz) {
  int t = threadIdx.x;
  int last = blockDim.x - 1;
  if (blockIdx.x == gridDim.x - 1)
    last = nz - blockIdx.x * (blockDim.x - 2);
  if (t > last)
    return;
  double s = 0;
  if (t > 0)
    s = p[t - 1];
  s += p[t + n];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:8: warning: the guard lets index 't' of 'p[t + n]' reach 'last', one past the end [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:7: note: 't' can be equal to its bound past this guard
  q[t] = s;
}

__global__ void haloColumnPastSize(const double *p, double *q, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > n)
    return;
  double s = 0;
  if (t > 0)
    s = p[t - 1];
  s += p[t];
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: the guard lets index 't' of 'p[t]' reach 'n', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 't' can be equal to its bound past this guard
  q[0] = s;
}

// ---- Tree reductions and block-sized storage -------------------------------

// `tid + s` under `tid < s` stays below 2 * s, the size of what is halved.
__global__ void treeReduce(float *sums) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  if (tid == 0)
    sums[blockIdx.x] = sdata[0];
}

// A block-local index through a pointer into shared memory.
__global__ void sharedThroughPointer(float *out) {
  __shared__ float tile[4 * 256];
  float *base = tile + 4 * threadIdx.x;
  unsigned pos = 4 * (threadIdx.x & 15);
  out[0] = base[pos + 0] + base[pos + 3];
}

// `i + blockDim.x` under a guard on the sum itself, in the template's name
// for the block size.
template <unsigned BlockSize>
__global__ void twoPerThread(float *out, const float *in, unsigned n) {
  unsigned i = blockIdx.x * BlockSize * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    v = in[i];
    if (i + BlockSize < n)
      v += in[i + blockDim.x];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: index 'i + blockDim.x' of 'in[i + blockDim.x]' is not covered by the guard on 'i' [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: guard here bounds 'i', not 'i + blockDim.x'
  }
  out[blockIdx.x * BlockSize + threadIdx.x] = v;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the index of 'out[blockIdx.x * BlockSize + threadIdx.x]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
}
template __global__ void twoPerThread<256>(float *, const float *, unsigned);

// ---- Lower bounds ----------------------------------------------------------

// `x == 0 ? ... : a[x - 1]`: x is at least 1 where it is read.
__global__ void exclusiveScan(int *out, const int *in) {
  out[threadIdx.x] = threadIdx.x == 0 ? 0 : in[threadIdx.x - 1];
}

// Neighbours chosen once, each clamped at the edge by a conditional: `c -
// 1` is taken only where `i` is not 0. Testing the wrong column leaves it.
__global__ void clampedNeighbours(float *out, const float *in, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  int west = (i == 0) ? c : c - 1;
  int north = (j == 0) ? c : c - nx;
  int wrong = (i == 1) ? c : c - 1;
  out[c] = in[west] + in[north] + in[wrong];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: 'i' in the index of 'out[c]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:7: note: 'i' is computed here from 'blockDim.x', 'blockIdx.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:7: note: 'j' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:23: note: the same index reaches 'in[north]' here
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: warning: 'j' in the index of 'in[west]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-11]]:7: note: 'j' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
  // CHECK-NOTES-STRICT: :[[@LINE-13]]:7: note: 'i' is computed here from 'blockDim.x', 'blockIdx.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-13]]:7: note: 'j' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
  // CHECK-NOTES: :[[@LINE-9]]:35: warning: index 'wrong' of 'in[wrong]' is -1 where 'i' and 'j' are 0; no guard bounds 'i' and 'j' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-14]]:7: note: 'c' is computed here from 'i' and 'j'
  // CHECK-NOTES: :[[@LINE-16]]:7: note: 'j' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
}

// An else-if chain that handles the corners first: past `ty == 0 && tx ==
// 0`, `ty == 0` leaves tx at least 1. A corner the chain forgot is found.
__global__ void tileNeighbours(float *out, const float *in) {
  __shared__ float tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = *in;
  __syncthreads();
  float west = 0.0f;
  if (ty == 0 && tx == 0)
    west = 1.0f;
  else if (ty == 15 && tx == 0)
    west = 2.0f;
  else if (ty == 0)
    west = tile[ty][tx - 1];
  else if (ty == 15)
    west = tile[ty][tx - 1];
  else if (tx != 0)
    west = tile[ty][tx - 1];
  *out = west;
  if (ty == 0 && tx == 0)
    west = 1.0f;
  else if (ty == 15)
    west = tile[ty][tx - 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: index 'tx - 1' of 'tile[ty][tx - 1]' is negative when 'tx' is 0; no guard bounds 'tx' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-20]]:7: note: 'tx' is computed here from 'threadIdx.x'
  *out += west;
}

// A clamp in a branch: both edges agree on `i <= n - 1` at the join.
__global__ void clampInABranch(float *out, const float *in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n - 1)
    i = n - 1;
  out[i] = in[i];
}

// One row up, `index - cols`: in the first row of threads, which every
// launch has, the index is below zero. Overriding the value afterwards for
// that row does not undo the read.
#define TILE 16
__global__ void northNeighbour(float *out, const float *J, int cols,
                               int rows) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  if (TILE * bx + tx >= cols || TILE * by + ty >= rows)
    return;
  int index = cols * TILE * by + TILE * bx + cols * ty + tx;
  int indexN = cols * TILE * by + TILE * bx + tx - cols;
  float north = J[indexN];
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: index 'indexN' of 'J[indexN]' subtracts 'cols' from a row offset that is 0 where 'by' is 0; no guard bounds 'by' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'indexN' is computed here from 'by', 'bx' and 'tx'
  if (by == 0)
    north = J[TILE * bx + tx];
  out[index] = north;
}

__global__ void rowAbove(float *out, const float *in, int w, int h) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= h || col >= w)
    return;
  out[row * w + col] = in[row * w + col - w];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: index 'row * w + col - w' of 'in[row * w + col - w]' subtracts 'w' from a row offset that is 0 where 'row' is 0; no guard bounds 'row' from below [cuda-unchecked-index]
  // Past a guard on the row, or on what it is computed from, in range.
  if (row > 0)
    out[row * w + col] += in[row * w + col - w];
  if (threadIdx.y != 0)
    out[row * w + col] += in[row * w + col - w];
  if (row == 0)
    return;
  out[row * w + col] += in[row * w + col - w];
}

// The element before the first: every term of the sum is 0 for the first
// thread of the first block, so the index is -1 there.
__global__ void westNeighbour(float *out, const float *J, int cols, int rows) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  if (TILE * bx + tx >= cols || TILE * by + ty >= rows)
    return;
  int indexW = cols * TILE * by + TILE * bx + cols * ty - 1;
  float west = J[indexW];
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: index 'indexW' of 'J[indexW]' is -1 where 'by', 'bx' and 'ty' are 0; no guard bounds 'by', 'bx' and 'ty' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'indexW' is computed here from 'by', 'bx' and 'ty'
  // Off the first column of blocks it is not below zero, and the guard on
  // `TILE * bx + tx` bounds its column term; one row further down is the
  // launch's to say.
  if (bx > 0)
    west += J[indexW];
  int inner = cols * TILE * (by + 1) + TILE * bx + cols * ty - 1;
  west += J[inner];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:11: warning: index 'inner' of 'J[inner]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'inner' is computed here from 'by', 'bx' and 'ty'
  out[TILE * bx + tx] = west;
}

// Not a row up: a halo row first, an offset that scales nothing, a guard on
// the whole index, and a first row handled in its own branch.
__global__ void notTheRowAbove(float *out, const float *in, int w, int h,
                               int off, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= h || col >= w)
    return;
  out[row * w + col] = in[row * w + col - w];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i - off];
  int first = blockIdx.y * blockDim.y + threadIdx.y;
  int up = first * w + col - w;
  if (up >= 0 && up < n)
    out[up] = in[up];
  int by = blockIdx.y, ty = threadIdx.y;
  int idx = w * TILE * by + w * ty + col;
  if (by == 0 && ty == 0)
    out[idx] = 0.0f;
  else
    out[idx] = in[idx - w];
}

// Every launched block has at least one thread: `t + blockDim.x - 1` is not
// below `t`. A width passed in may be 0.
__global__ void lastOfPair(const unsigned *in, unsigned *out, int w) {
  extern __shared__ unsigned pair[];
  unsigned t = threadIdx.x, n = blockDim.x;
  pair[t] = in[blockIdx.x * 2 * n + t];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:13: warning: the index of 'in[blockIdx.x * 2 * n + t]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  pair[t + n] = in[blockIdx.x * 2 * n + t + n];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: the index of 'in[blockIdx.x * 2 * n + t + n]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  __syncthreads();
  out[blockIdx.x * n + t] = pair[t + n] - pair[t + n - 1];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the index of 'out[blockIdx.x * n + t]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE+2]]:3: note: the same index reaches 'out[blockIdx.x * n + t]' here
  // CHECK-NOTES-STRICT: :[[@LINE+2]]:3: note: the same index reaches 'out[blockIdx.x * n + t]' here
  out[blockIdx.x * n + t] += pair[t + 2 * blockDim.x - 1];
  out[blockIdx.x * n + t] += pair[t + w - 1];
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: index 't + w - 1' of 'pair[t + w - 1]' is negative when 't' is 0; no guard bounds 't' from below [cuda-unchecked-index]
}

// A coordinate plus a constant is at least that constant: `t - 4` is never
// negative for `t = threadIdx.y + 4`; `u - 4` is, for `u = threadIdx.y + 2`.
__global__ void haloRows(float *out) {
  __shared__ float rows[40][8];
  int x = threadIdx.x;
  int t = threadIdx.y + 4, u = threadIdx.y + 2;
  if (t < 8)
    rows[t - 4][x] = rows[t + 28][x];
  if (u < 8)
    rows[u - 4][x] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'u - 4' of 'rows[u - 4]' is negative when 'u' is below 4; no guard bounds 'u' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: 'u' is computed here from 'threadIdx.y'
  out[x] = rows[0][x];
}

// ---- Compared elsewhere ----------------------------------------------------

// The load comes before the bound check: the author knows `i` can pass n.
__global__ void loadBeforeCheck(int *out, const int *occupied, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (occupied[i] && i < n)
    out[i] = 1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: index 'i' of 'occupied[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-4]]:22: note: 'i' is compared with a bound here, which does not hold at this access
}

// Compared only with a lower bound: no evidence about the upper one.
__global__ void reverseLoop(float *x, int V) {
  for (int i = V / 4 + (int)threadIdx.x - (int)blockDim.x; i >= 0;
       i -= blockDim.x)
    x[i] = 0.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'i' of 'x[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: note: 'i' is computed here from 'threadIdx.x' and 'blockDim.x'
}

// Halo loads of a tile: `i >= 1` guards `i - 1` and `i <= N - 2` leaves room
// for `i + 1`. The author expects `i` to reach the first and the last
// element, not to pass the end: no evidence for the unguarded centre load.
#define HALO_N 2048
#define HALO_AT(i, j) ((i) + (j) * HALO_N)
__global__ void haloTile(float *f, const float *g) {
  __shared__ float t[18][18];
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  t[threadIdx.y + 1][threadIdx.x + 1] = g[HALO_AT(i, j)];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:41: warning: 'i' in the index of 'g[HALO_AT(i, j)]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'j' is computed here from 'threadIdx.y', 'blockIdx.y' and 'blockDim.y'
  // CHECK-NOTES-STRICT: :[[@LINE+4]]:29: note: the same index reaches 'g[HALO_AT(i - 1, j)]' here
  // CHECK-NOTES-STRICT: :[[@LINE+9]]:29: note: the same index reaches 'g[HALO_AT(i, j - 1)]' here
  // CHECK-NOTES-STRICT: :[[@LINE+18]]:3: note: the same index reaches 'f[HALO_AT(i, j)]' here
  if (threadIdx.x == 0 && i >= 1)
    t[threadIdx.y + 1][0] = g[HALO_AT(i - 1, j)];
  if (threadIdx.x == 15 && i <= HALO_N - 2)
    t[threadIdx.y + 1][17] = g[HALO_AT(i + 1, j)];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:30: warning: 'j' in the index of 'g[HALO_AT(i + 1, j)]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-13]]:7: note: 'j' is computed here from 'threadIdx.y', 'blockIdx.y' and 'blockDim.y'
  if (threadIdx.y == 0 && j >= 1)
    t[0][threadIdx.x + 1] = g[HALO_AT(i, j - 1)];
  // The guard on the row keeps room below the size it was written from.
  if (threadIdx.y == 15 && j <= HALO_N - 2 && i < HALO_N)
    t[17][threadIdx.x + 1] = g[HALO_AT(i, j + 1)];
  // Two rows down passes it.
  if (threadIdx.y == 15 && j <= HALO_N - 2 && i < HALO_N)
    t[17][threadIdx.x + 1] += g[HALO_AT(i, j + 2)];
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: index 'HALO_AT(i, j + 2)' of 'g[HALO_AT(i, j + 2)]' is not covered by the guard on 'j' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:28: note: guard here bounds 'j', not 'j + 2'
  __syncthreads();
  f[HALO_AT(i, j)] = t[threadIdx.y + 1][threadIdx.x + 1];
}

// A sliding window: `g < 7` chooses the zero padding for `g - 7`, a test of
// the lower end. The centre load has no evidence.
__global__ void slidingWindow(const int *in, int *out) {
  __shared__ int window[256 + 14];
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  int l = threadIdx.x + 7;
  window[l] = in[g];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: index 'g' of 'in[g]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'g' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  // CHECK-NOTES-STRICT: :[[@LINE+2]]:35: note: the same index reaches 'in[g - 7]' here
  if (threadIdx.x < 7)
    window[l - 7] = (g < 7) ? 0 : in[g - 7];
  __syncthreads();
  out[g] = window[l];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: note: the same index reaches 'out[g]' here
}

// A lower-end test beside a real bound: `i < n` still says `i` passes n.
__global__ void differenceThenScale(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n)
    d[i] = x[i] - x[i - 1];
  d[i] *= 0.5f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'd[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:17: note: 'i' is compared with a bound here, which does not hold at this access
}

// Compared with another index, not with a size.
__global__ void upperTriangle(float *p, int ld) {
  int i = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  int j = 8 * (blockIdx.y * blockDim.y + threadIdx.y);
  if (j > i)
    return;
  p[i * ld + j] = 1.0f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: 'i' in the index of 'p[i * ld + j]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

// ---- Pointers as indexes ---------------------------------------------------

// Helpers that load and store through their pointer argument: the pointer
// sum passed to them is an access like `out[idx]`.
__device__ float4 load4(const float *p) {
  return __ldcs(reinterpret_cast<const float4 *>(p));
}
__device__ void store4(float *p, float4 v) {
  *reinterpret_cast<float4 *>(p) = v;
}
// Takes a pointer but never reads through it.
__device__ bool isAligned(const float *p) {
  return (reinterpret_cast<unsigned long long>(p) & 15) == 0;
}

__global__ void copyVectors(float *out, const float *in, int n) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (idx > n)
    return;
  store4(out + idx, load4(in + idx));
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the guard lets index 'idx' of 'out + idx' reach 'n', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'idx' can be equal to its bound past this guard
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'store4' accesses memory through the pointer
  // CHECK-NOTES: :[[@LINE-4]]:27: note: the same index reaches 'in + idx' here
}

__global__ void copyVectorsGuarded(float *out, const float *in, int n) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (idx >= n || !isAligned(in + idx))
    return;
  store4(out + idx, load4(in + idx));
  out[0] = __ldg(in + idx);
}

// The intrinsics themselves, with no guard and a rounded-up launch.
__global__ void loadCached(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(out + i, __ldg(in + i));
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: index 'i' of 'out + i' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+13]]:16: note: 'loadCached' is launched with this grid, rounded up from the data size; the last block has threads past the end
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'atomicAdd' accesses memory through the pointer
  // CHECK-NOTES: :[[@LINE-5]]:28: note: the same index reaches 'in + i' here
}

// `&hist[bin]` passed to an atomic is the subscript `hist[bin]`, once.
__global__ void countInRange(int *hist, const int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[bins[i]], 1);
}

void launchLoadCached(float *out, const float *in, int n) {
  loadCached<<<(n + 127) / 128, 128>>>(out, in);
}

// A row pointer carries the row into every access through it.
__global__ void zeroRows(float *feats, int rows, int ld) {
  int r = blockIdx.x;
  if (r > rows)
    return;
  float *row = feats + r * ld;
  for (int c = threadIdx.x; c < ld; c += blockDim.x)
    row[c] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: the guard lets index 'r' of 'row[c]' reach 'rows', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'r' can be equal to its bound past this guard
  // CHECK-NOTES: :[[@LINE-5]]:10: note: 'row' points 'r * ld' elements into the data it is made from
}

__global__ void zeroRowsGuarded(float *feats, int rows, int ld) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r >= rows)
    return;
  float *row = &feats[r * ld];
  const float *first = feats + blockIdx.x * ld;
  for (int c = threadIdx.x; c < ld; c += blockDim.x)
    row[c] = first[c];
}

// A pointer that moves is not a fixed row.
__global__ void walkRows(float *feats, int rows, int ld) {
  int r = blockIdx.x;
  if (r > rows)
    return;
  float *p = feats;
  p += ld;
  p[threadIdx.x] = 0.0f;
}

// A loop over a CSR row that visits the next row's first entry.
__global__ void sumNeighbours(float *y, const int *rowStart, const int *cols,
                              const float *x, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  int begin = rowStart[v];
  int end = rowStart[v + 1];
  float sum = 0.0f;
  for (int e = begin; e <= end; ++e)
    sum += x[cols[e]];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: the guard lets index 'e' of 'cols[e]' reach 'end', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'end' starts the next range; the loop visits it too
  for (int e = rowStart[v]; e < rowStart[v + 1]; ++e)
    sum += x[cols[e]];
  // Inclusive ranges of another shape are the author's convention.
  for (int e = begin; e <= end - 1; ++e)
    sum += x[cols[e]];
  for (int e = rowStart[v]; e <= rowStart[n]; ++e)
    sum += x[cols[e]];
  y[v] = sum;
}

// ---- Vector lanes ----------------------------------------------------------

// `idx + k`, k below the width idx steps by: past n only when n is not a
// multiple of 4, which vectorised code asserts on the host.
__global__ void addLanes(float *dst, const float *src, int n) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (idx < n) {
    for (int k = 0; k < 4; ++k)
      dst[idx + k] += src[idx + k];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:7: warning: index 'idx + k' of 'dst[idx + k]' is not covered by the guard on 'idx' [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'idx', not 'idx + 3'
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:23: note: the same index reaches 'src[idx + k]' here
    // A lane past the vector is past n whatever n is.
    for (int k = 0; k <= 4; ++k)
      dst[idx + k] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: index 'idx + k' of 'dst[idx + k]' is not covered by the guard on 'idx' [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE-10]]:7: note: guard here bounds 'idx', not 'idx + 4'
  }
}

// Pairs written one constant lane at a time, as rotary embeddings do:
// `i0 + 1` with `i0` even stays in the pair, past n only for an odd n. The
// lane after the pair is past n whatever n is.
__global__ void rotatePairs(float *dst, const float *x, int n) {
  const int i0 = 2 * (blockDim.x * blockIdx.x + threadIdx.x);
  if (i0 >= n)
    return;
  dst[i0 + 0] = -x[i0 + 1];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:18: warning: index 'i0 + 1' of 'x[i0 + 1]' is not covered by the guard on 'i0' [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'i0', not 'i0 + 1'
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:3: note: the same index reaches 'dst[i0 + 1]' here
  dst[i0 + 1] = x[i0 + 0];
  dst[i0 + 2] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i0 + 2' of 'dst[i0 + 2]' is not covered by the guard on 'i0' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: guard here bounds 'i0', not 'i0 + 2'
}

// A grid-stride loop unrolled four times: j starts below s and steps by
// 4 * s, and the limit is a multiple of 4 * s, so the last lane j + 3 * s
// is below the limit too. The remainder loop reads one element per step.
#define UNROLL 4
__global__ void sumUnrolled(const float *a, int n, float *out) {
  int start = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int unrolledStride = UNROLL * stride;
  int limit = (n / unrolledStride) * unrolledStride;
  float acc = 0.f;
  int j = start;
  for (; j < limit; j += unrolledStride) {
    for (int u = 0; u < UNROLL; ++u) {
      int idx = j + u * stride;
      acc += a[idx];
    }
  }
  for (; j < n; j += stride)
    acc += a[j];
  atomicAdd(out, acc);
}

// Against n itself the last lanes of the last step are past it.
__global__ void sumUnrolledToTheEnd(const float *a, int n, float *out) {
  int stride = blockDim.x * gridDim.x;
  float acc = 0.f;
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n;
       j += UNROLL * stride)
    for (int u = 0; u < UNROLL; ++u)
      acc += a[j + u * stride];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: index 'j + u * stride' of 'a[j + u * stride]' is not covered by the guard on 'j' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:55: note: guard here bounds 'j', not 'j + u * stride'
  atomicAdd(out, acc);
}

// A comparison about an earlier, larger value is no evidence: the second loop
// walks back from where the first one stopped.
__global__ void forwardThenBack(float *out, const float *in, int C) {
  int c = threadIdx.x * 4;
  for (; c < C; c += 32 * 4)
    store4(out + c, load4(in + c));
  c -= 32 * 4;
  for (; c >= 0; c -= 32 * 4)
    store4(out + c, load4(in + c));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: index 'c' of 'out + c' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:7: note: 'c' is computed here from 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: note: 'store4' accesses memory through the pointer
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:27: note: the same index reaches 'in + c' here
}

// The value the loop left behind is past the bound it compared with.
__global__ void afterTheLoop(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += blockDim.x * gridDim.x)
    out[i] = 0.0f;
  out[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:10: note: 'i' is compared with a bound here, which does not hold at this access
}

// A minimum with a guarded value is below that value's bound: `t < T` from
// the loop bounds `min(t, t3 + k)`, whatever t3 + k is.
__global__ void clampToLoopPosition(float *out, const float *att, int T) {
  int t3 = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (t3 >= T)
    return;
  for (int t = t3; t < T; t++) {
    const float *row = att + t * T;
    for (int k = 0; k < 8; ++k)
      out[t] += row[min(t, t3 + k)];
  }
}

void launchClampToLoopPosition(float *out, const float *att, int T) {
  clampToLoopPosition<<<ceilDiv(T, 8 * 128), 128>>>(out, att, T);
}

// ---- What the launch passes ------------------------------------------------

// The guard is right for what the kernel is given; the launch gives it a
// pointer into the middle of an allocation with the whole allocation's size.
__global__ void scaleFrom(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

__global__ void fillFrom(float *p, float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    p[i] = v;
}

void launchFromOffset(int n, int skip) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  scaleFrom<<<ceilDiv(n, 256), 256>>>(d + skip, n);
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: 'd + skip' points 'skip' elements into 'd', but the launch passes the size of all of 'd' for 'n': the last threads of 'scaleFrom' run past its end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'd' is allocated here
  // CHECK-NOTES: :[[@LINE-16]]:7: note: 'scaleFrom' keeps its index into 'p' below 'n' here, as if 'p' were the start of the allocation
  scaleFrom<<<ceilDiv(n - skip, 256), 256>>>(d + skip, n - skip);
  scaleFrom<<<ceilDiv(n, 256), 256>>>(d, n);
  scaleFrom<<<ceilDiv(n, 256), 256>>>(d + 0, n);
  fillFrom<<<64, 256>>>(&d[1], 0.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: '&d[1]' points '1' elements into 'd', but the launch passes the size of all of 'd' for 'n': the last threads of 'fillFrom' run past its end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'd' is allocated here
  // CHECK-NOTES: :[[@LINE-18]]:55: note: 'fillFrom' keeps its index into 'p' below 'n' here, as if 'p' were the start of the allocation
  cudaFree(d);
}

// Rows of a matrix: each row's pointer with one row's size is right; the
// second row with the whole matrix's size is not.
void launchRows(int rows, int cols) {
  float *d;
  size_t bytes = sizeof(float) * rows * cols;
  cudaMalloc((void **)&d, bytes);
  for (int r = 0; r < rows; ++r)
    scaleFrom<<<ceilDiv(cols, 256), 256>>>(&d[r * cols], cols);
  scaleFrom<<<ceilDiv(rows * cols, 256), 256>>>(&d[cols], cols * rows);
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: '&d[cols]' points 'cols' elements into 'd', but the launch passes the size of all of 'd' for 'n': the last threads of 'scaleFrom' run past its end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'd' is allocated here
  // CHECK-NOTES: :[[@LINE-38]]:7: note: 'scaleFrom' keeps its index into 'p' below 'n' here, as if 'p' were the start of the allocation
  cudaFree(d);
}
// An allocation the launcher does not know alone, reallocated or given by
// the caller, proves nothing of its size.
void launchReallocated(float *given, int n, int skip) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaFree(d);
  cudaMalloc(&d, 2 * n * sizeof(float));
  scaleFrom<<<ceilDiv(n, 256), 256>>>(d + skip, n);
  scaleFrom<<<ceilDiv(n, 256), 256>>>(given + skip, n);
  cudaFree(d);
}

// A kernel that steps by two elements under a bound on the thread's index,
// given the allocation with its own size: past the middle, its threads run
// past the end. Given twice the size, it is right.
__global__ void spreadPairs(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[2 * i] = 1.0f;
}

void launchSpreadPairs(int n) {
  float *d, *pairs;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&pairs, 2 * n * sizeof(float));
  spreadPairs<<<ceilDiv(n, 256), 256>>>(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 'd' holds the count the launch passes for 'n', but 'spreadPairs' indexes it at '2 * i' with 'i' below 'n': threads with 'i' from 'n' / 2 on run past its end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'd' is allocated here
  // CHECK-NOTES: :[[@LINE-12]]:7: note: 'spreadPairs' keeps 'i' below 'n' here
  spreadPairs<<<ceilDiv(n, 256), 256>>>(pairs, n);
  cudaFree(d);
  cudaFree(pairs);
}

// Clamped coordinates in variables assigned more than once, combined into an
// offset: each access is as bounded as the values the variables hold there.
// The row above the tile is clamped below only, but a block's first row is
// inside the data under a rounded-up grid.
__global__ void loadHalo(float *tile, const float *src, int w, int h, int s) {
  const int bsx = blockIdx.x * blockDim.x;
  const int bsy = blockIdx.y * blockDim.y;
  int x, y, pos;
  x = min(bsx + (int)threadIdx.x, w - 1);
  y = max(bsy - 1, 0);
  pos = y * s + x;
  tile[threadIdx.x] = src[pos];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:23: warning: 'y' in the index of 'src[pos]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'y' is computed here from 'bsy'
  y = min(bsy + (int)threadIdx.x, h - 1);
  x = min(bsx + 32, w - 1);
  pos = y * s + x;
  tile[threadIdx.x] += src[pos];
  x = bsx + threadIdx.x;
  pos = y * s + x;
  tile[threadIdx.x] += src[pos];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: 'x' in the index of 'src[pos]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'x' is computed here from 'bsx' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+5]]:15: note: 'loadHalo' is launched with this grid, rounded up from the data size; the last block has threads past the end
}

void launchLoadHalo(float *tile, const float *src, int w, int h, int s) {
  dim3 threads(32, 6);
  dim3 blocks(ceilDiv(w, threads.x), ceilDiv(h, threads.y));
  loadHalo<<<blocks, threads>>>(tile, src, w, h, s);
}

// ---- How far the launch takes an index -------------------------------------

int atoi(const char *Text);
#define REACH_TILE 16

// Each block also loads the tile row below its own: under the grid that
// covers the image exactly, the last block row reads one tile row past it.
__global__ void tileBelow(float *out, const float *img, int cols) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int here = cols * REACH_TILE * by + REACH_TILE * bx + cols * ty + tx;
  int below = cols * REACH_TILE * by + REACH_TILE * bx + cols * REACH_TILE + tx;
  out[here] = img[below];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'here' of 'out[here]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'here' is computed here from 'by', 'bx', 'ty' and 'tx'
  // CHECK-NOTES: :[[@LINE-3]]:15: warning: index 'below' of 'img[below]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'below' is computed here from 'by', 'bx' and 'tx'
  // CHECK-NOTES: :[[@LINE+62]]:3: note: 'tileBelow' is launched here, with 'rows' and 'cols' at 1024: thread (15, 0) of block (63, 63) computes index 1049599, past the 1048576 elements of 'img'
  // CHECK-NOTES: :[[@LINE+56]]:3: note: 'img' is allocated here
}

// The same loads, from an image with a tile row of padding below it.
__global__ void tileBelowPadded(float *out, const float *img, int cols) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int here = cols * REACH_TILE * by + REACH_TILE * bx + cols * ty + tx;
  int below = cols * REACH_TILE * by + REACH_TILE * bx + cols * REACH_TILE + tx;
  out[here] = img[below];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'here' of 'out[here]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'here' is computed here from 'by', 'bx', 'ty' and 'tx'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:15: warning: index 'below' of 'img[below]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'below' is computed here from 'by', 'bx' and 'tx'
}

// The same load behind a branch, and after an early return: not every
// thread runs them, and what the branch decides is not followed.
__global__ void tileBelowBranched(float *out, const float *img, int cols) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int here = cols * REACH_TILE * by + REACH_TILE * bx + cols * ty + tx;
  int below = cols * REACH_TILE * by + REACH_TILE * bx + cols * REACH_TILE + tx;
  if (cols > 64)
    out[here] = img[below];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'here' of 'out[here]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'here' is computed here from 'by', 'bx', 'ty' and 'tx'
  // CHECK-NOTES-STRICT: :[[@LINE+5]]:3: note: the same index reaches 'out[here]' here
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:17: warning: index 'below' of 'img[below]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:7: note: 'below' is computed here from 'by', 'bx' and 'tx'
  if (cols > 4096)
    return;
  out[here] += img[below + 1];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: index 'below + 1' of 'img[below + 1]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-12]]:7: note: 'below' is computed here from 'by', 'bx' and 'tx'
}

// A branch for the first block row does not bound the row: the load of the
// next tile's first column is past the image for the last block.
__global__ void tileRight(float *out, const float *img, int cols) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int here = cols * REACH_TILE * by + REACH_TILE * bx + cols * ty + tx;
  int right = cols * REACH_TILE * by + REACH_TILE * bx + cols * ty + REACH_TILE;
  if (by == 0)
    out[here] = 0.0f;
  out[here] += img[right];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'here' of 'out[here]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: 'here' is computed here from 'by', 'bx', 'ty' and 'tx'
  // CHECK-NOTES: :[[@LINE-3]]:16: warning: index 'right' of 'img[right]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'right' is computed here from 'by', 'bx' and 'ty'
  // CHECK-NOTES: :[[@LINE+16]]:3: note: 'tileRight' is launched here, with 'rows' and 'cols' at 1024: thread (0, 15) of block (63, 63) computes index 1048576, past the 1048576 elements of 'img'
  // CHECK-NOTES: :[[@LINE+7]]:3: note: 'img' is allocated here
}

void runTiles(int argc, char **argv) {
  int rows = atoi(argv[1]);
  int cols = atoi(argv[2]);
  float *img, *padded, *out;
  cudaMalloc(&img, sizeof(float) * rows * cols);
  cudaMalloc(&padded, sizeof(float) * (rows + REACH_TILE) * cols);
  cudaMalloc(&out, sizeof(float) * rows * cols);
  dim3 grid(cols / REACH_TILE, rows / REACH_TILE);
  dim3 block(REACH_TILE, REACH_TILE);
  tileBelow<<<grid, block>>>(out, img, cols);
  tileBelowPadded<<<grid, block>>>(out, padded, cols);
  tileBelowBranched<<<grid, block>>>(out, img, cols);
  tileRight<<<grid, block>>>(out, img, cols);
  cudaFree(img);
  cudaFree(padded);
  cudaFree(out);
}

// One element on, in one dimension: the last thread reads `in[n]`.
__global__ void nextElement(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1] - in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:24: note: the same index reaches 'in[i]' here
  // CHECK-NOTES: :[[@LINE-4]]:12: warning: index 'i + 1' of 'in[i + 1]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+20]]:3: note: 'nextElement' is launched here, with 'n' at 1024: thread (255) of block (3) computes index 1024, past the 1024 elements of 'in'
  // CHECK-NOTES: :[[@LINE+16]]:3: note: 'in' is allocated here
}

// The same, from an input of n + 1 elements.
__global__ void nextElementOfMore(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1] - in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:24: note: the same index reaches 'in[i]' here
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: warning: index 'i + 1' of 'in[i + 1]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

void runDifferences(int n) {
  float *in, *more, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&more, (n + 1) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  nextElement<<<n / 256, 256>>>(out, in);
  nextElementOfMore<<<n / 256, 256>>>(out, more);
  cudaFree(in);
  cudaFree(more);
  cudaFree(out);
}

// A byte count given beside an element count: how the two relate is the
// caller's business, so their samples prove nothing.
__global__ void copyNext(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: index 'i' of 'out[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: warning: index 'i + 1' of 'in[i + 1]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
}

void runCopyNext(size_t bytes, int n) {
  float *in, *out;
  cudaMalloc(&in, bytes / sizeof(float) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  copyNext<<<n / 256, 256>>>(out, in);
  cudaFree(in);
  cudaFree(out);
}

// ---- A guard that looks too weak, against the allocation in view ----------

// Row i + 1 of a buffer with a halo row above and below: the guard on i is
// enough for the rows + 2 rows the launcher allocates.
__global__ void unpackHaloRows(float *block, const float *halo, int rows,
                               int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int start = (i + 1) * w;
    block[start] = halo[i];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'start' of 'block[start]' is not covered by the guard on 'i' [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'i', not 'i + 1'
    // CHECK-NOTES-STRICT: :[[@LINE+1]]:5: note: the same index reaches 'block[start + w - 1]' here
    block[start + w - 1] = halo[i];
  }
}

// The same rows of a buffer without halo rows: the last row written is
// past the end.
__global__ void unpackRows(float *block, const float *halo, int rows, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int start = (i + 1) * w;
    block[start] = halo[i];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'start' of 'block[start]' is not covered by the guard on 'i' [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: guard here bounds 'i', not 'i + 1'
  }
}

// Launched on both: every launch must keep the index inside.
__global__ void unpackEither(float *block, const float *halo, int rows,
                             int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    block[(i + 1) * w] = halo[i];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index '(i + 1) * w' of 'block[(i + 1) * w]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 1'
}

// A block padded by a halo column on each side (`w + 2`) keeps a halo row
// above and below: row i + 1, or i + 2 below it, is inside the buffer. The
// allocation is not in view (another file's).
struct Extent {
  int x, y;
};
__global__ void unpackPaddedRows(float *block, const float *halo,
                                 Extent size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size.y) {
    int start = (i + 1) * (size.x + 2);
    block[start] = halo[i];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'start' of 'block[start]' is not covered by the guard on 'i' [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'i', not 'i + 1'
    // CHECK-NOTES-STRICT: :[[@LINE+1]]:5: note: the same index reaches 'block[start + size.x + 1]' here
    block[start + size.x + 1] = halo[i];
  }
}

__global__ void jacobiPaddedRows(float *next, const float *prev, int rows,
                                 int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    next[(i + 1) * (w + 2) + 1] =
        prev[i * (w + 2) + 1] + prev[(2 + i) * (2 + w) + 1];
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: warning: index '(i + 1) * (w + 2) + 1' of 'next[(i + 1) * (w + 2) + 1]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'i', not 'i + 1'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:33: warning: index '(2 + i) * (2 + w) + 1' of 'prev[(2 + i) * (2 + w) + 1]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: guard here bounds 'i', not 'i + 2'
}

// Three rows down passes a halo of one: still reported.
__global__ void paddedRowsTooFar(float *block, const float *halo, int rows,
                                 int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    block[(i + 3) * (w + 2)] = halo[i];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index '(i + 3) * (w + 2)' of 'block[(i + 3) * (w + 2)]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 3'
}

// Padded columns on a buffer the launcher allocates without halo rows.
__global__ void paddedColumnsOnly(float *block, const float *halo, int rows,
                                  int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    block[(i + 1) * (w + 2)] = halo[i];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index '(i + 1) * (w + 2)' of 'block[(i + 1) * (w + 2)]' is not covered by the guard on 'i' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'i', not 'i + 1'
  // CHECK-NOTES: :[[@LINE+8]]:3: note: 'paddedColumnsOnly' is launched here, with 'rows' and 'w' at 1024: where 'i' is 1023, the largest its guard allows, the index is 1050624, past the 1050624 elements of 'block'
  // CHECK-NOTES: :[[@LINE+5]]:3: note: 'block' is allocated here
}

void runPaddedColumnsOnly(int rows, int w) {
  float *block, *halo;
  cudaMalloc(&block, rows * (w + 2) * sizeof(float));
  cudaMalloc(&halo, rows * sizeof(float));
  paddedColumnsOnly<<<(rows + 127) / 128, 128>>>(block, halo, rows, w);
  cudaFree(block);
  cudaFree(halo);
}

// The offset a helper maps a guarded index to (pytorch_scatter's
// IndexToOffset): the mapping bounds it, as it bounds a derived variable.
struct StridedInfo {
  int sizes[4];
  int strides[4];
  int dims;
};
__device__ int stridedOffset(int linear, const StridedInfo &info) {
  int offset = 0;
  for (int d = info.dims - 1; d >= 0; --d) {
    offset += (linear % info.sizes[d]) * info.strides[d];
    linear /= info.sizes[d];
  }
  return offset;
}
__global__ void gatherStrided(float *out, const float *src, StridedInfo info,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = src[stridedOffset(i, info)];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: the index of 'src[stridedOffset(i, info)]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
}
// With no guard, the threads past the end map past it too.
__global__ void gatherStridedUnguarded(float *out, const float *src,
                                       StridedInfo info, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[stridedOffset(i, info)] = src[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the index of 'out[stridedOffset(i, info)]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE+8]]:28: note: 'gatherStridedUnguarded' is launched with this grid, rounded up from the data size; the last block has threads past the end
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: index 'i' of 'src[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+5]]:28: note: 'gatherStridedUnguarded' is launched with this grid, rounded up from the data size; the last block has threads past the end
}

void runGatherStrided(float *out, const float *src, StridedInfo info, int n) {
  gatherStrided<<<(n + 255) / 256, 256>>>(out, src, info, n);
  gatherStridedUnguarded<<<(n + 255) / 256, 256>>>(out, src, info, n);
}

// The SDK's index macros multiply with __mul24: a product, each factor
// bounded by its own guard.
#define IMAD(a, b, c) (__mul24((a), (b)) + (c))
__global__ void filterRows(float *dst, int w, int h) {
  const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
  const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
  if (ix >= w || iy >= h)
    return;
  dst[IMAD(iy, w, ix)] = 0.f;
}
__global__ void filterRowsUnguarded(float *dst, int w, int h) {
  const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
  const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
  if (ix >= w)
    return;
  dst[IMAD(iy, w, ix)] = 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'iy' in the index of 'dst[IMAD(iy, w, ix)]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:13: note: 'iy' is computed here from 'blockDim.y', 'blockIdx.y' and 'threadIdx.y'
  // CHECK-NOTES: :[[@LINE+5]]:15: note: 'filterRowsUnguarded' is launched with this grid, rounded up from the data size; the last block has threads past the end
}

void runFilterRows(float *dst, int w, int h) {
  dim3 threads(16, 12);
  dim3 blocks((w + 15) / 16, (h + 11) / 12);
  filterRows<<<blocks, threads>>>(dst, w, h);
  filterRowsUnguarded<<<blocks, threads>>>(dst, w, h);
}

// A guard on a sum bounds each term beside terms that are never negative:
// `ix + blockDim.x < nx` keeps `ix` below `nx` (the unrolled transpose), and
// `k < n` with `k = i + offset`, `offset` unsigned, keeps `i` below `n`.
__global__ void copyUnrolledPair(float *out, const float *in, int nx) {
  unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  if (ix + blockDim.x < nx) {
    out[ix] = in[ix];
    out[ix + blockDim.x] = in[ix + blockDim.x];
  }
  // A block is at least one thread wide: `ix` stays below `nx`, and one
  // past it too where the guard leaves a block's room.
  if (ix + blockDim.x - 1 < nx)
    out[ix] = in[ix];
  if (ix + blockDim.x < nx)
    out[ix + 1] = in[ix];
  // Two back lets `ix` reach `nx` (in a one-thread block).
  if (ix + blockDim.x - 2 < nx)
    out[ix] = 0.f;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the guard lets index 'ix' of 'out[ix]' reach its bound, one past the end [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'ix' can be equal to its bound past this guard
}
__global__ void readShifted(float *c, const float *a, int n,
                            unsigned int offset) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int k = i + offset;
  if (k < n)
    c[i] = a[k];
}
// A signed offset may be negative: `k < n` says nothing of `i`.
__global__ void readShiftedSigned(float *c, const float *a, int n,
                                  int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = i + offset;
  if (k < n && k >= 0)
    c[i] = a[k];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'i' of 'c[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' is computed here from 'blockIdx.x', 'blockDim.x' and 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE+6]]:23: note: 'readShiftedSigned' is launched with this grid, rounded up from the data size; the last block has threads past the end
}

void runShifted(float *c, const float *a, int n) {
  copyUnrolledPair<<<(n + 511) / 512, 256>>>(c, a, n);
  readShifted<<<(n + 255) / 256, 256>>>(c, a, n, 3u);
  readShiftedSigned<<<(n + 255) / 256, 256>>>(c, a, n, -3);
}

// A block extent the launches fix: `in[ti + TILE_W]` under `ix + blockDim.x
// < nx` stays in its row when every launch in view makes blocks TILE_W
// threads across (the unrolled transpose's BDIMX); not when one launch
// makes them narrower, nor under `<=`, which leaves one less.
#define TILE_W 16
__global__ void transposeUnrolledTile(float *out, const float *in, int nx,
                                      int ny) {
  unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  if (ix + blockDim.x < nx && iy < ny) {
    out[ti] = in[ti];
    out[ti + TILE_W] = in[ti + TILE_W];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: index 'ti + TILE_W' of 'out[ti + TILE_W]' is not covered by the guard on 'ix' [cuda-unchecked-index]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'ix', not 'ix + 16'
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:24: note: the same index reaches 'in[ti + TILE_W]' here
  }
}
__global__ void transposeNarrowTile(float *out, const float *in, int nx,
                                    int ny) {
  unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  if (ix + blockDim.x < nx && iy < ny)
    out[ti + TILE_W] = in[ti];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'ti + TILE_W' of 'out[ti + TILE_W]' is not covered by the guard on 'ix' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'ix', not 'ix + 16'
}
__global__ void transposeTileInclusive(float *out, const float *in, int nx,
                                       int ny) {
  unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  if (ix + blockDim.x <= nx && iy < ny)
    out[ti + TILE_W] = in[ti];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: index 'ti + TILE_W' of 'out[ti + TILE_W]' is not covered by the guard on 'ix' [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: guard here bounds 'ix', not 'ix + 16'
}

void runTransposes(float *out, const float *in, int nx, int ny) {
  dim3 block(TILE_W, 16);
  dim3 grid((nx + 2 * TILE_W - 1) / (2 * TILE_W), (ny + 15) / 16);
  transposeUnrolledTile<<<grid, block>>>(out, in, nx, ny);
  transposeNarrowTile<<<grid, block>>>(out, in, nx, ny);
  transposeNarrowTile<<<grid, dim3(8, 16)>>>(out, in, nx, ny);
  transposeTileInclusive<<<grid, block>>>(out, in, nx, ny);
}

// A window clamped to the data (stylegan3's upfirdn2d): the start may be
// the end itself, where the window is empty. Forming the address one past
// the end is valid, and `inX + x` stays below `n` in a loop up to
// `w = min(hi, n) - inX`.
__global__ void windowSums(float *out, const float *x, const float **rows,
                           int n, int taps, int outN) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= outN)
    return;
  int inX = min(max(o - 1, 0), n);
  int w = min(max(o - 1 + taps, 0), n) - inX;
  rows[o] = &x[inX];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: the guard lets index 'inX' of 'x[inX]' reach its bound, one past the end [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:13: note: 'inX' can be equal to its bound past this guard
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:22: note: the same index reaches 'x[inX]' here
  const float *xp = &x[inX];
  float v = 0.f;
  for (int k = 0; k < w; ++k)
    v += xp[k] + x[inX + k];
  out[o] = v;
}
// Handed to a call, the address is an access; and a window not shortened
// by its start runs past the end.
__global__ void windowSumsPast(float *out, const float *x, int n, int taps,
                               int outN) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= outN)
    return;
  int inX = min(max(o - 1, 0), n);
  int w = min(max(o - 1 + taps, 0), n);
  atomicAdd(&out[inX], 1.f);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: the guard lets index 'inX' of 'out[inX]' reach its bound, one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'inX' can be equal to its bound past this guard
  // CHECK-NOTES: :[[@LINE+3]]:10: note: the same index reaches 'x[inX + k]' here
  float v = 0.f;
  for (int k = 0; k < w; ++k)
    v += x[inX + k];
  out[o] = v;
}

void runWindowSums(float *out, const float *x, const float **rows, int n) {
  windowSums<<<(n + 255) / 256, 256>>>(out, x, rows, n, 4, n);
  windowSumsPast<<<(n + 255) / 256, 256>>>(out, x, n, 4, n);
}

// The end of each of n ranges, in a table of n + 1 entries that no name
// marks as one.
__global__ void rangeLengths(int *lengths, const int *firsts, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  lengths[v] = firsts[v + 1] - firsts[v];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: index 'v + 1' of 'firsts[v + 1]' is not covered by the guard on 'v' [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: guard here bounds 'v', not 'v + 1'
}

void runUnpack(int rows, int w) {
  float *padded, *flat, *halo;
  int *firsts, *lengths;
  cudaMalloc(&padded, (rows + 2) * w * sizeof(float));
  cudaMalloc(&flat, rows * w * sizeof(float));
  cudaMalloc(&halo, rows * sizeof(float));
  cudaMalloc(&firsts, (rows + 1) * sizeof(int));
  cudaMalloc(&lengths, rows * sizeof(int));
  unpackHaloRows<<<(rows + 127) / 128, 128>>>(padded, halo, rows, w);
  unpackRows<<<(rows + 127) / 128, 128>>>(flat, halo, rows, w);
  unpackEither<<<(rows + 127) / 128, 128>>>(padded, halo, rows, w);
  unpackEither<<<(rows + 127) / 128, 128>>>(flat, halo, rows, w);
  rangeLengths<<<(rows + 255) / 256, 256>>>(lengths, firsts, rows);
  cudaFree(padded);
  cudaFree(flat);
  cudaFree(halo);
  cudaFree(firsts);
  cudaFree(lengths);
}

// ---- Tile loops: a partial tile only where the count is rounded up -------

// The loop rounds the tile count up: the last tile's columns pass n unless
// n is a multiple of the tile, which the rounded-up grid says it need not be.
__global__ void rowTimesTiles(const float *a, float *c, int n) {
  __shared__ float tile[TILE];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    tile[threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:25: warning: the tile column in the index of 'a[row * n + t * TILE + threadIdx.x]' is not bounded by a guard on every path; in the last, partial tile it runs past the end [cuda-unchecked-index]
    // CHECK-NOTES: :[[@LINE+27]]:19: note: 'rowTimesTiles' is launched with this grid, rounded up from the data size; the last block has threads past the end
    __syncthreads();
    sum += tile[(threadIdx.x + 1) % TILE];
    __syncthreads();
  }
  c[row] = sum;
}

// The loop stops before the partial tile (`n / TILE`, rounded down): every
// tile it loads ends by n.
__global__ void rowTimesWholeTiles(const float *a, float *c, int n) {
  __shared__ float tile[TILE];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    tile[threadIdx.x] = a[row * n + (t * TILE + threadIdx.x)];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:25: warning: the tile column in the index of 'a[row * n + (t * TILE + threadIdx.x)]' is not bounded by a guard on every path; in the last, partial tile it runs past the end [cuda-unchecked-index]
    __syncthreads();
    sum += tile[(threadIdx.x + 1) % TILE];
    __syncthreads();
  }
  c[row] = sum;
}

void runTiles(const float *a, float *c, int n) {
  rowTimesTiles<<<(n + TILE - 1) / TILE, TILE>>>(a, c, n);
  rowTimesWholeTiles<<<(n + TILE - 1) / TILE, TILE>>>(a, c, n);
}

// ---- Pointers a launch passes past a halo -------------------------------

#define HALO 3

// Every launch passes the buffer HALO elements in: `in[i - HALO]` at
// thread 0 reads the first element of the allocation.
__global__ void stencilPastHalo(const int *in, int *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:11: warning: index 'i' of 'in[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  // CHECK-NOTES-STRICT: :[[@LINE+5]]:3: note: the same index reaches 'out[i]' here
  if (threadIdx.x < HALO)
    v += in[i - HALO];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:10: warning: index 'i - HALO' of 'in[i - HALO]' is -3 where 'threadIdx.x' and 'blockIdx.x' are 0; no guard bounds 'threadIdx.x' and 'blockIdx.x' from below [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  out[i] = v;
}

// The same, launched on the buffer itself: thread 0 reads before it.
__global__ void stencilAtStart(const int *in, int *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:11: warning: index 'i' of 'in[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  // CHECK-NOTES-STRICT: :[[@LINE+5]]:3: note: the same index reaches 'out[i]' here
  if (threadIdx.x < HALO)
    v += in[i - HALO];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: index 'i - HALO' of 'in[i - HALO]' is -3 where 'threadIdx.x' and 'blockIdx.x' are 0; no guard bounds 'threadIdx.x' and 'blockIdx.x' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  out[i] = v;
}

// One launch leaves room for one element, not HALO.
__global__ void stencilShortHalo(const int *in, int *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[i];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:11: warning: index 'i' of 'in[i]' depends on the thread index and is not bounded by a guard on every path [cuda-unchecked-index]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  // CHECK-NOTES-STRICT: :[[@LINE+5]]:3: note: the same index reaches 'out[i]' here
  if (threadIdx.x < HALO)
    v += in[i - HALO];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: index 'i - HALO' of 'in[i - HALO]' is -3 where 'threadIdx.x' and 'blockIdx.x' are 0; no guard bounds 'threadIdx.x' and 'blockIdx.x' from below [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' is computed here from 'threadIdx.x', 'blockIdx.x' and 'blockDim.x'
  out[i] = v;
}

void runStencils(int n) {
  int *in, *out;
  cudaMalloc(&in, (n + 2 * HALO) * sizeof(int));
  cudaMalloc(&out, (n + 2 * HALO) * sizeof(int));
  stencilPastHalo<<<n / 16, 16>>>(in + HALO, out + HALO);
  stencilPastHalo<<<n / 16, 16>>>(&in[HALO + 1], out);
  stencilAtStart<<<n / 16, 16>>>(in, out);
  stencilShortHalo<<<n / 16, 16>>>(in + HALO, out);
  stencilShortHalo<<<n / 16, 16>>>(in + 1, out);
  cudaFree(in);
  cudaFree(out);
}

// ---- Guards in templates ----------------------------------------------------

// With an overloaded operator< in scope, a comparison with a value of
// dependent type stays an unresolved operator call until instantiation: it
// guards as `<` does (lltm's `if (c < gates.size(2))` on an accessor).
struct Half {
  unsigned short Bits;
};
__device__ bool operator<(Half A, Half B);
struct Rows {
  __device__ int size(int Dim) const;
};

template <typename Accessor>
__global__ void fillColumns(Accessor x, float *out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < x.size(1))
    out[c] = 0.0f;
  if (x.size(1) > c && c >= 0)
    out[c] = 1.0f;
  if (c <= x.size(1))
    out[c] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: the guard lets index 'c' of 'out[c]' reach 'x.size(1)', one past the end [cuda-unchecked-index]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'c' can be equal to its bound past this guard
}

void runFillColumns(Rows x, float *out, int n) {
  fillColumns<<<(n + 255) / 256, 256>>>(x, out);
}
