//===- __gpuguard_nvcc_compat.h - What nvcc declares and Clang does not ---===//
//
// Force-included after Clang's CUDA runtime wrapper when gpuguard parses with
// a real toolkit, so that code which compiles with nvcc parses here too and
// is checked whole instead of as a partial AST. Each block names the nvcc
// header it stands in for; only declarations and trivial host bodies, since
// gpuguard never generates code.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_NVCC_COMPAT_H
#define GPUGUARD_NVCC_COMPAT_H

#pragma clang system_header

// nvcc's crt/common_functions.h includes these for every translation unit;
// code that calls clock(), assert() or memcpy() with no include of its own
// relies on it.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
#include <cmath>

// crt/math_functions.hpp declares min and max __host__ __device__; Clang's
// wrapper includes it with __host__ defined away, so host code that calls
// max(a, b) finds only device overloads. Same overload set, host side.
#define GPUGUARD_HOST_MIN_MAX(R, A, B)                                         \
  static inline __host__ R min(const A a, const B b) {                         \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }                                                                            \
  static inline __host__ R max(const A a, const B b) {                         \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }
GPUGUARD_HOST_MIN_MAX(int, int, int)
GPUGUARD_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
GPUGUARD_HOST_MIN_MAX(unsigned int, int, unsigned int)
GPUGUARD_HOST_MIN_MAX(unsigned int, unsigned int, int)
GPUGUARD_HOST_MIN_MAX(long, long, long)
GPUGUARD_HOST_MIN_MAX(unsigned long, unsigned long, unsigned long)
GPUGUARD_HOST_MIN_MAX(unsigned long, long, unsigned long)
GPUGUARD_HOST_MIN_MAX(unsigned long, unsigned long, long)
GPUGUARD_HOST_MIN_MAX(long long, long long, long long)
GPUGUARD_HOST_MIN_MAX(unsigned long long, unsigned long long,
                      unsigned long long)
GPUGUARD_HOST_MIN_MAX(unsigned long long, long long, unsigned long long)
GPUGUARD_HOST_MIN_MAX(unsigned long long, unsigned long long, long long)
GPUGUARD_HOST_MIN_MAX(float, float, float)
GPUGUARD_HOST_MIN_MAX(double, double, double)
GPUGUARD_HOST_MIN_MAX(double, float, double)
GPUGUARD_HOST_MIN_MAX(double, double, float)
#undef GPUGUARD_HOST_MIN_MAX

// crt/math_functions.hpp also puts isfinite, isnan and isinf in the global
// namespace for host code; libstdc++'s <math.h> does it the same way.
using std::isfinite;
using std::isinf;
using std::isnan;

// sm_32_intrinsics.h: the cache-hinted loads and stores Clang's
// __clang_cuda_intrinsics.h leaves out (it has __ldg, __ldcg, __ldcs,
// __ldcv and __stwt).
#define GPUGUARD_CACHE_HINTS(T)                                                \
  __device__ T __ldca(const T *ptr);                                           \
  __device__ T __ldlu(const T *ptr);                                           \
  __device__ void __stcg(T *ptr, T value);                                     \
  __device__ void __stcs(T *ptr, T value);                                     \
  __device__ void __stwb(T *ptr, T value);
GPUGUARD_CACHE_HINTS(char)
GPUGUARD_CACHE_HINTS(signed char)
GPUGUARD_CACHE_HINTS(short)
GPUGUARD_CACHE_HINTS(int)
GPUGUARD_CACHE_HINTS(long)
GPUGUARD_CACHE_HINTS(long long)
GPUGUARD_CACHE_HINTS(unsigned char)
GPUGUARD_CACHE_HINTS(unsigned short)
GPUGUARD_CACHE_HINTS(unsigned int)
GPUGUARD_CACHE_HINTS(unsigned long)
GPUGUARD_CACHE_HINTS(unsigned long long)
GPUGUARD_CACHE_HINTS(float)
GPUGUARD_CACHE_HINTS(double)
GPUGUARD_CACHE_HINTS(char2)
GPUGUARD_CACHE_HINTS(char4)
GPUGUARD_CACHE_HINTS(short2)
GPUGUARD_CACHE_HINTS(short4)
GPUGUARD_CACHE_HINTS(int2)
GPUGUARD_CACHE_HINTS(int4)
GPUGUARD_CACHE_HINTS(longlong2)
GPUGUARD_CACHE_HINTS(uchar2)
GPUGUARD_CACHE_HINTS(uchar4)
GPUGUARD_CACHE_HINTS(ushort2)
GPUGUARD_CACHE_HINTS(ushort4)
GPUGUARD_CACHE_HINTS(uint2)
GPUGUARD_CACHE_HINTS(uint4)
GPUGUARD_CACHE_HINTS(ulonglong2)
GPUGUARD_CACHE_HINTS(float2)
GPUGUARD_CACHE_HINTS(float4)
GPUGUARD_CACHE_HINTS(double2)
#undef GPUGUARD_CACHE_HINTS

// CUDA 13 replaced the device number of cudaMemAdvise and
// cudaMemPrefetchAsync with a cudaMemLocation. Code written for CUDA 12 is
// still checked; -Wdeprecated-declarations says what nvcc 13 will reject.
#if CUDART_VERSION >= 13000
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                   enum cudaMemoryAdvise advice, int device)
    __attribute__((deprecated("CUDA 13 takes a cudaMemLocation here; nvcc "
                              "13 rejects this call")));
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                          int dstDevice,
                                          cudaStream_t stream = 0)
    __attribute__((deprecated("CUDA 13 takes a cudaMemLocation and flags "
                              "here; nvcc 13 rejects this call")));
#endif

#endif // __cplusplus
#endif // GPUGUARD_NVCC_COMPAT_H
