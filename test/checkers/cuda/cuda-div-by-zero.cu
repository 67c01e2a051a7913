// The default profile reports a divisor only with evidence that it can be
// zero; the strict profile also reports the unproven ones (STRICT lines).
// RUN: %check_gpuguard %s cuda-div-by-zero %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-div-by-zero %t.strict -- --config="{CheckOptions: {cuda-div-by-zero.Strict: true}}" -- %cuda_mock_flags
//
// Each option, on the last section only (the rest is left out by
// OPTION_CASES_ONLY), in the strict profile, where every shape it selects
// is reported:
// RUN: %check_gpuguard --check-suffix=NO-FLOAT %s cuda-div-by-zero %t.nofloat -- --config="{CheckOptions: {cuda-div-by-zero.Strict: true, cuda-div-by-zero.CheckFloatDivision: false}}" -- %cuda_mock_flags -DOPTION_CASES_ONLY
// RUN: %check_gpuguard --check-suffix=NO-PARAMS %s cuda-div-by-zero %t.noparams -- --config="{CheckOptions: {cuda-div-by-zero.Strict: true, cuda-div-by-zero.CheckParameters: false}}" -- %cuda_mock_flags -DOPTION_CASES_ONLY
// RUN: %check_gpuguard --check-suffix=COUNTS %s cuda-div-by-zero %t.counts -- --config="{CheckOptions: {cuda-div-by-zero.Strict: true, cuda-div-by-zero.CountNames: 'hist'}}" -- %cuda_mock_flags -DOPTION_CASES_ONLY

#include <assert.h>
#include <cuda_runtime.h>

#ifndef OPTION_CASES_ONLY

// ---- Integer division by a parameter ---------------------------------------

__global__ void byParameter(int *out, int n) {
  out[0] = 100 / n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
  out[1] = 100 % n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: remainder by 'n', which may be zero [cuda-div-by-zero]
}

__global__ void byParameterChecked(int *out, int n) {
  if (n != 0) {
    out[0] = 100 / n;
    out[1] = 100 % n;
  }
}

__global__ void compoundAssignments(int *out, int n, int m) {
  int x = out[0];
  x /= n;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
  x %= m;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: remainder by 'm', which may be zero [cuda-div-by-zero]
  if (n > 0 && m > 0) {
    x /= n;
    x %= m;
  }
  out[0] = x;
}

// ---- Loads from memory -----------------------------------------------------

struct Histogram {
  int count;
  int bins;
};

__global__ void byLoad(int *out, const int *a, const int *p,
                       const Histogram *h) {
  Histogram s = h[1];
  out[0] = 10 / a[3];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: integer division by 'a[3]', which may be zero [cuda-div-by-zero]
  out[1] = 10 / *p;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: integer division by '*p', which may be zero [cuda-div-by-zero]
  out[2] = 10 / s.count;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: integer division by 's.count', which may be zero [cuda-div-by-zero]
  out[3] = 10 % h->bins;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: remainder by 'h->bins', which may be zero [cuda-div-by-zero]
}

__global__ void byLoadChecked(int *out, const int *a, const int *p,
                              const Histogram *h) {
  Histogram s = h[1];
  if (a[3] != 0)
    out[0] = 10 / a[3];
  if (*p > 0)
    out[1] = 10 / *p;
  if (s.count == 0 || h->bins == 0)
    return;
  out[2] = 10 / s.count;
  out[3] = 10 % h->bins;
}

// Arguments packed in a struct are parameters, not loads: floating-point
// division by them is ordinary numeric code.
__global__ void argumentStruct(float *out, const float *x, Histogram shape,
                               const Histogram *shapes) {
  out[0] = x[0] / shape.count;
  out[1] = x[1] / shapes->count;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: floating-point division by 'shapes->count', which may be zero and yield inf or NaN [cuda-div-by-zero]
  out[2] = threadIdx.x % shape.bins;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:24: warning: remainder by 'shape.bins', which may be zero [cuda-div-by-zero]
}

__global__ void storeEndsTheCheck(int *out, int *a) {
  if (a[0] == 0)
    return;
  a[0] = out[1];
  out[0] = 10 / a[0];
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: integer division by 'a[0]', which may be zero [cuda-div-by-zero]
}

// ---- Differences, and local copies -----------------------------------------

__global__ void byDifference(int *out, int hi, int lo) {
  out[0] = 10 / (hi - lo);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: integer division by 'hi - lo', which may be zero [cuda-div-by-zero]
  int range = hi - lo;
  out[1] = 10 % range;
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: remainder by 'range', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'range' is computed here from 'hi - lo'
}

__global__ void byDifferenceChecked(int *out, int hi, int lo) {
  if (hi > lo)
    out[0] = 10 / (hi - lo);
  if (lo != hi) {
    int range = hi - lo;
    out[1] = 10 % range;
  }
}

__global__ void throughSeveralCopies(int *out, const int *offsets, int b) {
  int begin = offsets[b];
  int width = offsets[b + 1] - begin;
  int w = width;
  out[b] = 1000 / w;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: integer division by 'w', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'w' is computed here from 'width'
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'width' is computed here from 'offsets[b + 1] - begin'
}

__global__ void copyOfAParameter(int *out, int n) {
  int d = n;
  out[0] = 7 / d;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'd' is computed here from 'n'
}

__global__ void copyOfACheckedParameter(int *out, int n) {
  if (n == 0)
    return;
  int d = n;
  out[0] = 7 / d;
}

__global__ void oneLessThanAParameter(int *out, int n) {
  out[0] = 7 / (n - 1);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: integer division by 'n - 1', which may be zero [cuda-div-by-zero]
  if (n > 1)
    out[1] = 7 / (n - 1);
  if (n >= 2)
    out[2] = 7 / (n - 1);
}

// ---- The checks that prove a divisor non-zero ------------------------------

__global__ void earlyExit(int *out, int d) {
  if (d == 0)
    return;
  out[0] = 100 / d;
}

__global__ void earlyExitOnOnePathOnly(int *out, int d, bool checked) {
  if (checked && d == 0)
    return;
  out[0] = 100 / d;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
}

__global__ void comparisons(int *out, int a, int b, int c, int e) {
  if (a > 0)
    out[0] = 1 / a;
  if (0 < b)
    out[1] = 1 / b;
  if (c >= 1)
    out[2] = 1 / c;
  if (!(e <= 0))
    out[3] = 1 / e;
  if (e >= 0)
    out[4] = 1 / e;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'e', which may be zero [cuda-div-by-zero]
}

__global__ void truthTests(int *out, int d, int e) {
  if (d)
    out[0] = 1 / d;
  else
    out[1] = 1 / d;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
  if (!e)
    return;
  out[2] = 1 / e;
}

__global__ void ternaries(int *out, int d) {
  out[0] = d > 0 ? 100 / d : 0;
  out[1] = d > 0 ? 0 : 100 / d;
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
}

__global__ void conjunctions(int *out, int d, int e) {
  if (d != 0 && e != 0)
    out[0] = 100 / d + 100 / e;
  if (d != 0 && 100 / d > 3)
    out[1] = 1;
  if (d != 0 || e != 0)
    out[2] = 100 / d;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
  if (d == 0 || e == 0)
    return;
  out[3] = 100 / d + 100 / e;
}

__global__ void asserted(int *out, int d, int e) {
  assert(d != 0);
  out[0] = 100 / d;
  out[1] = 100 / e;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: integer division by 'e', which may be zero [cuda-div-by-zero]
}

__global__ void loopCondition(int *out, const int *sizes, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = 100 / n; // i >= 0 and i < n: n is at least 1.
    out[i] += 100 / sizes[i];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: integer division by 'sizes[i]', which may be zero [cuda-div-by-zero]
  }
  out[0] = 100 / n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
}

__global__ void reassignmentEndsTheCheck(int *out, const int *a, int d) {
  if (d == 0)
    return;
  d = a[0];
  out[0] = 100 / d;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
}

__global__ void decrementEndsTheCheck(int *out, int d) {
  if (d > 0) {
    --d;
    out[0] = 100 / d;
    // CHECK-NOTES: :[[@LINE-1]]:18: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
  }
  if (d > 0) {
    ++d;
    out[1] = 100 / d;
  }
}

// ---- Clamps: values that are non-zero by their form ------------------------

__global__ void clampedWithMax(int *out, int n) {
  int d = n;
  d = max(d, 1);
  out[0] = 100 / d;
  int e = n;
  out[1] = 100 / e;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: integer division by 'e', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: 'e' is computed here from 'n'
}

__global__ void clampedWithMaxOfZero(int *out, int n) {
  n = max(n, 0);
  out[0] = 100 / n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
}

__global__ void clampedWithOr(int *out, int n, int m) {
  int d = n;
  d |= 1;
  out[0] = 100 / d;
  m = m | 1;
  out[1] = 100 / m;
}

__global__ void clampedWithATernary(int *out, int n, int m) {
  int d = n < 1 ? 1 : n;
  out[0] = 100 / d;
  int e = m == 0 ? 1 : m;
  out[1] = 100 / e;
  int f = n < 0 ? 1 : n;
  out[2] = 100 / f;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'f', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'f' is computed here from 'n < 0 ? 1 : n'
}

constexpr float kEpsilon = 1e-6f;

__global__ void floatClamps(float *out, const float *x, float hi, float lo) {
  const float eps = 1e-5f;
  float span = hi - lo;
  out[0] = x[0] / span;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: floating-point division by 'span', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:9: note: 'span' is computed here from 'hi - lo'
  span = fmaxf(span, eps);
  out[1] = x[1] / span;
  span = hi - lo;
  span = fmax(span, 1e-12);
  out[2] = x[2] / span;
  span = hi - lo;
  span = span + 1e-6f;
  out[3] = x[3] / span;
  span = hi - lo;
  span = kEpsilon + span;
  out[4] = x[4] / span;
  span = hi - lo;
  span += eps;
  out[5] = x[5] / span;
  span = hi - lo;
  span = fabsf(span) + eps;
  out[6] = x[6] / span;
  span = hi - lo;
  span = fmaxf(span, 0.0f);
  out[7] = x[7] / span;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: floating-point division by 'span', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-NOTES-STRICT: :[[@LINE-25]]:9: note: 'span' is computed here from 'hi - lo'
}

__global__ void intAbsoluteValue(int *out, int hi, int lo) {
  int d = hi - lo;
  d = abs(d) + 1;
  out[0] = 100 / d;
  int e = hi - lo;
  e = abs(e);
  out[1] = 100 / e;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: integer division by 'e', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'e' is computed here from 'hi - lo'
}

// ---- Constants and launch extents ------------------------------------------

enum { kTile = 32 };
constexpr int kBlock = 256;

__global__ void constants(int *out, const float *x, int n) {
  const int k = 4;
  int threads = 128;
  out[0] = n / 7;
  out[1] = n % kTile;
  out[2] = n / kBlock;
  out[3] = n / k;
  out[4] = n / threads;
  out[5] = n / (int)sizeof(double);
  out[6] = (int)(x[0] / 2.0f);
}

__global__ void launchExtents(int *out, int n) {
  out[0] = n / blockDim.x;
  out[1] = n % gridDim.y;
  out[2] = n / (blockDim.x * gridDim.x);
  out[3] = threadIdx.x / warpSize;
  out[4] = threadIdx.x % warpSize;
  int stride = blockDim.x * gridDim.x;
  out[5] = n / stride;
  out[6] = n / (blockDim.x - 1);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: integer division by 'blockDim.x - 1', which may be zero [cuda-div-by-zero]
}

__global__ void guardedIndexBoundsTheExtent(float *out, const float *in,
                                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + float(i % n); // i >= 0 and i < n: n is at least 1.
  out[0] = float(i % n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:20: warning: remainder by 'n', which may be zero [cuda-div-by-zero]
}

// ---- Floating-point division -----------------------------------------------

__global__ void floatByDifference(float *out, const float *x, float hi,
                                  float lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = (x[i] - lo) / (hi - lo);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:24: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
  if (hi > lo)
    out[i] = (x[i] - lo) / (hi - lo);
}

__global__ void floatByACount(float *out, const float *sums, const int *counts,
                              const float *binCounts, int b) {
  out[b] = sums[b] / counts[b];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: floating-point division by 'counts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  if (counts[b] > 0)
    out[b] = sums[b] / counts[b];
  out[b] = sums[b] / binCounts[b];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: floating-point division by 'binCounts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  if (binCounts[b] != 0.0f)
    out[b] = sums[b] / binCounts[b];
  int count = counts[b];
  out[b] = sums[b] / (float)count;
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: floating-point division by '(float)count', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'count' is computed here from 'counts[b]'
  out[b] = sums[b] / max(count, 1);
}

__global__ void floatOrdinaryNumericCode(float *out, const float *x,
                                         const float *weights, float scale,
                                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = x[i] / scale;
  out[i] += x[i] / weights[i];
  out[i] += x[i] / n;
  out[i] += sqrtf(x[i]) / (1.0f + expf(-x[i]));
}

__global__ void nanBecomesAnIndex(float *out, const float *x, const int *table,
                                  float lo, float hi, int bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float t = (x[i] - lo) / (hi - lo);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:25: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
  int bin = min((int)(t * bins), bins - 1);
  out[i] = table[bin];
}

// ---- Templates: analysed once, as written ----------------------------------

template <int Width> __global__ void templateConstant(int *out, int n) {
  out[0] = n / Width;
  out[1] = n % (Width * 2);
  out[2] = n / n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
}

template <typename T>
__global__ void templateDependent(T *out, const T *x, T hi, T lo, int n) {
  out[0] = x[0] / (hi - lo);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: division by 'hi - lo', which may be zero [cuda-div-by-zero]
  out[1] = x[1] / n;
  out[2] = x[2] / T(sizeof(T));
  if (hi != lo)
    out[3] = x[3] / (hi - lo);
}

void launchTemplates(int *i, float *f, int n) {
  templateConstant<32><<<1, 32>>>(i, n);
  templateDependent<float><<<1, 32>>>(f, f, 1.0f, 0.0f, n);
  templateDependent<int><<<1, 32>>>(i, i, 1, 0, n);
}

// ---- Host code -------------------------------------------------------------

int chunks(int total, int parts) {
  return (total + parts - 1) / parts;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:30: warning: integer division by 'parts', which may be zero [cuda-div-by-zero]
}

int chunksChecked(int total, int parts) {
  assert(parts > 0);
  return (total + parts - 1) / parts;
}

void launchSquare(float *out, const float *in, int n, int rows) {
  dim3 block(16, 16);
  dim3 grid((n + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  (void)grid;
  int perRow = n / rows;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:18: warning: integer division by 'rows', which may be zero [cuda-div-by-zero]
  (void)perRow;
}

// ---- Unevaluated divisions, and suppression --------------------------------

__global__ void unevaluated(int *out, int n) {
  out[0] = sizeof(out[0] / n);
}

__global__ void suppressed(int *out, int n) {
  out[0] = 100 / n; // NOLINT(cuda-div-by-zero)
  // NOLINTNEXTLINE(cuda-div-by-zero)
  out[1] = 100 % n;
}

#endif // OPTION_CASES_ONLY

// ---- Options ---------------------------------------------------------------

__global__ void optionCases(float *out, const float *sums, const int *counts,
                            const float *binCounts, const float *hist, int n,
                            float hi, float lo) {
  int b = blockIdx.x;
  out[b] = b / n;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-FLOAT: :[[@LINE-2]]:14: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
  // CHECK-MESSAGES-COUNTS: :[[@LINE-3]]:14: warning: integer division by 'n', which may be zero [cuda-div-by-zero]
  out[b] += b % (n - 1);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:15: warning: remainder by 'n - 1', which may be zero [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-FLOAT: :[[@LINE-2]]:15: warning: remainder by 'n - 1', which may be zero [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-PARAMS: :[[@LINE-3]]:15: warning: remainder by 'n - 1', which may be zero [cuda-div-by-zero]
  // CHECK-MESSAGES-COUNTS: :[[@LINE-4]]:15: warning: remainder by 'n - 1', which may be zero [cuda-div-by-zero]
  out[b] += sums[b] / (hi - lo);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:21: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-PARAMS: :[[@LINE-2]]:21: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-MESSAGES-COUNTS: :[[@LINE-3]]:21: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
  out[b] += sums[b] / counts[b];
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: floating-point division by 'counts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-PARAMS: :[[@LINE-2]]:21: warning: floating-point division by 'counts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-MESSAGES-COUNTS: :[[@LINE-3]]:21: warning: floating-point division by 'counts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  out[b] += sums[b] / binCounts[b];
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: floating-point division by 'binCounts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // CHECK-MESSAGES-NO-PARAMS: :[[@LINE-2]]:21: warning: floating-point division by 'binCounts[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  out[b] += sums[b] / hist[b];
  // CHECK-MESSAGES-COUNTS: :[[@LINE-1]]:21: warning: floating-point division by 'hist[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
}
