//===--- BinaryInspection.h - What a CUDA program needs to run --*- C++ -*-===//
///
/// \file
/// Reads, without running it, what a program or library built by nvcc needs
/// from the machine: the GPU code it carries (Fatbin.h), the CUDA runtime it
/// links (dynamically, `libcudart.so.N`, or statically, nvcc's default), the
/// toolkit release that compiled it, and, for LibTorch programs, the CUDA
/// runtime that LibTorch itself links.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DOCTOR_BINARYINSPECTION_H
#define GPUGUARD_DOCTOR_BINARYINSPECTION_H

#include "Doctor/Fatbin.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::doctor {

/// A CUDA version, 13.0 as {13, 0}.
struct CudaVersion {
  unsigned Major = 0, Minor = 0;
  bool operator<(const CudaVersion &O) const {
    return Major != O.Major ? Major < O.Major : Minor < O.Minor;
  }
  std::string str() const {
    return std::to_string(Major) + "." + std::to_string(Minor);
  }
};

struct RuntimeLink {
  enum KindType {
    None,    ///< no CUDA runtime: no GPU code, or the driver API only
    Dynamic, ///< `libcudart.so.N`
    Static,  ///< `libcudart_static.a`, nvcc's default
  } Kind = None;
  /// The runtime's version: the toolkit release that built the program
  /// (static), or the library's major version with that release's minor
  /// when they agree (dynamic).
  std::optional<CudaVersion> Version;
  /// Dynamic: the name the program asks for, `libcudart.so.13`.
  std::string Library;
};

struct BinaryReport {
  std::string Path;
  std::vector<EmbeddedCode> Code;
  RuntimeLink Runtime;
  /// "Cuda compilation tools, release 13.0": the nvcc that compiled it.
  std::optional<CudaVersion> ToolkitRelease;
  std::vector<std::string> Needed;
  /// LibTorch's CUDA library when the program links one, where it was
  /// found (empty when not found), and the CUDA runtime it links.
  std::string TorchCudaLibrary;
  std::string TorchCudaPath;
  std::optional<CudaVersion> TorchCuda;
};

/// Reads the ELF file \p Path. An error when it cannot be read or is not a
/// 64-bit little-endian ELF file.
llvm::Expected<BinaryReport> inspectBinary(llvm::StringRef Path);

/// The release in "Cuda compilation tools, release X.Y" inside \p Bytes.
std::optional<CudaVersion> findToolkitRelease(llvm::StringRef Bytes);

/// The major version of a CUDA runtime library's name: 13 for
/// `libcudart.so.13`, 11 for `libcudart.so.11.0`; none for other names.
std::optional<unsigned> cudartMajor(llvm::StringRef Library);

} // namespace gpuguard::doctor

#endif // GPUGUARD_DOCTOR_BINARYINSPECTION_H
