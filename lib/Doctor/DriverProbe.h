//===--- DriverProbe.h - The NVIDIA driver and its GPUs ---------*- C++ -*-===//
///
/// \file
/// Asks the installed NVIDIA driver, through `libcuda.so.1` loaded at run
/// time (so that gpuguard runs on machines without one), which CUDA version
/// it supports and which GPUs it sees; and reads the kernel module's version
/// from /proc where the system shows it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DOCTOR_DRIVERPROBE_H
#define GPUGUARD_DOCTOR_DRIVERPROBE_H

#include "Doctor/BinaryInspection.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::doctor {

struct GpuInfo {
  unsigned Index = 0;
  std::string Name;
  /// Compute capability: 9.0 as {9, 0}.
  unsigned Major = 0, Minor = 0;
  unsigned arch() const { return Major * 10 + Minor; }
};

struct DriverReport {
  /// The library asked for and whether it loaded; why not, when not.
  std::string Library;
  bool Loaded = false;
  std::string LoadError;
  /// The newest CUDA version the driver supports (cuDriverGetVersion).
  std::optional<CudaVersion> Supports;
  /// "580.159.04" from /proc/driver/nvidia/version, when readable.
  std::string KernelModule;
  /// cuInit's failure, by name (`CUDA_ERROR_NO_DEVICE`), when it failed.
  std::string InitError;
  std::vector<GpuInfo> Gpus;
};

/// Loads \p Library (`libcuda.so.1` when empty) and asks it.
DriverReport probeDriver(llvm::StringRef Library);

/// The version in the text of /proc/driver/nvidia/version:
/// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..."
std::string kernelModuleVersion(llvm::StringRef ProcText);

} // namespace gpuguard::doctor

#endif // GPUGUARD_DOCTOR_DRIVERPROBE_H
