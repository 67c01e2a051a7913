//===- device_functions.h - Device functions stand-in -----------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. The device functions
// (__syncthreads, atomics, warp shuffles, ...) are declared in
// __gpuguard_cuda_fallback.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_DEVICE_FUNCTIONS_H
#define GPUGUARD_FALLBACK_DEVICE_FUNCTIONS_H

#include "__gpuguard_cuda_fallback.h"

#endif // GPUGUARD_FALLBACK_DEVICE_FUNCTIONS_H
