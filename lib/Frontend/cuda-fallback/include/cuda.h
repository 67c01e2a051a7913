//===- cuda.h - CUDA driver API stand-in ------------------------*- C++ -*-===//
//
// gpuguard's minimal stand-in for the CUDA headers, used only to parse code
// when no CUDA toolkit is installed. Besides the runtime declarations of
// __gpuguard_cuda_fallback.h it declares a few common driver API names.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FALLBACK_CUDA_H
#define GPUGUARD_FALLBACK_CUDA_H

#include "__gpuguard_cuda_fallback.h"

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

extern "C" {
CUresult cuInit(unsigned Flags);
CUresult cuDriverGetVersion(int *Version);
CUresult cuDeviceGet(CUdevice *Device, int Ordinal);
CUresult cuDeviceGetCount(int *Count);
CUresult cuDeviceGetName(char *Name, int Len, CUdevice Device);
CUresult cuCtxGetCurrent(CUcontext *Context);
CUresult cuCtxSynchronize(void);
CUresult cuGetErrorName(CUresult Error, const char **Str);
CUresult cuGetErrorString(CUresult Error, const char **Str);
CUresult cuMemAlloc(CUdeviceptr *DevPtr, size_t Size);
CUresult cuMemFree(CUdeviceptr DevPtr);
CUresult cuModuleLoad(CUmodule *Module, const char *Path);
CUresult cuModuleGetFunction(CUfunction *Function, CUmodule Module,
                             const char *Name);
CUresult cuLaunchKernel(CUfunction Function, unsigned GridX, unsigned GridY,
                        unsigned GridZ, unsigned BlockX, unsigned BlockY,
                        unsigned BlockZ, unsigned SharedMem, CUstream Stream,
                        void **Params, void **Extra);
} // extern "C"

#endif // GPUGUARD_FALLBACK_CUDA_H
