#pragma once

// The kernels share device globals across files.
#if !defined(__CUDACC_RDC__) && !defined(__CLANG_RDC__)
#error "build with separable compilation (CUDA_SEPARABLE_COMPILATION ON)"
#endif
// Launches go to each host thread's own default stream.
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "build with --default-stream per-thread"
#endif

// Counts kernel launches; defined in scale.cu.
extern __device__ unsigned long long launches;

// A constexpr host function that kernels call too: nvcc accepts that only
// with --expt-relaxed-constexpr.
constexpr float squared(float x) { return x * x; }

cudaError_t scaleAll(float *out, const float *in, int n, float factor);
cudaError_t addBiasAll(float *values, float bias, int n);
