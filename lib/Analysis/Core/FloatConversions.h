//===--- FloatConversions.h - Where floats become integers ------*- C++ -*-===//
///
/// \file
/// The conversions from floating point to an integer in a function body, and
/// which of them a given value flows into. Converting NaN or infinity to an
/// integer is undefined, so an analysis that knows a value can be non-finite
/// (a division by zero, an unchecked load) asks where it becomes an integer.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_FLOATCONVERSIONS_H
#define GPUGUARD_ANALYSIS_CORE_FLOATCONVERSIONS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace gpuguard {

/// A floating-point to integer conversion: where it is written, and the
/// floating-point value it converts.
struct FloatToIntegerConversion {
  clang::SourceLocation Loc;
  const clang::Expr *Value = nullptr;
};

/// The conversion \p S performs from floating point to an integer, if any.
/// An explicit cast is one (`(int)x`, `static_cast<int>(x)`) whose value is
/// the operand of the implicit conversion inside it.
std::optional<FloatToIntegerConversion>
getFloatToIntegerConversion(const clang::Stmt *S);

/// The floating-point to integer conversions in \p Body whose operand holds
/// the value of \p Source: directly, or through the locals that take it on.
/// The walk is flow-insensitive, so a conversion may be listed that a later
/// assignment makes harmless; callers that check at run time accept that.
llvm::SmallVector<FloatToIntegerConversion, 2>
conversionsFedBy(const clang::Expr &Source, const clang::Stmt &Body);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_FLOATCONVERSIONS_H
