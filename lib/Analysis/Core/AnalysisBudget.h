//===--- AnalysisBudget.h - Time allowed to analyse one file ----*- C++ -*-===//
///
/// \file
/// A deadline for the analyses of the file the current thread checks. The
/// analyses ask at their loops and entry points and stop once it has passed;
/// the driver then reports the file as not checked rather than print what
/// half-finished analyses concluded. Parsing itself is not interrupted.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_ANALYSISBUDGET_H
#define GPUGUARD_ANALYSIS_CORE_ANALYSISBUDGET_H

#include <chrono>

namespace gpuguard {

/// Sets the current thread's deadline \p Seconds from now; 0 or less means
/// none. Clears a previous overrun.
void startAnalysisBudget(double Seconds);

/// Whether the deadline has passed; once true, true until the next start.
bool analysisBudgetExceeded();

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_ANALYSISBUDGET_H
