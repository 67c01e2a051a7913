//===--- LaunchArguments.h - What launches pass a kernel -------*- C++ -*-===//
///
/// \file
/// What the visible launches of a kernel pass for one of its parameters, as
/// far as it bears on a zero: a kernel divides by a parameter, and only its
/// launches show whether that parameter can be zero. A launch that passes a
/// constant zero, or a count split into chunks of a constant size (`n /
/// 1024` is 0 for n below 1024), or a difference of two values that can
/// meet, is evidence; a launch that passes a non-zero constant is evidence
/// that this one is fine.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_LAUNCHARGUMENTS_H
#define GPUGUARD_ANALYSIS_CUDA_LAUNCHARGUMENTS_H

#include "clang/AST/Expr.h"
#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace gpuguard::cuda {

class KernelLaunches;

enum class ZeroArgumentKind {
  Zero,               ///< The launch passes a constant 0.
  TruncatingQuotient, ///< `n / c`, 0 when n is below the constant c.
  Difference,         ///< A difference of two values that can be equal.
};

struct ZeroArgument {
  ZeroArgumentKind Kind;
  /// The argument as the launch writes it.
  const clang::Expr *Argument = nullptr;
  /// The value found behind it: the quotient or difference, through the
  /// constants and unchanged locals the argument names.
  const clang::Expr *Value = nullptr;
};

/// The first launch of \p Kernel, in the translation unit's order, whose
/// argument for \p Param can be zero, and why; std::nullopt when no visible
/// launch shows that.
std::optional<ZeroArgument> zeroArgumentFor(const clang::FunctionDecl &Kernel,
                                            const clang::ParmVarDecl &Param,
                                            const KernelLaunches &Launches,
                                            clang::ASTContext &Context);

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_LAUNCHARGUMENTS_H
