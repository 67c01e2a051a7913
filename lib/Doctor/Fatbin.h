//===--- Fatbin.h - The GPU code a CUDA binary carries ----------*- C++ -*-===//
///
/// \file
/// Reads the `.nv_fatbin` section that nvcc links into a program or library:
/// one or more fat binaries, each a list of entries that hold either SASS
/// (a cubin for one `sm_XY`) or PTX (for a `compute_XY`, compiled by the
/// driver at load time). The layout (magic 0xBA55ED50, a 16-byte header,
/// then entries with their kind, size and architecture) is the one the
/// CUDA toolkit's `fatbinary` writes and `cuobjdump` lists.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DOCTOR_FATBIN_H
#define GPUGUARD_DOCTOR_FATBIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace gpuguard::doctor {

struct EmbeddedCode {
  enum KindType { Sass, Ptx } Kind = Sass;
  /// The architecture as nvcc numbers it: 80 for sm_80 and compute_80.
  unsigned Arch = 0;
};

/// The entries of every fat binary in \p Section, in order. An error when
/// the bytes are not fat binaries or an entry runs past the end.
llvm::Expected<std::vector<EmbeddedCode>> parseFatbins(llvm::StringRef Section);

/// `sm_80` or `compute_80`.
std::string archName(const EmbeddedCode &Code);

} // namespace gpuguard::doctor

#endif // GPUGUARD_DOCTOR_FATBIN_H
