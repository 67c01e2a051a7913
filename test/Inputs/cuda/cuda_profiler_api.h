//===- cuda_profiler_api.h - Mock profiler control for tests ----*- C++ -*-===//
//
// The runtime's profiler control, as the toolkit's header declares it.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_MOCK_CUDA_PROFILER_API_H
#define GPUGUARD_TEST_MOCK_CUDA_PROFILER_API_H

#include <cuda_runtime.h>

extern "C" {
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
}

#endif // GPUGUARD_TEST_MOCK_CUDA_PROFILER_API_H
