//===- cuda_runtime_api.h - CUDA runtime API stand-in -----------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. The runtime API is declared in
// __gpuguard_cuda_fallback.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_CUDA_RUNTIME_API_H
#define GPUGUARD_FALLBACK_CUDA_RUNTIME_API_H

#include "__gpuguard_cuda_fallback.h"

#endif // GPUGUARD_FALLBACK_CUDA_RUNTIME_API_H
