//===--- BuiltinVariables.h - CUDA's built-in variables ---------*- C++ -*-===//
///
/// \file
/// Recognises CUDA's launch coordinate builtins (threadIdx, blockIdx,
/// blockDim, gridDim and their .x/.y/.z members) in the AST. Clang models them
/// as MS properties (a PseudoObjectExpr around an MSPropertyRefExpr) when the
/// toolkit's or Clang's wrapper headers are used, and as plain member accesses
/// of a uint3/dim3 global in simpler headers; both shapes are accepted.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_BUILTINVARIABLES_H
#define GPUGUARD_ANALYSIS_CUDA_BUILTINVARIABLES_H

#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace gpuguard {

enum class BuiltinVariable { ThreadIdx, BlockIdx, BlockDim, GridDim };

/// One component of a launch builtin, such as `blockIdx.x`.
struct BuiltinComponent {
  BuiltinVariable Kind;
  char Dimension; ///< 'x', 'y' or 'z'.

  /// The spelling a user writes, such as "blockIdx.x".
  std::string spelling() const;
  /// True for coordinates that vary between threads (threadIdx, blockIdx),
  /// false for the launch extents (blockDim, gridDim).
  bool isCoordinate() const {
    return Kind == BuiltinVariable::ThreadIdx ||
           Kind == BuiltinVariable::BlockIdx;
  }
};

/// Returns the builtin component \p E reads, looking through parentheses and
/// implicit casts, or std::nullopt when \p E is not one.
std::optional<BuiltinComponent> getBuiltinComponent(const clang::Expr *E);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_BUILTINVARIABLES_H
