//===--- cuda_fp16.h - Half precision stand-in ------------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. It declares a 16-bit __half type, its
// conversions to and from float, and the common arithmetic on it.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_CUDA_FP16_H
#define GPUGUARD_FALLBACK_CUDA_FP16_H

#include "__gpuguard_cuda_fallback.h"

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float __f);
  __host__ __device__ __half(double __d);
  __host__ __device__ operator float() const;
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(const __half &__lo, const __half &__hi)
      : x(__lo), y(__hi) {}
};

typedef __half half;
typedef __half2 half2;

__host__ __device__ __half __float2half(float __f);
__host__ __device__ __half __float2half_rn(float __f);
__host__ __device__ float __half2float(__half __h);
__host__ __device__ __half2 __float2half2_rn(float __f);
__host__ __device__ __half2 __floats2half2_rn(float Low, float High);
__host__ __device__ float2 __half22float2(__half2 __h);
__host__ __device__ float __low2float(__half2 __h);
__host__ __device__ float __high2float(__half2 __h);
__host__ __device__ __half __low2half(__half2 __h);
__host__ __device__ __half __high2half(__half2 __h);
__host__ __device__ __half2 __halves2half2(__half Low, __half High);

#if defined(__CUDA__)
__device__ __half __hadd(__half __a, __half __b);
__device__ __half __hsub(__half __a, __half __b);
__device__ __half __hmul(__half __a, __half __b);
__device__ __half __hdiv(__half __a, __half __b);
__device__ __half __hfma(__half __a, __half __b, __half __c);
__device__ __half __hneg(__half __a);
__device__ __half __habs(__half __a);
__device__ __half __hmax(__half __a, __half __b);
__device__ __half __hmin(__half __a, __half __b);
__device__ bool __heq(__half __a, __half __b);
__device__ bool __hlt(__half __a, __half __b);
__device__ bool __hgt(__half __a, __half __b);
__device__ __half2 __hadd2(__half2 __a, __half2 __b);
__device__ __half2 __hmul2(__half2 __a, __half2 __b);
__device__ __half2 __hfma2(__half2 __a, __half2 __b, __half2 __c);
__device__ __half hsqrt(__half __a);
__device__ __half hexp(__half __a);
__device__ __half __shfl_sync(unsigned Mask, __half Var, int SrcLane,
                              int Width = 32);
__device__ __half __shfl_down_sync(unsigned Mask, __half Var, unsigned Delta,
                                   int Width = 32);
__device__ __half __shfl_xor_sync(unsigned Mask, __half Var, int LaneMask,
                                  int Width = 32);
__device__ __half __ldg(const __half *Ptr);
__device__ __half2 __ldg(const __half2 *Ptr);
__device__ __half2 atomicAdd(__half2 *Address, __half2 Value);
__device__ __half atomicAdd(__half *Address, __half Value);

__device__ __half operator+(const __half &__a, const __half &__b);
__device__ __half operator-(const __half &__a, const __half &__b);
__device__ __half operator*(const __half &__a, const __half &__b);
__device__ __half operator/(const __half &__a, const __half &__b);
__device__ __half operator-(const __half &__a);
__device__ __half &operator+=(__half &__a, const __half &__b);
__device__ __half &operator*=(__half &__a, const __half &__b);
__device__ bool operator<(const __half &__a, const __half &__b);
__device__ bool operator>(const __half &__a, const __half &__b);
__device__ __half2 operator+(const __half2 &__a, const __half2 &__b);
__device__ __half2 operator*(const __half2 &__a, const __half2 &__b);
#endif // __CUDA__

#endif // GPUGUARD_FALLBACK_CUDA_FP16_H
