//===- math_constants.h - Math constants stand-in ---------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. The constants are written as
// expressions that host and device code can both use.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_MATH_CONSTANTS_H
#define GPUGUARD_FALLBACK_MATH_CONSTANTS_H

#include "__gpuguard_cuda_fallback.h"

#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_MAX_NORMAL_F 3.40282347e+38F
#define CUDART_ZERO_F 0.0F
#define CUDART_ONE_F 1.0F
#define CUDART_SQRT_HALF_F 0.707106781F
#define CUDART_PI_F 3.141592654F
#define CUDART_PIO2_F 1.570796327F
#define CUDART_2_OVER_PI_F 0.636619772F
#define CUDART_L2E_F 1.442695041F
#define CUDART_LN2_F 0.693147181F

#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_L2E 1.4426950408889634e+0
#define CUDART_LN2 6.9314718055994529e-1

#endif // GPUGUARD_FALLBACK_MATH_CONSTANTS_H
