//===--- DivisionSites.h - Runtime checks of divisions ----------*- C++ -*-===//
///
/// \file
/// The runtime-check sites of `gpuguard instrument` for a division in CUDA
/// code that NonZeroAnalysis does not prove safe. A zero integer divisor is
/// undefined behaviour, so the divisor is checked (and replaced by 1 when it
/// is zero). A zero floating-point divisor gives infinity or NaN, harmless
/// until it becomes an integer, so each conversion the quotient feeds is
/// checked for a finite value (FloatConversions).
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_INSTRUMENT_CUDA_DIVISIONSITES_H
#define GPUGUARD_INSTRUMENT_CUDA_DIVISIONSITES_H

#include "Instrument/Recorder.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace gpuguard::instrument {

/// What a division divides: it decides what the runtime checks.
enum class DivisionSort { Integer, FloatingPoint };

/// Records the runtime checks of \p Division for \p Check. \p Flagged is the
/// location of the finding's diagnostic, invalid for a division checked only
/// with --instrument=all.
void addDivisionSites(Recorder &R, const clang::BinaryOperator &Division,
                      DivisionSort Sort, const clang::FunctionDecl &Function,
                      clang::ASTContext &Context, llvm::StringRef Check,
                      clang::SourceLocation Flagged);

} // namespace gpuguard::instrument

#endif // GPUGUARD_INSTRUMENT_CUDA_DIVISIONSITES_H
