//===--- IndexSites.h - Runtime checks of device indexes --------*- C++ -*-===//
///
/// \file
/// The runtime-check sites of `gpuguard instrument` for the device indexes
/// that GuardAnalysis finds unproven: a check against the bound the access
/// is known to have (a constant array's extent, or the bound its guard
/// compares with), else against the runtime's registry of device
/// allocations. This is CUDA's part of lib/Instrument, built as a library of
/// its own so that the LibTorch checks, which record into lib/Instrument,
/// still cannot reach the CUDA analyses.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_INSTRUMENT_CUDA_INDEXSITES_H
#define GPUGUARD_INSTRUMENT_CUDA_INDEXSITES_H

#include "Analysis/Cuda/GuardAnalysis.h"
#include "Instrument/Recorder.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <string>

namespace gpuguard::instrument {

/// The text of a bound the index of \p Finding must stay below, valid where
/// the access is written, if one is known. Arrays whose names match
/// \p ExtentPlusOneArrays hold one element more than their index's bound, so
/// their guard's bound is not their extent.
std::optional<std::string> runtimeIndexBound(
    const UnguardedAccess &Finding, const clang::FunctionDecl &Function,
    clang::ASTContext &Context, const llvm::Regex *ExtentPlusOneArrays);

/// Records the runtime check of \p Finding's index for \p Check: against
/// runtimeIndexBound() when there is one, else against the allocation its
/// pointer points into. \p Flagged is the location of the finding's
/// diagnostic, invalid for an access checked only with --instrument=all.
void addIndexSite(Recorder &R, const UnguardedAccess &Finding,
                  const clang::FunctionDecl &Function,
                  clang::ASTContext &Context, llvm::StringRef Check,
                  clang::SourceLocation Flagged,
                  const llvm::Regex *ExtentPlusOneArrays);

} // namespace gpuguard::instrument

#endif // GPUGUARD_INSTRUMENT_CUDA_INDEXSITES_H
