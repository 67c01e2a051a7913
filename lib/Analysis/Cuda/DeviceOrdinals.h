//===--- DeviceOrdinals.h - Where a device ordinal comes from ---*- C++ -*-===//
///
/// \file
/// Traces a device ordinal (the argument of `cudaSetDevice`, of a
/// `torch::Device(torch::kCUDA, k)`, ...) back through the local variables
/// of its function to where it was read: an environment variable
/// (`LOCAL_RANK`, `RANK`), the command line, or the world rank of MPI; and
/// says whether the function compares it with the device count
/// (`cudaGetDeviceCount`, `torch::cuda::device_count()`) or maps it with a
/// remainder. Programs launched by torchrun, mpirun or Slurm pick their GPU
/// this way, and a global rank used as a device names a GPU that does not
/// exist on every node after the first.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_DEVICEORDINALS_H
#define GPUGUARD_ANALYSIS_CUDA_DEVICEORDINALS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace gpuguard {

struct OrdinalSource {
  enum KindType {
    /// `getenv("LOCAL_RANK")`; Name is the variable.
    Environment,
    /// `argv[i]`.
    CommandLine,
    /// `MPI_Comm_rank(MPI_COMM_WORLD, &r)`.
    MpiWorldRank,
  } Kind = Environment;
  std::string Name;
  /// The read: the getenv call, the use of argv, the MPI call.
  const clang::Expr *Where = nullptr;
  /// Whether it is a rank over all nodes, not within one: `RANK`,
  /// `OMPI_COMM_WORLD_RANK`, `PMI_RANK`, `SLURM_PROCID`, MPI's world rank.
  bool isGlobalRank() const;
};

struct OrdinalTrace {
  std::vector<OrdinalSource> Sources;
  /// Compared with a device count somewhere in the function, or reduced
  /// modulo one.
  bool CheckedAgainstDeviceCount = false;
  /// Passed through a remainder (`rank % gpus_per_node`) on its way.
  bool Remapped = false;
};

/// Where \p Ordinal, an expression in \p Function, comes from.
OrdinalTrace traceDeviceOrdinal(const clang::Expr &Ordinal,
                                const clang::FunctionDecl &Function);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_DEVICEORDINALS_H
