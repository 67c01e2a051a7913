//===- cuda_runtime.h - CUDA runtime stand-in -------------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. Everything it offers lives in
// __gpuguard_cuda_fallback.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_CUDA_RUNTIME_H
#define GPUGUARD_FALLBACK_CUDA_RUNTIME_H

#include "__gpuguard_cuda_fallback.h"

#endif // GPUGUARD_FALLBACK_CUDA_RUNTIME_H
