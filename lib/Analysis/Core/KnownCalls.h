//===--- KnownCalls.h - Library calls the analyses understand ---*- C++ -*-===//
///
/// \file
/// Calls whose meaning the analyses rely on by name: those that end a path
/// (`abort`, the assert handlers of glibc, macOS, MSVC and CUDA device
/// code, `__trap`), the min and max functions of C, C++ and CUDA, whose
/// results are clamps, and the functions that read a number from text. One
/// list each, so every analysis ends the same paths
/// and recognises the same clamps.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_KNOWNCALLS_H
#define GPUGUARD_ANALYSIS_CORE_KNOWNCALLS_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class CallExpr;
} // namespace clang

namespace gpuguard {

/// True when \p Call never returns: its callee is declared noreturn, or it
/// is one of the assert handlers that `assert` expands to (not all of which
/// are declared noreturn in device code).
bool isNoReturnCall(const clang::CallExpr *Call);

/// Which of min and max a function name is.
enum class MinMaxKind { None, Min, Max };

/// A min or max function by name.
struct MinMaxFunction {
  MinMaxKind Kind = MinMaxKind::None;
  /// `fmin`, `fminf`, `fminl` and the `fmax` family, as opposed to the
  /// integer overloads (`min`, `umin`, `llmin`, `ullmin`, ...).
  bool Floating = false;

  explicit operator bool() const { return Kind != MinMaxKind::None; }
};

/// Classifies a callee's name: `min`, `umin`, `llmin`, `ullmin`, `fmin`,
/// `fminf`, `fminl` and their `max` counterparts.
MinMaxFunction classifyMinMax(llvm::StringRef Name);

/// C's and C++'s functions that turn text into a number (`atoi`, `strtol`,
/// `std::stoi`, ...): how a program reads a count from its command line.
bool isTextToNumber(llvm::StringRef Name);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_KNOWNCALLS_H
