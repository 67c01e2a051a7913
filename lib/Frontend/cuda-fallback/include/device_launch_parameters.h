//===- device_launch_parameters.h - Launch variables ------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. threadIdx, blockIdx, blockDim,
// gridDim and warpSize come from __gpuguard_cuda_fallback.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_DEVICE_LAUNCH_PARAMETERS_H
#define GPUGUARD_FALLBACK_DEVICE_LAUNCH_PARAMETERS_H

#include "__gpuguard_cuda_fallback.h"

#endif // GPUGUARD_FALLBACK_DEVICE_LAUNCH_PARAMETERS_H
