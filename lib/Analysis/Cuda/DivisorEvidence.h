//===--- DivisorEvidence.h - Why a divisor can be zero ----------*- C++ -*-===//
///
/// \file
/// cuda-div-by-zero reports a division only with evidence that its divisor
/// can be zero in a run; a divisor that merely is not proven non-zero (a
/// plain parameter, a configuration field) is unproven, reported only in
/// the strict profile. The evidence:
///  - the function compares the divisor, or a copy of it, with zero: its
///    author expects a zero;
///  - a launch in view passes the kernel's parameter a value that can be
///    zero (a literal 0, a quotient, a difference: LaunchArguments.h);
///  - an integer difference of two values that can meet (`end - begin`);
///    a floating-point difference of two values read from memory
///    (`colMax[c] - colMin[c]`), equal for a constant column;
///  - a count read from an array (`counts[b]`, `*count`), zero for an empty
///    bucket; not a field of a descriptor (`info.sizes[d]`, `cfg->n`),
///    which holds a shape set up front.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_DIVISOREVIDENCE_H
#define GPUGUARD_ANALYSIS_CUDA_DIVISOREVIDENCE_H

#include "Analysis/Cuda/LaunchArguments.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace gpuguard {
class ComparedValues;
class NonZeroAnalysis;
struct ZeroSource;
} // namespace gpuguard

namespace gpuguard::cuda {

class KernelLaunches;

/// Whether CUDA guarantees \p E positive: a launch extent (`blockDim.x`,
/// `gridDim.y`, `warpSize`, a field of a `dim3`). A launch with a zero
/// extent fails before any thread runs.
bool isLaunchExtent(const clang::Expr *E);

/// The name of the variable or member a load reads: `counts` in
/// `counts[b]`, `*(counts + b)` and `s.counts[b]`, `n` in `p->n`; empty
/// when there is none.
llvm::StringRef loadedName(const clang::Expr *E);

/// Whether \p E reads an element of an array: `counts[b]`, `*count`; not a
/// field of a configuration struct (`cfg->num_procs`) nor an element of a
/// fixed array in a descriptor reached by value or reference
/// (`info.sizes[d]`), which hold values set up front.
bool isElementLoad(const clang::Expr *E);

/// Words that mark a name as a count, matched against the words of
/// camelCase and snake_case names (`numValid`, `valid_count`, `nSamples`).
class CountWords {
public:
  /// \p List holds the words separated by semicolons, case-insensitive.
  explicit CountWords(llvm::StringRef List);
  bool isCountName(llvm::StringRef Name) const;

private:
  std::vector<std::string> Vocabulary;
};

struct DivisorEvidence {
  bool Found = false;
  /// The launch whose argument can be zero, when that is the evidence.
  std::optional<ZeroArgument> Launch;
  explicit operator bool() const { return Found; }
};

/// What shows that \p Source, one origin of \p Divisor in \p Function, can
/// be zero; empty when nothing does. \p Launches gives the translation
/// unit's launches, asked for only when a kernel's parameter needs them.
DivisorEvidence
divisorEvidence(const ZeroSource &Source, const clang::Expr &Divisor,
                const clang::FunctionDecl &Function,
                const NonZeroAnalysis &Analysis, const ComparedValues &Compared,
                llvm::function_ref<const KernelLaunches &()> Launches,
                const CountWords &Counts, clang::ASTContext &Context);

} // namespace gpuguard::cuda

#endif // GPUGUARD_ANALYSIS_CUDA_DIVISOREVIDENCE_H
