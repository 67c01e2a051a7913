//===- vector_types.h - Vector types stand-in -------------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. The vector types (float4, int2,
// dim3, ...) are declared in __gpuguard_cuda_fallback.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_VECTOR_TYPES_H
#define GPUGUARD_FALLBACK_VECTOR_TYPES_H

#include "__gpuguard_cuda_fallback.h"

#endif // GPUGUARD_FALLBACK_VECTOR_TYPES_H
