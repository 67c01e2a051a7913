// Host calls of managed and stream-ordered allocation (cudaMallocManaged,
// cudaMallocAsync in its three forms, cudaFreeAsync) go to the runtime's
// wrappers, which keep the allocation registry, in every mode: checked or
// not, directly or in a macro's argument; never in a macro's own definition,
// and never a call that names the global namespace itself. An allocation
// carries the line of its call, written out, because nvcc joins a statement
// onto its first line before __builtin_LINE() is read. Every pattern
// matches a whole line, so that a check line (a comment, copied too) never
// matches itself.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/orig.cu
// RUN: %gpuguard instrument --quiet -o %t/flagged %s -- %cuda_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefixes=FLAGGED,BOTH < %t/flagged%s
// RUN: %gpuguard instrument --quiet --instrument=all -o %t/all %s -- %cuda_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefixes=ALL,BOTH < %t/all%s
// RUN: cmp %s %t/orig.cu
//
// No call of the CUDA runtime's allocation functions is left unrenamed,
// outside the macro definition; `::cudaFreeAsync` too.
// RUN: grep -n 'cudaMallocManaged(\|cudaMallocAsync(\|cudaFreeAsync(\|cudaSetDevice(' %t/flagged%s | not grep -v '::gpuguard::rt::\(CalledAt<[0-9]*>::\)\?cuda\|// \|#define'

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      return;                                                                  \
  } while (0)
#define FREE_ASYNC(p, s) cudaFreeAsync(p, s)
// BOTH: #define FREE_ASYNC(p, s) cudaFreeAsync(p, s)

void managed(float **m, void **v, size_t bytes) {
  CUDA_CHECK(cudaMallocManaged(m, bytes));
// BOTH:   CUDA_CHECK(::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMallocManaged(m, bytes));
  CUDA_CHECK(cudaMallocManaged(v, bytes, cudaMemAttachGlobal));
// BOTH:   CUDA_CHECK(::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMallocManaged(v, bytes, cudaMemAttachGlobal));
}

void streamOrdered(cudaStream_t s, cudaMemPool_t pool, size_t bytes) {
  float *d = nullptr;
  CUDA_CHECK(cudaMallocAsync(&d, bytes, s));
// BOTH:   CUDA_CHECK(::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMallocAsync(&d, bytes, s));
  void *p = nullptr;
  if (cudaMallocAsync(&p, bytes, s) != cudaSuccess)
// BOTH:   if (::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMallocAsync(&p, bytes, s) != cudaSuccess)
    return;
  void *q = nullptr;
  cudaError_t err = cudaMallocAsync(&q, bytes, pool, s);
// BOTH:   cudaError_t err = ::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaMallocAsync(&q, bytes, pool, s);
  if (err != cudaSuccess)
    return;
  CUDA_CHECK(cudaFreeAsync(q, s));
// BOTH:   CUDA_CHECK(::gpuguard::rt::cudaFreeAsync(q, s));
  (void)cudaFreeAsync(d, s);
// FLAGGED:   (void)::gpuguard::rt::cudaFreeAsync(d, s);
// ALL:   (void)::gpuguard::rt::checkApi(::gpuguard::rt::cudaFreeAsync(d, s), ::gpuguard::rt::SiteRef{0x{{[0-9a-f]+}}ULL, {{[0-9]+}}});
  FREE_ASYNC(p, s);
// BOTH:   FREE_ASYNC(p, s);
  (void)::cudaFreeAsync(nullptr, s);
// FLAGGED:   (void)::gpuguard::rt::cudaFreeAsync(nullptr, s);
// ALL:   (void)::gpuguard::rt::checkApi(::gpuguard::rt::cudaFreeAsync(nullptr, s), ::gpuguard::rt::SiteRef{0x{{[0-9a-f]+}}ULL, {{[0-9]+}}});
}

// cudaSetDevice goes to its wrapper too, which compares the ordinal with
// the device count.
void chooseDevice(int rank) {
  CUDA_CHECK(cudaSetDevice(rank));
// BOTH:   CUDA_CHECK(::gpuguard::rt::CalledAt<[[#@LINE-1]]>::cudaSetDevice(rank));
}

// Two allocations of one statement, on two lines: each keeps its own.
bool both(float **a, float **b, size_t bytes) {
  return ::cudaMallocManaged(a, bytes) == cudaSuccess &&
         cudaMallocAsync(b, bytes, 0) == cudaSuccess;
// BOTH:   return ::gpuguard::rt::CalledAt<[[#@LINE-2]]>::cudaMallocManaged(a, bytes) == cudaSuccess &&
// BOTH-NEXT:          ::gpuguard::rt::CalledAt<[[#@LINE-2]]>::cudaMallocAsync(b, bytes, 0) == cudaSuccess;
}
