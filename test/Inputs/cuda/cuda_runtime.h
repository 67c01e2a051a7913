//===- cuda_runtime.h - Mock CUDA runtime for tests -------------*- C++ -*-===//
//
// A small, self-contained mock of the CUDA runtime header for gpuguard's unit
// tests: just enough declarations for test kernels and their host code to
// parse with -nocudainc, on both the device and the host side. It includes
// no other header besides Clang's own <__clang_cuda_builtin_vars.h>.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_MOCK_CUDA_RUNTIME_H
#define GPUGUARD_TEST_MOCK_CUDA_RUNTIME_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

typedef __SIZE_TYPE__ size_t;

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned __vx = 1, unsigned __vy = 1,
                                     unsigned __vz = 1)
      : x(__vx), y(__vy), z(__vz) {}
  __host__ __device__ constexpr dim3(uint3 __v)
      : x(__v.x), y(__v.y), z(__v.z) {}
};

// threadIdx, blockIdx, blockDim, gridDim and warpSize; their conversions to
// dim3 and uint3 are defined here, now that both types exist.
#include <__clang_cuda_builtin_vars.h>

#define GPUGUARD_MOCK_CONVERSIONS(TYPE)                                        \
  __device__ inline TYPE::operator dim3() const { return dim3(x, y, z); }      \
  __device__ inline TYPE::operator uint3() const {                             \
    uint3 __v = {x, y, z};                                                     \
    return __v;                                                                \
  }
GPUGUARD_MOCK_CONVERSIONS(__cuda_builtin_threadIdx_t)
GPUGUARD_MOCK_CONVERSIONS(__cuda_builtin_blockIdx_t)
GPUGUARD_MOCK_CONVERSIONS(__cuda_builtin_blockDim_t)
GPUGUARD_MOCK_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef GPUGUARD_MOCK_CONVERSIONS

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

typedef struct CUstream_st *cudaStream_t;

// Kernel launches `k<<<...>>>(...)` are lowered to one of these two,
// depending on the CUDA version Clang assumes.
extern "C" __host__ __device__ unsigned
__cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim, size_t SharedMem = 0,
                            void *Stream = 0);
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 GridDim, dim3 BlockDim,
                                                  size_t SharedMem = 0,
                                                  cudaStream_t Stream = 0);
// Launches from device code (relocatable device code, which gpuguard
// always parses with) are lowered to these two, as in the toolkit's
// cuda_device_runtime_api.h.
extern "C" __device__ void *cudaGetParameterBuffer(size_t Alignment,
                                                   size_t Size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *Func, void *Params,
                                                   dim3 GridDim, dim3 BlockDim,
                                                   unsigned SharedMem,
                                                   cudaStream_t Stream);

extern "C" {
__host__ __device__ cudaError_t cudaMalloc(void **DevPtr, size_t Size);
__host__ __device__ cudaError_t cudaFree(void *DevPtr);
__host__ cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                cudaMemcpyKind Kind);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t Error);
}

// Streams, events and the copies and synchronisations around them.
typedef struct CUevent_st *cudaEvent_t;

extern "C" {
__host__ cudaError_t cudaStreamCreate(cudaStream_t *Stream);
#define cudaStreamNonBlocking 0x01
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                                          unsigned Flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t Stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t Stream);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *Event);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t Event,
                                                cudaStream_t Stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t Event);
__host__ __device__ cudaError_t cudaEventQuery(cudaEvent_t Event);
__host__ __device__ cudaError_t cudaStreamQuery(cudaStream_t Stream);
__host__ __device__ cudaError_t cudaMemcpyAsync(void *Dst, const void *Src,
                                                size_t Count,
                                                cudaMemcpyKind Kind,
                                                cudaStream_t Stream = 0);
__host__ cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count);
__host__ __device__ const char *cudaGetErrorName(cudaError_t Error);
}

template <class __T>
static inline __host__ cudaError_t cudaMalloc(__T **DevPtr, size_t Size) {
  return ::cudaMalloc((void **)(void *)DevPtr, Size);
}

// Managed and stream-ordered allocation.
#define cudaMemAttachGlobal 0x01
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

extern "C" {
__host__ cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                                       unsigned Flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                     cudaStream_t Stream);
__host__ cudaError_t cudaMallocFromPoolAsync(void **DevPtr, size_t Size,
                                             cudaMemPool_t Pool,
                                             cudaStream_t Stream);
__host__ cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream);
}

template <class __T>
static inline __host__ cudaError_t cudaMallocManaged(
    __T **DevPtr, size_t Size, unsigned Flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)DevPtr, Size, Flags);
}
template <class __T>
static inline __host__ cudaError_t cudaMallocAsync(__T **DevPtr, size_t Size,
                                                   cudaStream_t Stream) {
  return ::cudaMallocAsync((void **)(void *)DevPtr, Size, Stream);
}
static inline __host__ cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                                   cudaMemPool_t Pool,
                                                   cudaStream_t Stream) {
  return ::cudaMallocFromPoolAsync(DevPtr, Size, Pool, Stream);
}

// Pinned host memory, pitched and 3D allocations.
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};
#define cudaHostAllocDefault 0x00

extern "C" {
__host__ cudaError_t cudaSetDevice(int Device);
__host__ cudaError_t cudaGetDeviceCount(int *Count);
struct cudaDeviceProp {
  char name[256];
  int major, minor;
};
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                             int Device);
__host__ cudaError_t cudaMallocHost(void **Ptr, size_t Size);
__host__ cudaError_t cudaHostAlloc(void **Ptr, size_t Size, unsigned Flags);
__host__ cudaError_t cudaFreeHost(void *Ptr);
__host__ cudaError_t cudaMallocPitch(void **DevPtr, size_t *Pitch,
                                     size_t Width, size_t Height);
__host__ cudaError_t cudaMalloc3D(cudaPitchedPtr *PitchedDevPtr,
                                  cudaExtent Extent);
}

template <class __T>
static inline __host__ cudaError_t cudaMallocHost(__T **Ptr, size_t Size,
                                                  unsigned Flags = 0) {
  return ::cudaHostAlloc((void **)(void *)Ptr, Size, Flags);
}
template <class __T>
static inline __host__ cudaError_t cudaHostAlloc(__T **Ptr, size_t Size,
                                                 unsigned Flags) {
  return ::cudaHostAlloc((void **)(void *)Ptr, Size, Flags);
}
template <class __T>
static inline __host__ cudaError_t cudaMallocPitch(__T **DevPtr, size_t *Pitch,
                                                   size_t Width,
                                                   size_t Height) {
  return ::cudaMallocPitch((void **)(void *)DevPtr, Pitch, Width, Height);
}

__device__ void __syncthreads(void);
__device__ float __shfl_down_sync(unsigned Mask, float Var, int Delta,
                                  int Width = 32);
__device__ float atomicAdd(float *Address, float Value);
__device__ int atomicAdd(int *Address, int Value);
__device__ float __ldg(const float *Address);
struct float4 {
  float x, y, z, w;
};
__device__ float4 __ldcs(const float4 *Address);
__device__ void __stcs(float4 *Address, float4 Value);
__device__ int min(int, int);
__device__ int __mul24(int, int);
__device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ unsigned min(unsigned, unsigned);
__device__ int max(int, int);
__device__ unsigned max(unsigned, unsigned);
__device__ int __float2int_rz(float);
__device__ int __float2int_rn(float);

extern "C" {
__device__ float sqrtf(float);
__device__ float expf(float);
__device__ float fmaxf(float, float);
__device__ double fmax(double, double);
__device__ int abs(int);
__device__ float fabsf(float);
// Clang's CUDA wrapper of <new>, which standard headers such as <vector>
// pull in, defines device operator new and delete on top of these.
__device__ void *malloc(size_t Size);
__device__ void free(void *Ptr);
}

#endif // GPUGUARD_TEST_MOCK_CUDA_RUNTIME_H
