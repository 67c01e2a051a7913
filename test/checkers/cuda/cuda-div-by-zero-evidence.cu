// Evidence before a report: a divisor is reported by default only when
// something shows it can be zero (STRICT lines: reported only in the strict
// profile, and checked at run time by `--instrument=all`). Regressions of
// the real-code measurements in docs/real-code.md.
// RUN: %check_gpuguard %s cuda-div-by-zero %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-div-by-zero %t.strict -- --config="{CheckOptions: {cuda-div-by-zero.Strict: true}}" -- %cuda_mock_flags

#include <cuda_runtime.h>

// ---- What the launches pass ------------------------------------------------

__global__ void bucketOf(unsigned *out, const unsigned *keys, unsigned buckets) {
  out[threadIdx.x] = keys[threadIdx.x] % buckets;
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: remainder by 'buckets', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE+23]]:35: note: 'bucketOf' is launched here with 'numBuckets', which is 'n / 1024', a quotient that is 0 whenever the divisor is the larger
}

__global__ void perGroup(float *w, const float *scales, int groupSize) {
  w[threadIdx.x] *= scales[threadIdx.x / groupSize];
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:40: warning: integer division by 'groupSize', which may be zero [cuda-div-by-zero]
}

__global__ void perSpan(int *out, int span) {
  out[threadIdx.x] = threadIdx.x / span;
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: integer division by 'span', which may be zero [cuda-div-by-zero]
  // CHECK-NOTES: :[[@LINE+16]]:30: note: 'perSpan' is launched here with 'hi - lo', a difference that is 0 whenever the two are equal
}

__global__ void perTail(int *out, int tail) {
  out[threadIdx.x] = threadIdx.x / tail;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:34: warning: integer division by 'tail', which may be zero [cuda-div-by-zero]
}

void launches(unsigned *out, const unsigned *keys, float *w,
              const float *scales, int *spans, unsigned n, int hi, int lo) {
  // Fewer than 1024 keys give no bucket.
  const unsigned numBuckets = n / 1024;
  bucketOf<<<1, 256>>>(out, keys, numBuckets);
  // A constant group size: never zero.
  const int groupSize = 4096 / 32;
  perGroup<<<1, 256>>>(w, scales, groupSize);
  perSpan<<<1, 256>>>(spans, hi - lo);
  // The last quarter of `hi` items is empty only when `hi` is: `hi`'s own
  // question, as for any parameter.
  int head = hi * 3 / 4;
  perTail<<<1, 256>>>(spans, hi - head);
}

// ---- A value less a fraction of itself -------------------------------------

struct Schedule {
  int totalSteps, warmupSteps;
};

// Zero only when the whole is: no likelier than a parameter's zero.
__global__ void decayRatio(float *out, const Schedule *s, int step) {
  int decayStart = (int)(0.8f * s->totalSteps);
  out[0] = (float)(step - decayStart) / (s->totalSteps - decayStart);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:39: warning: floating-point division by 's->totalSteps - decayStart', which may be zero and yield inf or NaN [cuda-div-by-zero]
  out[1] = step / (s->totalSteps - s->totalSteps / 2);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: integer division by 's->totalSteps - s->totalSteps / 2', which may be zero [cuda-div-by-zero]
  // Two settings that can be equal: the whole run is warmup.
  out[2] = (float)step / (s->totalSteps - s->warmupSteps);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: floating-point division by 's->totalSteps - s->warmupSteps', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // A fraction that a later assignment replaces is any value.
  int tail = s->totalSteps / 4;
  if (step > tail)
    tail = step;
  out[3] = step / (s->totalSteps - tail);
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: integer division by 's->totalSteps - tail', which may be zero [cuda-div-by-zero]
}

// ---- Tested for zero on another path ---------------------------------------

__global__ void testedElsewhere(int *out, int d, bool fast) {
  if (fast) {
    out[0] = 100 / d;
    // CHECK-NOTES: :[[@LINE-1]]:18: warning: integer division by 'd', which may be zero [cuda-div-by-zero]
    return;
  }
  out[0] = d != 0 ? 100 / d : 0;
}

// ---- Counts read from memory -----------------------------------------------

struct Config {
  int numProcesses;
};

__global__ void means(float *out, const float *sums, const unsigned *counts,
                      const Config *config) {
  int k = threadIdx.x;
  // A key that never occurs has a count of zero.
  out[k] = sums[k] / counts[k];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: floating-point division by 'counts[k]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // A configuration field is set up front, not counted.
  out[k] /= config->numProcesses;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:10: warning: floating-point division by 'config->numProcesses', which may be zero and yield inf or NaN [cuda-div-by-zero]
}

// A tensor's descriptor, passed by value: its sizes are the tensor's shape,
// set up front, not counts read from the data (pytorch_scatter's
// IndexToOffset).
struct TensorInfo {
  int sizes[8];
  int strides[8];
  int dims;
};

__device__ int offsetOf(int linear, const TensorInfo &info) {
  int offset = 0;
  for (int d = info.dims - 1; d >= 0; --d) {
    offset += (linear % info.sizes[d]) * info.strides[d];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:23: warning: remainder by 'info.sizes[d]', which may be zero [cuda-div-by-zero]
    linear /= info.sizes[d];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: integer division by 'info.sizes[d]', which may be zero [cuda-div-by-zero]
  }
  return offset;
}

// The same in a template, where the descriptor's type is dependent.
template <typename T> struct TypedInfo {
  T *data;
  int sizes[8];
  int dims;
};
template <typename T>
__device__ int typedOffsetOf(int linear, const TypedInfo<T> &info) {
  int offset = 0;
  for (int d = info.dims - 1; d >= 0; --d) {
    offset += linear % info.sizes[d];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:22: warning: remainder by 'info.sizes[d]', which may be zero [cuda-div-by-zero]
    linear /= info.sizes[d];
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: division by 'info.sizes[d]', which may be zero [cuda-div-by-zero]
  }
  return offset;
}

__global__ void gatherByInfo(float *out, const float *src, TensorInfo info,
                             const int *bucketSizes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = src[offsetOf(i, info)];
  // Sizes counted per bucket, through a pointer: an empty bucket has 0.
  if (i < n)
    out[i] = src[i] / bucketSizes[i];
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: floating-point division by 'bucketSizes[i]', which may be zero and yield inf or NaN [cuda-div-by-zero]
}

// ---- Differences -----------------------------------------------------------

__global__ void bagMean(float *out, const float *sums, const int *offsets,
                        int n) {
  int b = threadIdx.x;
  // An empty bag has end == begin.
  out[b] = sums[b] / (offsets[b + 1] - offsets[b]);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: floating-point division by 'offsets[b + 1] - offsets[b]', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // One value, n == 1, is no likelier than any parameter's zero.
  out[b] = sums[b] / (n - 1);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:20: warning: floating-point division by 'n - 1', which may be zero and yield inf or NaN [cuda-div-by-zero]
}

__global__ void rowMeans(float *mean, const float *val, const int *rowPtr,
                         int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int begin = rowPtr[r], end = rowPtr[r + 1];
  float sum = 0.0f;
  // Inside the loop over the row, the row is not empty.
  int degree = end - begin;
  for (int e = begin; e < end; ++e)
    sum += val[e] / (end - begin) + val[e] / degree;
  // After it, an empty row divides by zero.
  mean[r] = sum / (end - begin);
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: floating-point division by 'end - begin', which may be zero and yield inf or NaN [cuda-div-by-zero]
}

__global__ void minMaxScale(float *y, const float *x, const float *colMin,
                            const float *colMax, float lo, float hi) {
  int c = threadIdx.x;
  // Read from memory: a constant column has max == min.
  const float top = colMax[c];
  const float bottom = colMin[c];
  y[c] = (x[c] - bottom) / (top - bottom);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: floating-point division by 'top - bottom', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // Computed values the algorithm keeps apart, such as an interpolation's
  // end points.
  y[c] = (x[c] - lo) / (hi - lo);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:22: warning: floating-point division by 'hi - lo', which may be zero and yield inf or NaN [cuda-div-by-zero]
}

// ---- Quotients that are only printed ---------------------------------------

extern "C" int printf(const char *, ...);
long long clockMicros();

void reportPhases(float *rates, const float *bytes) {
  long long start = clockMicros();
  long long copied = clockMicros();
  long long end = clockMicros();
  // A timing report: an elapsed time of zero prints inf and stops nothing.
  printf("copy %5.2f%%\n", (float)(copied - start) / (float)(end - start) * 100);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:52: warning: floating-point division by '(float)(end - start)', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // The same quotient kept as data is reported.
  rates[0] = bytes[0] / (float)(end - start);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: floating-point division by '(float)(end - start)', which may be zero and yield inf or NaN [cuda-div-by-zero]
  // So is an integer division, which faults wherever its value goes.
  printf("%lld\n", (copied - start) / (end - start));
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: integer division by 'end - start', which may be zero [cuda-div-by-zero]
}
