//===- FakeCudaRuntime.cpp - A CUDA runtime without a GPU, for tests ------===//

#include "FakeCudaRuntime.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace fake_cuda {
namespace {

struct State {
  Script S;
  cudaError_t LastError = cudaSuccess;
  std::map<unsigned long long, size_t> Allocations;
  unsigned long long NextBase = 0x7f0000000000ull;
};

State &state() {
  static State *Instance = new State();
  return *Instance;
}

/// Sets the last error like the CUDA runtime: only failures do.
cudaError_t result(cudaError_t E) {
  if (E != cudaSuccess)
    state().LastError = E;
  return E;
}

size_t used() {
  size_t Used = 0;
  for (const auto &Allocation : state().Allocations)
    Used += Allocation.second;
  return Used;
}

cudaError_t allocate(void **Ptr, size_t Size) {
  if (state().S.Everything != cudaSuccess)
    return result(state().S.Everything);
  if (Size > state().S.Capacity - used())
    return result(cudaErrorMemoryAllocation);
  unsigned long long Base = state().NextBase;
  state().NextBase += (Size + 0xfff) & ~0xfffull;
  state().Allocations[Base] = Size;
  *Ptr = reinterpret_cast<void *>(Base);
  return cudaSuccess;
}

cudaError_t release(void *Ptr) {
  if (state().S.Everything != cudaSuccess)
    return result(state().S.Everything);
  if (Ptr &&
      !state().Allocations.erase(reinterpret_cast<unsigned long long>(Ptr)))
    return result(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t synchronise() {
  if (state().S.Everything != cudaSuccess)
    return result(state().S.Everything);
  return result(state().S.Sticky);
}

cudaError_t symbolCopy(void *Dst, const void *Src, const void *Symbol) {
  if (state().S.Everything != cudaSuccess)
    return result(state().S.Everything);
  if (state().S.Sticky != cudaSuccess)
    return result(state().S.Sticky);
  if (state().S.MissingSymbols.count(Symbol))
    return result(state().S.MissingSymbolError);
  (void)Dst;
  (void)Src;
  return cudaSuccess;
}

} // namespace

void reset() {
  state().S = Script();
  state().LastError = cudaSuccess;
  state().Allocations.clear();
}

Script &script() { return state().S; }

const std::map<unsigned long long, size_t> &allocations() {
  return state().Allocations;
}

} // namespace fake_cuda

using fake_cuda::script;

extern "C" {

cudaError_t cudaGetDevice(int *Device) {
  if (script().Everything != cudaSuccess)
    return fake_cuda::result(script().Everything);
  *Device = script().CurrentDevice;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int *Count) {
  if (script().Everything != cudaSuccess)
    return fake_cuda::result(script().Everything);
  *Count = script().DeviceCount;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int Device) {
  if (script().Everything != cudaSuccess)
    return fake_cuda::result(script().Everything);
  if (Device < 0 || Device >= script().DeviceCount)
    return fake_cuda::result(cudaErrorInvalidDevice);
  script().CurrentDevice = Device;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream, unsigned) {
  if (script().Everything != cudaSuccess)
    return fake_cuda::result(script().Everything);
  static int Dummy;
  *Stream = reinterpret_cast<cudaStream_t>(&Dummy);
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol, const void *Src,
                                    size_t Count, size_t Offset, cudaMemcpyKind,
                                    cudaStream_t) {
  cudaError_t E = fake_cuda::symbolCopy(nullptr, Src, Symbol);
  if (E != cudaSuccess)
    return E;
  char *Dst = static_cast<char *>(const_cast<void *>(Symbol)) + Offset;
  const fake_cuda::Script &S = fake_cuda::script();
  if (!S.TearBytes) {
    std::memcpy(Dst, Src, Count);
    return E;
  }
  // Pieces from both ends inwards: the last bytes (the table's end, or a
  // field) land before the first.
  std::vector<size_t> Pieces;
  for (size_t At = 0; At < Count; At += S.TearBytes)
    Pieces.push_back(At);
  for (size_t I = 0; I < Pieces.size(); ++I) {
    size_t At = I % 2 ? Pieces[I / 2] : Pieces[Pieces.size() - 1 - I / 2];
    std::memcpy(Dst + At, static_cast<const char *>(Src) + At,
                std::min(S.TearBytes, Count - At));
    if (S.DuringCopy)
      S.DuringCopy();
  }
  return E;
}

cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                      size_t Count, size_t Offset,
                                      cudaMemcpyKind, cudaStream_t) {
  cudaError_t E = fake_cuda::symbolCopy(Dst, nullptr, Symbol);
  if (E == cudaSuccess)
    std::memcpy(Dst, static_cast<const char *>(Symbol) + Offset, Count);
  return E;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return fake_cuda::synchronise();
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return fake_cuda::synchronise();
}
cudaError_t cudaDeviceSynchronize() {
  if (fake_cuda::script().DuringDeviceSynchronize)
    fake_cuda::script().DuringDeviceSynchronize();
  return fake_cuda::synchronise();
}

cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind) {
  return fake_cuda::synchronise();
}

cudaError_t cudaPeekAtLastError() {
  if (script().Launch != cudaSuccess)
    fake_cuda::result(script().Launch);
  return fake_cuda::state().LastError;
}

cudaError_t cudaGetLastError() {
  cudaError_t E = cudaPeekAtLastError();
  fake_cuda::state().LastError = cudaSuccess;
  script().Launch = cudaSuccess;
  return E;
}

const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidSymbol:
    return "cudaErrorInvalidSymbol";
  case cudaErrorNoDevice:
    return "cudaErrorNoDevice";
  case cudaErrorNoKernelImageForDevice:
    return "cudaErrorNoKernelImageForDevice";
  case cudaErrorInsufficientDriver:
    return "cudaErrorInsufficientDriver";
  case cudaErrorIllegalAddress:
    return "cudaErrorIllegalAddress";
  default:
    return "cudaErrorUnknown";
  }
}

const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "no error";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorNoDevice:
    return "no CUDA-capable device is detected";
  case cudaErrorNoKernelImageForDevice:
    return "no kernel image is available for execution on the device";
  case cudaErrorInsufficientDriver:
    return "CUDA driver version is insufficient for CUDA runtime version";
  case cudaErrorIllegalAddress:
    return "an illegal memory access was encountered";
  default:
    return "unknown error";
  }
}

cudaError_t cudaMalloc(void **Ptr, size_t Size) {
  return fake_cuda::allocate(Ptr, Size);
}
cudaError_t cudaMallocManaged(void **Ptr, size_t Size, unsigned) {
  return fake_cuda::allocate(Ptr, Size);
}
cudaError_t cudaMallocAsync(void **Ptr, size_t Size, cudaStream_t) {
  return fake_cuda::allocate(Ptr, Size);
}
cudaError_t cudaMallocFromPoolAsync(void **Ptr, size_t Size, cudaMemPool_t,
                                    cudaStream_t) {
  return fake_cuda::allocate(Ptr, Size);
}
cudaError_t cudaFree(void *Ptr) { return fake_cuda::release(Ptr); }
cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Total = fake_cuda::state().S.Capacity;
  *Free = *Total - fake_cuda::used();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attribute, int) {
  const fake_cuda::Script &S = fake_cuda::state().S;
  *Value = Attribute == cudaDevAttrComputeCapabilityMajor   ? S.Major
           : Attribute == cudaDevAttrComputeCapabilityMinor ? S.Minor
                                                            : 0;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *Version) {
  *Version = fake_cuda::state().S.DriverVersion;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *Version) {
  *Version = fake_cuda::state().S.RuntimeVersion;
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  fake_cuda::state().Allocations.clear();
  return cudaSuccess;
}
cudaError_t cudaFreeAsync(void *Ptr, cudaStream_t) {
  return fake_cuda::release(Ptr);
}

} // extern "C"
