//===--- ResultUse.h - Whether a value is used or discarded -----*- C++ -*-===//
///
/// \file
/// Decides from an expression's context whether its value is used or thrown
/// away: as an expression statement, the left side of a comma, a branch of a
/// discarded `?:`, or a cast to void. Anything else (an initializer, an
/// operand, an argument, a condition, a return value) uses it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_RESULTUSE_H
#define GPUGUARD_ANALYSIS_CORE_RESULTUSE_H

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace gpuguard {

enum class ResultUse {
  /// Something reads the value.
  Used,
  /// The value is dropped without a word: `f();`, `f(), g();`.
  Discarded,
  /// The value is dropped by a cast to void, the usual way of saying that
  /// this is deliberate: `(void)f();`, `static_cast<void>(f())`.
  DiscardedByVoidCast,
};

/// How the context of \p E treats its value. Parentheses, implicit casts,
/// value-preserving explicit casts, the right side of a comma and the branches
/// of a conditional pass the question on to their own context, as does the
/// last statement of a GNU statement expression.
ResultUse getResultUse(const clang::Expr &E, clang::ASTContext &Context);

/// The values isOnlyFormatted() follows.
enum class FormattedValue {
  /// Floating-point values, through floating-point casts and arithmetic:
  /// a conversion to an integer is where inf or NaN does harm.
  FloatingPoint,
  /// Any arithmetic value, through any arithmetic cast and arithmetic.
  Arithmetic,
};

/// Whether the value of \p E is only formatted for output: it reaches,
/// through parentheses, the casts and arithmetic \p Kind allows and the
/// branches of `?:`, an argument after the format of a printf-family call
/// (`printf`, `fprintf`, `sprintf`, `snprintf`) or the right side of `<<`
/// into a `std::basic_ostream`. Such a value cannot become an index or a
/// size: inf or NaN there is seen in the output, not a fault.
bool isOnlyFormatted(const clang::Expr &E, clang::ASTContext &Context,
                     FormattedValue Kind = FormattedValue::FloatingPoint);

/// Whether \p E, past parentheses, is a call of a printf-family function
/// or a `<<` into a `std::basic_ostream`: a statement that prints.
bool isPrintCall(const clang::Expr &E);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_RESULTUSE_H
