//===- __gpuguard_cuda_fallback.h - Minimal CUDA declarations ---*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. gpuguard force-includes it (with
// -nocudainc) so that .cu files parse with Clang alone. It declares the
// types, launch machinery, runtime API and device functions that typical
// CUDA programs use; nothing here is meant to be compiled into a program.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_CUDA_FALLBACK_H
#define GPUGUARD_CUDA_FALLBACK_H

#include <stddef.h>

//===----------------------------------------------------------------------===//
// Versions and attribute macros
//===----------------------------------------------------------------------===//

// The version gpuguard passes to Clang with -target-sdk-version.
#ifndef CUDART_VERSION
#define CUDART_VERSION 12090
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12090
#endif

#if defined(__CUDA__)
#ifndef __CUDACC__
#define __CUDACC__
#endif
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// Clang honours `managed` only for HIP and would leave a CUDA __managed__
// variable host-only; as a __device__ variable both sides may refer to it.
#define __managed__ __device__
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
// Plain C++ (a host-only file that includes the runtime header).
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __grid_constant__
#define __launch_bounds__(...)
#endif

// Clang knows `__noinline__` as a CUDA keyword, and `__restrict__` as a GNU
// one, so neither needs a macro (a macro would also break libstdc++, which
// spells `__attribute__((__noinline__))`).
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(N) __attribute__((aligned(N)))
#define __builtin_align__(N) __align__(N)
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDAAPI

//===----------------------------------------------------------------------===//
// Vector types
//===----------------------------------------------------------------------===//

// Declares NAME1..NAME4 over element type T, with the 2- and 4-element types
// aligned to A2 and A4 bytes, and their make_NAMEn helpers.
#define __GPUGUARD_VECTOR_TYPES(T, NAME, A2, A4)                               \
  struct NAME##1 { T x; };                                                     \
  struct __align__(A2) NAME##2 { T x, y; };                                    \
  struct NAME##3 { T x, y, z; };                                               \
  struct __align__(A4) NAME##4 { T x, y, z, w; };                              \
  __host__ __device__ inline NAME##1 make_##NAME##1(T __vx) {                  \
    NAME##1 __v = {__vx};                                                      \
    return __v;                                                                \
  }                                                                            \
  __host__ __device__ inline NAME##2 make_##NAME##2(T __vx, T __vy) {          \
    NAME##2 __v = {__vx, __vy};                                                \
    return __v;                                                                \
  }                                                                            \
  __host__ __device__ inline NAME##3 make_##NAME##3(T __vx, T __vy, T __vz) {  \
    NAME##3 __v = {__vx, __vy, __vz};                                          \
    return __v;                                                                \
  }                                                                            \
  __host__ __device__ inline NAME##4 make_##NAME##4(T __vx, T __vy, T __vz,    \
                                                    T __vw) {                  \
    NAME##4 __v = {__vx, __vy, __vz, __vw};                                    \
    return __v;                                                                \
  }

__GPUGUARD_VECTOR_TYPES(signed char, char, 2, 4)
__GPUGUARD_VECTOR_TYPES(unsigned char, uchar, 2, 4)
__GPUGUARD_VECTOR_TYPES(short, short, 4, 8)
__GPUGUARD_VECTOR_TYPES(unsigned short, ushort, 4, 8)
__GPUGUARD_VECTOR_TYPES(int, int, 8, 16)
__GPUGUARD_VECTOR_TYPES(unsigned int, uint, 8, 16)
__GPUGUARD_VECTOR_TYPES(long, long, 2 * sizeof(long), 16)
__GPUGUARD_VECTOR_TYPES(unsigned long, ulong, 2 * sizeof(long), 16)
__GPUGUARD_VECTOR_TYPES(long long, longlong, 16, 16)
__GPUGUARD_VECTOR_TYPES(unsigned long long, ulonglong, 16, 16)
__GPUGUARD_VECTOR_TYPES(float, float, 8, 16)
__GPUGUARD_VECTOR_TYPES(double, double, 16, 16)

#undef __GPUGUARD_VECTOR_TYPES

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int __vx = 1,
                                     unsigned int __vy = 1,
                                     unsigned int __vz = 1)
      : x(__vx), y(__vy), z(__vz) {}
  __host__ __device__ constexpr dim3(uint3 __v)
      : x(__v.x), y(__v.y), z(__v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

//===----------------------------------------------------------------------===//
// threadIdx, blockIdx, blockDim, gridDim and warpSize
//===----------------------------------------------------------------------===//

#if defined(__CUDA__)
// Clang's own header declares the four launch variables and warpSize; it
// leaves their conversions to dim3 and uint3 to be defined once those types
// exist, which is done here.
#include <__clang_cuda_builtin_vars.h>

#define __GPUGUARD_BUILTIN_CONVERSIONS(TYPE)                                   \
  __device__ inline TYPE::operator dim3() const { return dim3(x, y, z); }      \
  __device__ inline TYPE::operator uint3() const {                             \
    uint3 __v = {x, y, z};                                                     \
    return __v;                                                                \
  }

__GPUGUARD_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
__GPUGUARD_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
__GPUGUARD_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
__GPUGUARD_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)

#undef __GPUGUARD_BUILTIN_CONVERSIONS
#endif // __CUDA__

//===----------------------------------------------------------------------===//
// Runtime types
//===----------------------------------------------------------------------===//

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidPtx = 218,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorTimeout = 909,
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
typedef struct CUevent_st *cudaEvent_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  // Removed from current toolkits but still read by older code.
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int concurrentKernels;
  int unifiedAddressing;
  int managedMemory;
  size_t sharedMemPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int regsPerMultiprocessor;
  int maxBlocksPerMultiProcessor;
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

//===----------------------------------------------------------------------===//
// Kernel launches
//===----------------------------------------------------------------------===//

// Clang lowers `k<<<grid, block, shmem, stream>>>(...)` to a call of this
// function (or, for CUDA before 9.2, of cudaConfigureCall; without
// -target-sdk-version the device side still picks that one). Clang only
// looks it up by name: it must return a scalar, and its last two parameters
// need defaults since a launch may omit them.
extern "C" __host__ __device__ unsigned
__cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim, size_t SharedMem = 0,
                            void *Stream = 0);
extern "C" __host__ cudaError_t __cudaPopCallConfiguration(dim3 *GridDim,
                                                           dim3 *BlockDim,
                                                           size_t *SharedMem,
                                                           void *Stream);
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 GridDim, dim3 BlockDim,
                                                  size_t SharedMem = 0,
                                                  cudaStream_t Stream = 0);

#if defined(__CUDA__)
// Launches from device code (with -fgpu-rdc) are lowered to these two.
extern "C" __device__ void *cudaGetParameterBuffer(size_t Alignment,
                                                   size_t Size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *Func, void *Params,
                                                   dim3 GridDim, dim3 BlockDim,
                                                   unsigned SharedMem,
                                                   cudaStream_t Stream);
#endif

//===----------------------------------------------------------------------===//
// Runtime API
//===----------------------------------------------------------------------===//

extern "C" {
// Errors.
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t Error);
__host__ __device__ const char *cudaGetErrorName(cudaError_t Error);

// Devices.
__host__ cudaError_t cudaSetDevice(int Device);
__host__ __device__ cudaError_t cudaGetDevice(int *Device);
__host__ __device__ cudaError_t cudaGetDeviceCount(int *Count);
__host__ __device__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                                        int Device);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int *Value,
                                                       cudaDeviceAttr Attr,
                                                       int Device);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaSetDeviceFlags(unsigned Flags);
__host__ cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache Config);
__host__ cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total);
__host__ cudaError_t cudaDriverGetVersion(int *Version);
__host__ __device__ cudaError_t cudaRuntimeGetVersion(int *Version);

// Memory.
__host__ __device__ cudaError_t cudaMalloc(void **DevPtr, size_t Size);
__host__ cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                                       unsigned Flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                     cudaStream_t Stream);
__host__ cudaError_t cudaMallocHost(void **Ptr, size_t Size);
__host__ cudaError_t cudaMallocPitch(void **DevPtr, size_t *Pitch, size_t Width,
                                     size_t Height);
__host__ cudaError_t cudaHostAlloc(void **Ptr, size_t Size, unsigned Flags);
__host__ __device__ cudaError_t cudaFree(void *DevPtr);
__host__ cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream);
__host__ cudaError_t cudaFreeHost(void *Ptr);
__host__ cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                cudaMemcpyKind Kind);
__host__ __device__ cudaError_t cudaMemcpyAsync(void *Dst, const void *Src,
                                                size_t Count,
                                                cudaMemcpyKind Kind,
                                                cudaStream_t Stream = 0);
__host__ cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                                  size_t SPitch, size_t Width, size_t Height,
                                  cudaMemcpyKind Kind);
__host__ cudaError_t cudaMemcpyToSymbol(
    const void *Symbol, const void *Src, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyToSymbolAsync(
    const void *Symbol, const void *Src, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyHostToDevice, cudaStream_t Stream = 0);
__host__ cudaError_t cudaMemcpyFromSymbol(
    void *Dst, const void *Symbol, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaGetSymbolAddress(void **DevPtr, const void *Symbol);
__host__ cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count);
__host__ __device__ cudaError_t cudaMemsetAsync(void *DevPtr, int Value,
                                                size_t Count,
                                                cudaStream_t Stream = 0);

// Streams and events.
__host__ cudaError_t cudaStreamCreate(cudaStream_t *Stream);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                                          unsigned Flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t Stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t Stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t Stream);
__host__ __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                                    cudaEvent_t Event,
                                                    unsigned Flags = 0);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *Event);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                                         unsigned Flags);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t Event,
                                                cudaStream_t Stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t Event);
__host__ cudaError_t cudaEventQuery(cudaEvent_t Event);
__host__ cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                          cudaEvent_t End);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t Event);

// Kernels.
__host__ cudaError_t cudaLaunchKernel(const void *Func, dim3 GridDim,
                                      dim3 BlockDim, void **Args,
                                      size_t SharedMem, cudaStream_t Stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *Func, dim3 GridDim,
                                                 dim3 BlockDim, void **Args,
                                                 size_t SharedMem,
                                                 cudaStream_t Stream);
__host__ __device__ cudaError_t cudaFuncSetAttribute(const void *Func,
                                                     cudaFuncAttribute Attr,
                                                     int Value);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *Func,
                                            cudaFuncCache Config);
__host__ __device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize);
} // extern "C"

// The C++ overloads that take typed pointers and kernels.
template <class __T>
static inline __host__ cudaError_t cudaMalloc(__T **DevPtr, size_t Size) {
  return ::cudaMalloc((void **)(void *)DevPtr, Size);
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

static inline __host__ cudaError_t cudaMallocHost(void **Ptr, size_t Size,
                                                  unsigned Flags) {
  return ::cudaHostAlloc(Ptr, Size, Flags);
}

template <class __T>
static inline __host__ cudaError_t cudaMallocHost(__T **Ptr, size_t Size,
                                                  unsigned Flags = 0) {
  return ::cudaMallocHost((void **)(void *)Ptr, Size, Flags);
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

template <class __T>
static inline __host__ cudaError_t cudaMemcpyToSymbol(
    const __T &Symbol, const void *Src, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&Symbol, Src, Count, Offset, Kind);
}

template <class __T>
static inline __host__ cudaError_t cudaMemcpyToSymbolAsync(
    const __T &Symbol, const void *Src, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyHostToDevice, cudaStream_t Stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&Symbol, Src, Count, Offset,
                                   Kind, Stream);
}

template <class __T>
static inline __host__ cudaError_t cudaMemcpyFromSymbol(
    void *Dst, const __T &Symbol, size_t Count, size_t Offset = 0,
    cudaMemcpyKind Kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(Dst, (const void *)&Symbol, Count, Offset,
                                Kind);
}

template <class __T>
static inline __host__ cudaError_t cudaGetSymbolAddress(void **DevPtr,
                                                        const __T &Symbol) {
  return ::cudaGetSymbolAddress(DevPtr, (const void *)&Symbol);
}

template <class __T>
static inline __host__ cudaError_t cudaLaunchKernel(__T *Func, dim3 GridDim,
                                                    dim3 BlockDim, void **Args,
                                                    size_t SharedMem = 0,
                                                    cudaStream_t Stream = 0) {
  return ::cudaLaunchKernel((const void *)Func, GridDim, BlockDim, Args,
                            SharedMem, Stream);
}

template <class __T>
static inline __host__ cudaError_t cudaFuncSetAttribute(__T *Func,
                                                        cudaFuncAttribute Attr,
                                                        int Value) {
  return ::cudaFuncSetAttribute((const void *)Func, Attr, Value);
}

template <class __T>
static inline __host__ cudaError_t cudaFuncSetCacheConfig(__T *Func,
                                                          cudaFuncCache Cfg) {
  return ::cudaFuncSetCacheConfig((const void *)Func, Cfg);
}

template <class __T>
static inline __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *NumBlocks, __T Func,
                                              int BlockSize,
                                              size_t DynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      NumBlocks, (const void *)Func, BlockSize, DynamicSMemSize);
}

template <class __T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *MinGridSize, int *BlockSize, __T Func, size_t DynamicSMemSize = 0,
    int BlockSizeLimit = 0);

//===----------------------------------------------------------------------===//
// Device functions
//===----------------------------------------------------------------------===//

#if defined(__CUDA__)

// C library functions that device code may call. The host versions come
// from the C library's headers, included below; these device versions come
// first so that the `using ::name;` of <cmath> sees both.
extern "C" {
__device__ int printf(const char *Format, ...);
__device__ void *malloc(size_t Size);
__device__ void free(void *Ptr);
__device__ void *memcpy(void *Dst, const void *Src, size_t Count);
__device__ void *memset(void *Dst, int Value, size_t Count);
__device__ long clock(void);
__device__ [[noreturn]] void __assert_fail(const char *Assertion,
                                           const char *File, unsigned Line,
                                           const char *Function);

__device__ int abs(int);
__device__ long labs(long);
__device__ long long llabs(long long);

__device__ float sqrtf(float);
__device__ float rsqrtf(float);
__device__ float cbrtf(float);
__device__ float expf(float);
__device__ float exp2f(float);
__device__ float exp10f(float);
__device__ float expm1f(float);
__device__ float logf(float);
__device__ float log2f(float);
__device__ float log10f(float);
__device__ float log1pf(float);
__device__ float powf(float, float);
__device__ float fabsf(float);
__device__ float fmaxf(float, float);
__device__ float fminf(float, float);
__device__ float fmodf(float, float);
__device__ float fmaf(float, float, float);
__device__ float fdimf(float, float);
__device__ float copysignf(float, float);
__device__ float hypotf(float, float);
__device__ float floorf(float);
__device__ float ceilf(float);
__device__ float roundf(float);
__device__ float truncf(float);
__device__ float rintf(float);
__device__ float nearbyintf(float);
__device__ long lroundf(float);
__device__ long long llroundf(float);
__device__ float sinf(float);
__device__ float cosf(float);
__device__ float tanf(float);
__device__ void sincosf(float, float *, float *);
__device__ float sinpif(float);
__device__ float cospif(float);
__device__ float asinf(float);
__device__ float acosf(float);
__device__ float atanf(float);
__device__ float atan2f(float, float);
__device__ float sinhf(float);
__device__ float coshf(float);
__device__ float tanhf(float);
__device__ float erff(float);
__device__ float erfcf(float);
__device__ float erfinvf(float);
__device__ float normcdff(float);
__device__ float lgammaf(float);
__device__ float tgammaf(float);
__device__ float ldexpf(float, int);
__device__ float frexpf(float, int *);
__device__ float modff(float, float *);

__device__ double sqrt(double);
__device__ double rsqrt(double);
__device__ double cbrt(double);
__device__ double exp(double);
__device__ double exp2(double);
__device__ double exp10(double);
__device__ double expm1(double);
__device__ double log(double);
__device__ double log2(double);
__device__ double log10(double);
__device__ double log1p(double);
__device__ double pow(double, double);
__device__ double fabs(double);
__device__ double fmax(double, double);
__device__ double fmin(double, double);
__device__ double fmod(double, double);
__device__ double fma(double, double, double);
__device__ double fdim(double, double);
__device__ double copysign(double, double);
__device__ double hypot(double, double);
__device__ double floor(double);
__device__ double ceil(double);
__device__ double round(double);
__device__ double trunc(double);
__device__ double rint(double);
__device__ double nearbyint(double);
__device__ long lround(double);
__device__ long long llround(double);
__device__ double sin(double);
__device__ double cos(double);
__device__ double tan(double);
__device__ void sincos(double, double *, double *);
__device__ double sinpi(double);
__device__ double cospi(double);
__device__ double asin(double);
__device__ double acos(double);
__device__ double atan(double);
__device__ double atan2(double, double);
__device__ double sinh(double);
__device__ double cosh(double);
__device__ double tanh(double);
__device__ double erf(double);
__device__ double erfc(double);
__device__ double erfinv(double);
__device__ double normcdf(double);
__device__ double lgamma(double);
__device__ double tgamma(double);
__device__ double ldexp(double, int);
__device__ double frexp(double, int *);
__device__ double modf(double, double *);
} // extern "C"

// min and max, as device code sees them.
__device__ int min(int, int);
__device__ unsigned min(unsigned, unsigned);
__device__ unsigned min(int, unsigned);
__device__ unsigned min(unsigned, int);
__device__ long min(long, long);
__device__ unsigned long min(unsigned long, unsigned long);
__device__ long long min(long long, long long);
__device__ unsigned long long min(unsigned long long, unsigned long long);
__device__ float min(float, float);
__device__ double min(double, double);
__device__ double min(float, double);
__device__ double min(double, float);
__device__ int max(int, int);
__device__ unsigned max(unsigned, unsigned);
__device__ unsigned max(int, unsigned);
__device__ unsigned max(unsigned, int);
__device__ long max(long, long);
__device__ unsigned long max(unsigned long, unsigned long);
__device__ long long max(long long, long long);
__device__ unsigned long long max(unsigned long long, unsigned long long);
__device__ float max(float, float);
__device__ double max(double, double);
__device__ double max(float, double);
__device__ double max(double, float);
__device__ unsigned umin(unsigned, unsigned);
__device__ unsigned umax(unsigned, unsigned);
__device__ long long llmin(long long, long long);
__device__ long long llmax(long long, long long);
__device__ unsigned long long ullmin(unsigned long long, unsigned long long);
__device__ unsigned long long ullmax(unsigned long long, unsigned long long);

// Synchronization and timing.
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int Predicate);
__device__ int __syncthreads_and(int Predicate);
__device__ int __syncthreads_or(int Predicate);
__device__ void __syncwarp(unsigned Mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ long long clock64(void);
__device__ void __nanosleep(unsigned Ns);
__device__ [[noreturn]] void __trap(void);
__device__ size_t __cvta_generic_to_shared(const void *Ptr);

// Warp-level primitives.
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned Mask, int Predicate);
__device__ int __all_sync(unsigned Mask, int Predicate);
__device__ int __any_sync(unsigned Mask, int Predicate);
__device__ unsigned __match_any_sync(unsigned Mask, int Value);
__device__ unsigned __match_any_sync(unsigned Mask, unsigned Value);
__device__ int __reduce_add_sync(unsigned Mask, int Value);
__device__ unsigned __reduce_add_sync(unsigned Mask, unsigned Value);
__device__ int __reduce_min_sync(unsigned Mask, int Value);
__device__ unsigned __reduce_min_sync(unsigned Mask, unsigned Value);
__device__ int __reduce_max_sync(unsigned Mask, int Value);
__device__ unsigned __reduce_max_sync(unsigned Mask, unsigned Value);

#define __GPUGUARD_SHFL(T)                                                     \
  __device__ T __shfl_sync(unsigned Mask, T Var, int SrcLane, int Width = 32); \
  __device__ T __shfl_up_sync(unsigned Mask, T Var, unsigned Delta,            \
                              int Width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned Mask, T Var, unsigned Delta,          \
                                int Width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned Mask, T Var, int LaneMask,             \
                               int Width = 32);
__GPUGUARD_SHFL(int)
__GPUGUARD_SHFL(unsigned)
__GPUGUARD_SHFL(long)
__GPUGUARD_SHFL(unsigned long)
__GPUGUARD_SHFL(long long)
__GPUGUARD_SHFL(unsigned long long)
__GPUGUARD_SHFL(float)
__GPUGUARD_SHFL(double)
#undef __GPUGUARD_SHFL

// Atomics.
__device__ int atomicAdd(int *Address, int Value);
__device__ unsigned atomicAdd(unsigned *Address, unsigned Value);
__device__ unsigned long long atomicAdd(unsigned long long *Address,
                                        unsigned long long Value);
__device__ float atomicAdd(float *Address, float Value);
__device__ double atomicAdd(double *Address, double Value);
__device__ int atomicSub(int *Address, int Value);
__device__ unsigned atomicSub(unsigned *Address, unsigned Value);
__device__ int atomicExch(int *Address, int Value);
__device__ unsigned atomicExch(unsigned *Address, unsigned Value);
__device__ unsigned long long atomicExch(unsigned long long *Address,
                                         unsigned long long Value);
__device__ float atomicExch(float *Address, float Value);
__device__ int atomicMin(int *Address, int Value);
__device__ unsigned atomicMin(unsigned *Address, unsigned Value);
__device__ long long atomicMin(long long *Address, long long Value);
__device__ unsigned long long atomicMin(unsigned long long *Address,
                                        unsigned long long Value);
__device__ int atomicMax(int *Address, int Value);
__device__ unsigned atomicMax(unsigned *Address, unsigned Value);
__device__ long long atomicMax(long long *Address, long long Value);
__device__ unsigned long long atomicMax(unsigned long long *Address,
                                        unsigned long long Value);
__device__ unsigned atomicInc(unsigned *Address, unsigned Value);
__device__ unsigned atomicDec(unsigned *Address, unsigned Value);
__device__ int atomicCAS(int *Address, int Compare, int Value);
__device__ unsigned atomicCAS(unsigned *Address, unsigned Compare,
                              unsigned Value);
__device__ unsigned long long atomicCAS(unsigned long long *Address,
                                        unsigned long long Compare,
                                        unsigned long long Value);
__device__ unsigned short atomicCAS(unsigned short *Address,
                                    unsigned short Compare,
                                    unsigned short Value);
__device__ int atomicAnd(int *Address, int Value);
__device__ unsigned atomicAnd(unsigned *Address, unsigned Value);
__device__ unsigned long long atomicAnd(unsigned long long *Address,
                                        unsigned long long Value);
__device__ int atomicOr(int *Address, int Value);
__device__ unsigned atomicOr(unsigned *Address, unsigned Value);
__device__ unsigned long long atomicOr(unsigned long long *Address,
                                       unsigned long long Value);
__device__ int atomicXor(int *Address, int Value);
__device__ unsigned atomicXor(unsigned *Address, unsigned Value);
__device__ unsigned long long atomicXor(unsigned long long *Address,
                                        unsigned long long Value);

// Read-only cached loads.
#define __GPUGUARD_LDG(T) __device__ T __ldg(const T *Ptr);
__GPUGUARD_LDG(char)
__GPUGUARD_LDG(signed char)
__GPUGUARD_LDG(unsigned char)
__GPUGUARD_LDG(short)
__GPUGUARD_LDG(unsigned short)
__GPUGUARD_LDG(int)
__GPUGUARD_LDG(unsigned)
__GPUGUARD_LDG(long)
__GPUGUARD_LDG(unsigned long)
__GPUGUARD_LDG(long long)
__GPUGUARD_LDG(unsigned long long)
__GPUGUARD_LDG(float)
__GPUGUARD_LDG(double)
__GPUGUARD_LDG(char2)
__GPUGUARD_LDG(char4)
__GPUGUARD_LDG(uchar2)
__GPUGUARD_LDG(uchar4)
__GPUGUARD_LDG(short2)
__GPUGUARD_LDG(short4)
__GPUGUARD_LDG(int2)
__GPUGUARD_LDG(int4)
__GPUGUARD_LDG(uint2)
__GPUGUARD_LDG(uint4)
__GPUGUARD_LDG(longlong2)
__GPUGUARD_LDG(ulonglong2)
__GPUGUARD_LDG(float2)
__GPUGUARD_LDG(float4)
__GPUGUARD_LDG(double2)
#undef __GPUGUARD_LDG

// Integer intrinsics.
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned __brev(unsigned);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned __byte_perm(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_l(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_r(unsigned, unsigned, unsigned);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ int __mulhi(int, int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long,
                                         unsigned long long);

// Fast and explicitly rounded floating-point intrinsics.
__device__ float __fdividef(float, float);
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __saturatef(float);
__device__ float __fadd_rn(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double);

// Conversions and reinterpretations.
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ int __float2int_rd(float);
__device__ int __float2int_ru(float);
__device__ unsigned __float2uint_rn(float);
__device__ unsigned __float2uint_rz(float);
__device__ long long __float2ll_rn(float);
__device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned);
__device__ float __ll2float_rn(long long);
__device__ float __double2float_rn(double);
__device__ int __double2int_rn(double);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);
__device__ double __hiloint2double(int, int);
__device__ int __float_as_int(float);
__device__ float __int_as_float(int);
__device__ unsigned __float_as_uint(float);
__device__ float __uint_as_float(unsigned);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);

#endif // __CUDA__

// The C library's own declarations, which CUDA programs often get through
// the runtime header.
#if __has_include(<stdlib.h>)
#include <stdlib.h>
#endif
#if __has_include(<string.h>)
#include <string.h>
#endif
#if __has_include(<math.h>)
#include <math.h>
#endif

#endif // GPUGUARD_CUDA_FALLBACK_H
