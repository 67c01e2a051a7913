//===- FakeCudaRuntime.h - A CUDA runtime without a GPU, for tests --------===//
//
// The CUDA runtime functions the runtime's CUDA host side calls, implemented
// on host memory: a "device symbol" is the host address of a module's
// DeviceModuleState, so a test plays the kernel by writing records into it
// and sees what the host side copies in and out. Errors are scripted.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_FAKE_CUDA_RUNTIME_H
#define GPUGUARD_TEST_FAKE_CUDA_RUNTIME_H

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <set>

namespace fake_cuda {

struct Script {
  /// Returned by every call when set (no device, no driver, ...).
  cudaError_t Everything = cudaSuccess;
  /// Returned by the synchronising calls, as a kernel's sticky error is.
  cudaError_t Sticky = cudaSuccess;
  /// Left pending by the last launch (cudaPeekAtLastError sees it).
  cudaError_t Launch = cudaSuccess;
  /// Symbols that do not exist on the device, and what copies to them
  /// return (cudaErrorNoKernelImageForDevice: a module with no image for
  /// this GPU).
  std::set<const void *> MissingSymbols;
  cudaError_t MissingSymbolError = cudaErrorInvalidSymbol;
  /// When set, a copy to a symbol is written in pieces of TearBytes bytes
  /// in a shuffled order, and DuringCopy runs after each piece: a kernel
  /// reading the symbol while the copy is under way, as on a real device,
  /// where a copy is not atomic and its writes land in no set order.
  size_t TearBytes = 0;
  std::function<void()> DuringCopy;
  /// Runs inside cudaDeviceSynchronize: another thread's work meanwhile.
  std::function<void()> DuringDeviceSynchronize;
  /// The device's memory: an allocation beyond it fails with
  /// cudaErrorMemoryAllocation.
  size_t Capacity = size_t(16) << 30;
  /// The GPU's compute capability, and the versions the driver supports
  /// and the runtime is (cudaDriverGetVersion's numbering).
  int Major = 9, Minor = 0;
  int DriverVersion = 13000, RuntimeVersion = 13000;
  /// The GPUs the process sees, and the one cudaSetDevice made current.
  int DeviceCount = 1;
  int CurrentDevice = 0;
};

/// Resets the script, the last error and the allocations.
void reset();
Script &script();
/// The live fake allocations, by base.
const std::map<unsigned long long, size_t> &allocations();

} // namespace fake_cuda

#endif // GPUGUARD_TEST_FAKE_CUDA_RUNTIME_H
