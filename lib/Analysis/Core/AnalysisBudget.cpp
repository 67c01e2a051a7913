//===--- AnalysisBudget.cpp - Time allowed to analyse one file ------------===//

#include "Analysis/Core/AnalysisBudget.h"
#include <optional>

namespace gpuguard {

namespace {
using Clock = std::chrono::steady_clock;
thread_local std::optional<Clock::time_point> Deadline;
thread_local bool Exceeded = false;
} // namespace

void startAnalysisBudget(double Seconds) {
  Exceeded = false;
  Deadline.reset();
  if (Seconds > 0)
    Deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(Seconds));
}

bool analysisBudgetExceeded() {
  if (!Exceeded && Deadline && Clock::now() >= *Deadline)
    Exceeded = true;
  return Exceeded;
}

} // namespace gpuguard
