//===- CudaHost.h - The CUDA host side's internal interface ---------------===//
///
/// \file
/// What the unit tests of the CUDA host side need beyond rt.h.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_RUNTIME_CUDAHOST_H
#define GPUGUARD_RUNTIME_CUDAHOST_H

#include <string>

namespace gpuguard {
namespace rt {
namespace detail {

/// Registers a module's device state (rt.h does this for every translation
/// unit compiled as CUDA).
void registerDeviceModule(const void *StateSymbol);

/// Tests only: forgets what was pushed to and drained from each module, the
/// last launch, and whether an asynchronous error was reported. The modules
/// stay registered.
void resetCudaHostForTesting();

/// The line said before the first allocation or launch when the driver
/// (cudaDriverGetVersion's \p Driver) cannot run a program built with the
/// CUDA runtime \p Runtime; empty when it can.
std::string driverMismatchNotice(int Driver, int Runtime);

} // namespace detail
} // namespace rt
} // namespace gpuguard

#endif // GPUGUARD_RUNTIME_CUDAHOST_H
