// Each CUDA check wraps the sites it flags in the runtime's checks, and only
// those: a NOLINT'ed finding gets none, a site in a macro is left out and
// counted, --instrument=all adds the sites no guard proves safe, host calls
// of the allocation and synchronisation API go to the runtime's wrappers in
// every mode (but not in a macro's definition), lines stay where they were
// after the #line directive, and the input is not changed. Every pattern
// matches a whole line, so that a check line (a comment, copied too) never
// matches itself. Strict profile: every site a check can flag is flagged.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/orig.cu
// RUN: %gpuguard instrument -o %t/flagged %s --config="{CheckOptions: {cuda-unchecked-index.Strict: true, cuda-div-by-zero.Strict: true, cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags > %t/flagged.out 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefixes=FLAGGED,BOTH -DSRC=%s < %t/flagged%s
// RUN: FileCheck %s --check-prefix=NOTE -DSRC=%s < %t/flagged.out
// RUN: cmp %s %t/orig.cu
// RUN: %gpuguard instrument --quiet --instrument=all -o %t/all %s --config="{CheckOptions: {cuda-unchecked-index.Strict: true, cuda-div-by-zero.Strict: true, cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefixes=ALL,BOTH -DSRC=%s < %t/all%s
// RUN: cmp %s %t/orig.cu

// NOTE: gpuguard: note: instrumented '[[SRC]]' with 11 runtime check(s) into '{{.*}}'; 2 site(s) inside macros or headers left out

// FLAGGED: // Instrumented copy of [[SRC]] made by 'gpuguard instrument'; edit the original.
// FLAGGED-NEXT: #include <gpuguard/rt.h>
// FLAGGED-NEXT: #ifndef __CUDA_ARCH__
// FLAGGED-NEXT: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// FLAGGED-NEXT:     {"[[SRC]]", 83, 3, "unguarded", "cuda-unchecked-index", 2, -1, "c[i]"},
// FLAGGED-NEXT:     {"[[SRC]]", 83, 10, "unguarded", "cuda-unchecked-index", 2, -1, "a[i]"},
// FLAGGED-NEXT:     {"[[SRC]]", 97, 5, "onePast", "cuda-unchecked-index", 1, -1, "out[i]"},
// FLAGGED-NEXT:     {"[[SRC]]", 105, 5, "offsetPastGuard", "cuda-unchecked-index", 1, -1, "out[i + 1]"},
// FLAGGED-NEXT:     {"[[SRC]]", 117, 5, "modifiedBound", "cuda-unchecked-index", 2, -1, "out[i]"},
// FLAGGED-NEXT:     {"[[SRC]]", 126, 3, "constantArray", "cuda-unchecked-index", 1, -1, "local[i]"},
// FLAGGED-NEXT:     {"[[SRC]]", 161, 16, "divisions", "cuda-div-by-zero", 3, -1, "d"},
// FLAGGED-NEXT:     {"[[SRC]]", 175, 13, "divisions", "cuda-div-by-zero", 4, -1, "t * bins"},
// FLAGGED-NEXT:     {"[[SRC]]", 185, 3, "host", "cuda-unchecked-api-call", 10, -1, "cudaMemcpy"},
// FLAGGED-NEXT:     {"[[SRC]]", 188, 3, "host", "cuda-unchecked-api-call", 11, -1, "unguarded"},
// FLAGGED-NEXT:     {"[[SRC]]", 191, 3, "host", "cuda-unchecked-api-call", 10, -1, "cudaDeviceSynchronize"},
// FLAGGED-NEXT: };
// FLAGGED-NEXT: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// FLAGGED-NEXT:     0x[[KEY:[0-9a-f]{16}]]ULL, gpuguard_sites_, 11, 1);
// FLAGGED-NEXT: #endif
// FLAGGED-NEXT: #line 1 "[[SRC]]"
// FLAGGED-NEXT: // Each CUDA check wraps the sites it flags in the runtime's checks, and only

// In the order the checks add them: the flagged sites and the others mixed.
// ALL: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// ALL-NEXT:     {"[[SRC]]", 83, 3, "unguarded", "cuda-unchecked-index", 2, -1, "c[i]"},
// ALL-NEXT:     {"[[SRC]]", 83, 10, "unguarded", "cuda-unchecked-index", 2, -1, "a[i]"},
// ALL-NEXT:     {"[[SRC]]", 86, 3, "unguarded", "cuda-unchecked-index", 2, -1, "c[i + 1]"},
// ALL-NEXT:     {"[[SRC]]", 97, 5, "onePast", "cuda-unchecked-index", 1, -1, "out[i]"},
// ALL-NEXT:     {"[[SRC]]", 105, 5, "offsetPastGuard", "cuda-unchecked-index", 1, -1, "out[i + 1]"},
// ALL-NEXT:     {"[[SRC]]", 117, 5, "modifiedBound", "cuda-unchecked-index", 2, -1, "out[i]"},
// ALL-NEXT:     {"[[SRC]]", 126, 3, "constantArray", "cuda-unchecked-index", 1, -1, "local[i]"},
// ALL-NEXT:     {"[[SRC]]", 136, 3, "bareCoordinate", "cuda-unchecked-index", 2, -1, "a[threadIdx.x]"},
// ALL-NEXT:     {"[[SRC]]", 143, 3, "sharedTile", "cuda-unchecked-index", 1, -1, "tile[threadIdx.x + 1]"},
// ALL-NEXT:     {"[[SRC]]", 151, 5, "loadedIndex", "cuda-unchecked-index", 2, -1, "table[ids[i]]"},
// ALL-NEXT:     {"[[SRC]]", 161, 16, "divisions", "cuda-div-by-zero", 3, -1, "d"},
// ALL-NEXT:     {"[[SRC]]", 169, 16, "divisions", "cuda-div-by-zero", 3, -1, "(int)x[0]"},
// ALL-NEXT:     {"[[SRC]]", 175, 13, "divisions", "cuda-div-by-zero", 4, -1, "t * bins"},
// ALL-NEXT:     {"[[SRC]]", 166, 16, "divisions", "cuda-div-by-zero", 3, -1, "twice(d)"},
// ALL-NEXT:     {"[[SRC]]", 185, 3, "host", "cuda-unchecked-api-call", 10, -1, "cudaMemcpy"},
// ALL-NEXT:     {"[[SRC]]", 188, 3, "host", "cuda-unchecked-api-call", 11, -1, "unguarded"},
// ALL-NEXT:     {"[[SRC]]", 191, 3, "host", "cuda-unchecked-api-call", 10, -1, "cudaDeviceSynchronize"},
// ALL-NEXT:     {"[[SRC]]", 201, 3, "host", "cuda-unchecked-api-call", 11, -1, "checked"},
// ALL-NEXT:     {"[[SRC]]", 198, 9, "host", "cuda-unchecked-api-call", 10, -1, "cudaFree"},
// ALL-NEXT: };
// ALL-NEXT: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// ALL-NEXT:     0x[[KEY:[0-9a-f]{16}]]ULL, gpuguard_sites_, 19, 1);
// ALL-NEXT: #endif
// ALL-NEXT: #line 1 "[[SRC]]"

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      return;                                                                  \
  } while (0)
#define AT(p, i) p[i]
#define DIV(a, b) ((a) / (b))
#define SYNC() cudaDeviceSynchronize()
// BOTH: #define SYNC() cudaDeviceSynchronize()

__global__ void unguarded(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i];
// FLAGGED:   c[::gpuguard::rt::checkPointerIndex(c, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 0})] = a[::gpuguard::rt::checkPointerIndex(a, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 1})];
// ALL:   c[::gpuguard::rt::checkPointerIndex(c, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 0})] = a[::gpuguard::rt::checkPointerIndex(a, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 1})];
  c[i + 1] = 0.0f; // NOLINT(cuda-unchecked-index)
// FLAGGED:   c[i + 1] = 0.0f; // NOLINT(cuda-unchecked-index)
// ALL:   c[::gpuguard::rt::checkPointerIndex(c, i + 1, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 2})] = 0.0f; // NOLINT(cuda-unchecked-index)
  AT(c, i) = 1.0f;
// BOTH:   AT(c, i) = 1.0f;
}

// The bound of the guard, when the guard was meant for this index.
__global__ void onePast(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = 0.0f; // onePast
// FLAGGED:     out[::gpuguard::rt::checkIndex(i, n, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 2})] = 0.0f; // onePast
// ALL:     out[::gpuguard::rt::checkIndex(i, n, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 3})] = 0.0f; // onePast
}

__global__ void offsetPastGuard(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i + 1] = 0.0f;
// FLAGGED:     out[::gpuguard::rt::checkIndex(i + 1, n, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 3})] = 0.0f;
// ALL:     out[::gpuguard::rt::checkIndex(i + 1, n, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 4})] = 0.0f;
}

// A bound that changes does not name the guard's value at the access: the
// pointer's allocation is checked instead.
__global__ void modifiedBound(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = n;
  m += 1;
  if (i <= m)
    out[i] = 0.0f; // modifiedBound
// FLAGGED:     out[::gpuguard::rt::checkPointerIndex(out, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 4})] = 0.0f; // modifiedBound
// ALL:     out[::gpuguard::rt::checkPointerIndex(out, i, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 5})] = 0.0f; // modifiedBound
}

// An array's own extent is exact.
__global__ void constantArray(float *out, int n) {
  float local[4] = {0, 1, 2, 3};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  local[i] = 1.0f;
// FLAGGED:   local[::gpuguard::rt::checkIndex(i, 4, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 5})] = 1.0f;
// ALL:   local[::gpuguard::rt::checkIndex(i, 4, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 6})] = 1.0f;
  if (i < n)
    out[i] = local[0];
// BOTH:     out[i] = local[0];
}

// Accepted by the static check, instrumented with --instrument=all only.
__global__ void bareCoordinate(float *a) {
  a[threadIdx.x] = 0.0f;
// FLAGGED:   a[threadIdx.x] = 0.0f;
// ALL:   a[::gpuguard::rt::checkPointerIndex(a, threadIdx.x, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 7})] = 0.0f;
}

__global__ void sharedTile(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x + 1] = 0.0f;
// FLAGGED:   tile[threadIdx.x + 1] = 0.0f;
// ALL:   tile[::gpuguard::rt::checkIndex(threadIdx.x + 1, 256, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 8})] = 0.0f;
}

__global__ void loadedIndex(float *table, const int *ids, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    table[ids[i]] = 0.0f;
// FLAGGED:     table[ids[i]] = 0.0f;
// ALL:     table[::gpuguard::rt::checkPointerIndex(table, ids[i], ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 9})] = 0.0f;
}

__device__ int twice(int v);
__global__ void checked(float *p);

__global__ void divisions(int *out, const float *x, const int *table, int d,
                          float lo, float hi, int bins) {
  out[0] = 100 / d;
// FLAGGED:   out[0] = 100 / ::gpuguard::rt::checkDivisor(d, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 6});
// ALL:   out[0] = 100 / ::gpuguard::rt::checkDivisor(d, ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 10});
  out[1] = DIV(100, d);
// BOTH:   out[1] = DIV(100, d);
  out[2] = 100 / twice(d);
// FLAGGED:   out[2] = 100 / twice(d);
// ALL:   out[2] = 100 / ::gpuguard::rt::checkDivisor(twice(d), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 13});
  out[3] = 100 % (int)x[0]; // NOLINT(cuda-div-by-zero)
// FLAGGED:   out[3] = 100 % (int)x[0]; // NOLINT(cuda-div-by-zero)
// ALL:   out[3] = 100 % ::gpuguard::rt::checkDivisor((int)x[0], ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 11}); // NOLINT(cuda-div-by-zero)
  // A floating-point division is checked where its value becomes an integer.
  float t = (x[0] - lo) / (hi - lo);
// BOTH:   float t = (x[0] - lo) / (hi - lo);
  int bin = (int)(t * bins);
// FLAGGED:   int bin = (int)::gpuguard::rt::checkFinite((t * bins), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 7});
// ALL:   int bin = (int)::gpuguard::rt::checkFinite((t * bins), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 12});
  out[4] = bin;
}

void host(float *dst, const float *src, size_t bytes) {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, bytes));
// BOTH:   CUDA_CHECK(::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMalloc(&d, bytes));
  cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice);
// FLAGGED:   ::gpuguard::rt::checkApi(::gpuguard::rt::cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 8});
// ALL:   ::gpuguard::rt::checkApi(::gpuguard::rt::cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 14});
  unguarded<<<4, 256>>>(d, d, 1000);
// FLAGGED:   (::gpuguard::rt::beforeLaunch(), (unguarded<<<4, 256>>>(d, d, 1000), ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 9})));
// ALL:   (::gpuguard::rt::beforeLaunch(), (unguarded<<<4, 256>>>(d, d, 1000), ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 15})));
  cudaDeviceSynchronize();
// FLAGGED:   ::gpuguard::rt::checkApi(::gpuguard::rt::cudaDeviceSynchronize(), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 10});
// ALL:   ::gpuguard::rt::checkApi(::gpuguard::rt::cudaDeviceSynchronize(), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 16});
  CUDA_CHECK(cudaMemcpy(dst, d, bytes, cudaMemcpyDeviceToHost));
// BOTH:   CUDA_CHECK(::gpuguard::rt::cudaMemcpy(dst, d, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(SYNC());
// BOTH:   CUDA_CHECK(SYNC());
  (void)cudaFree(d);
// FLAGGED:   (void)::gpuguard::rt::cudaFree(d);
// ALL:   (void)::gpuguard::rt::checkApi(::gpuguard::rt::cudaFree(d), ::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 18});
  checked<<<1, 1>>>(d);
// FLAGGED:   (::gpuguard::rt::beforeLaunch(), checked<<<1, 1>>>(d));
// ALL:   (::gpuguard::rt::beforeLaunch(), (checked<<<1, 1>>>(d), ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x[[KEY]]ULL, 17})));
  CUDA_CHECK(cudaGetLastError());
}
