//===--- UncheckedLaunchAnalysisTest.cpp ----------------------------------===//

#include "Analysis/Cuda/UncheckedLaunchAnalysis.h"
#include "Analysis/Core/CallSites.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// What the analysis finds in `host`, one line per unchecked launch:
/// "<launch line> sync <line> exit <line>", lines counted from the body's
/// first line and 0 where there is none, then " then-unchecked" when a path
/// ends unchecked after the synchronisation.
std::vector<std::string> uncheckedLaunches(const std::string &Body) {
  auto Unit = parseCuda(R"(
typedef int cudaError_t;
__global__ void kernel(int *p) {}
cudaError_t cudaGetLastError();
cudaError_t cudaDeviceSynchronize();
[[noreturn]] void fail();
void host(int *p, bool c) {
)" + Body + "\n}\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "host");
  if (!Function)
    return {};
  auto Classify = [](const clang::CallExpr &Call) {
    const clang::FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return PendingLaunchEffect::None;
    if (Callee->getName() == "cudaGetLastError")
      return PendingLaunchEffect::Check;
    if (Callee->getName() == "cudaDeviceSynchronize")
      return PendingLaunchEffect::Synchronize;
    return PendingLaunchEffect::None;
  };
  std::vector<std::string> Result;
  for (const UncheckedLaunch &Finding :
       findUncheckedLaunches(*Function, Context, Classify)) {
    auto Line = [&](clang::SourceLocation Loc) {
      return Loc.isValid() ? lineInBody(*Function, Loc) : 0;
    };
    Result.push_back(
        std::to_string(Line(Finding.Launch->getBeginLoc())) + " sync " +
        std::to_string(Finding.Synchronization
                           ? Line(Finding.Synchronization->getBeginLoc())
                           : 0) +
        " exit " + std::to_string(Line(Finding.Exit)) +
        (Finding.UncheckedAfterSynchronization ? " then-unchecked" : ""));
  }
  return Result;
}

using Findings = std::vector<std::string>;

TEST(UncheckedLaunchAnalysisTest, CheckedLaunch) {
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "cudaGetLastError();\n"
                              "cudaDeviceSynchronize();"),
            Findings());
}

TEST(UncheckedLaunchAnalysisTest, SynchronisationAndExit) {
  // The closing brace is line 4: the path leaves there too.
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "cudaDeviceSynchronize();\n"
                              "kernel<<<1, 1>>>(p);"),
            Findings({"1 sync 2 exit 4 then-unchecked", "3 sync 0 exit 4"}));
}

TEST(UncheckedLaunchAnalysisTest, OnePathReturnsUnchecked) {
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "if (c) return;\n"
                              "cudaGetLastError();"),
            Findings({"1 sync 0 exit 2"}));
}

TEST(UncheckedLaunchAnalysisTest, PathsThatEndAreNotFollowed) {
  // fail() never returns; a throw leaves for a handler out of sight.
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "if (c) fail();\n"
                              "cudaGetLastError();"),
            Findings());
}

TEST(UncheckedLaunchAnalysisTest, SynchronisationBeforeAPathEnds) {
  // The synchronisation before fail() is reached; the path is not followed
  // out of the function.
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "cudaDeviceSynchronize();\n"
                              "fail();"),
            Findings({"1 sync 2 exit 0"}));
}

TEST(UncheckedLaunchAnalysisTest, CheckAfterSynchronisation) {
  // The faults the synchronisation surfaced are still the last error.
  EXPECT_EQ(uncheckedLaunches("kernel<<<1, 1>>>(p);\n"
                              "cudaDeviceSynchronize();\n"
                              "cudaGetLastError();"),
            Findings({"1 sync 2 exit 0"}));
}

TEST(UncheckedLaunchAnalysisTest, PendingSetsUniteAtJoins) {
  // Only the path through the launch carries it to the synchronisation,
  // and past it to the return.
  EXPECT_EQ(uncheckedLaunches("if (c) kernel<<<1, 1>>>(p);\n"
                              "else cudaGetLastError();\n"
                              "cudaDeviceSynchronize();\n"
                              "if (c) return;\n"
                              "cudaGetLastError();"),
            Findings({"1 sync 3 exit 4 then-unchecked"}));
}

} // namespace

namespace {

/// The habit of the launchers in \p Launchers, each returning with its
/// launch unchecked unless it calls cudaGetLastError() after it.
LauncherHabit habitOf(const std::string &Launchers,
                      std::string *Example = nullptr) {
  auto Unit = parseCuda(R"(
typedef int cudaError_t;
__global__ void kernel(int *p) {}
cudaError_t cudaGetLastError();
)" + Launchers);
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  auto Classify = [](const clang::CallExpr &Call) {
    const clang::FunctionDecl *Callee = Call.getDirectCallee();
    return Callee && Callee->getIdentifier() &&
                   Callee->getName() == "cudaGetLastError"
               ? PendingLaunchEffect::Check
               : PendingLaunchEffect::None;
  };
  CallSites Calls(Context);
  LauncherHabit Habit =
      launcherHabit(Context, Calls, [&](const clang::FunctionDecl &F) {
        return llvm::any_of(
            findUncheckedLaunches(F, Context, Classify),
            [](const UncheckedLaunch &U) { return U.Exit.isValid(); });
      });
  if (Example && Habit.Example)
    *Example = Habit.Example->getNameAsString();
  return Habit;
}

} // namespace

TEST(UncheckedLaunchAnalysisTest, LaunchersThatCheckTheirOwn) {
  std::string Example;
  LauncherHabit Habit = habitOf(R"(
void fill(int *p) { kernel<<<1, 1>>>(p); cudaGetLastError(); }
void scale(int *p) { kernel<<<1, 1>>>(p); cudaGetLastError(); }
template <typename T> void shift(T *p) { kernel<<<1, 1>>>(p); cudaGetLastError(); }
template void shift<int>(int *);
void copy(int *p) { kernel<<<1, 1>>>(p); cudaGetLastError(); }
void forgot(int *p) { kernel<<<1, 1>>>(p); }
int main() { int *p = 0; kernel<<<1, 1>>>(p); }
)",
                                &Example);
  // The template and its instantiation count once; main is the program's.
  EXPECT_EQ(Habit.CheckOwnLaunches, 4u);
  EXPECT_EQ(Habit.LeaveLaunchesPending, 1u);
  EXPECT_EQ(Example, "fill");
  EXPECT_TRUE(Habit.checksOwnLaunches());
}

TEST(UncheckedLaunchAnalysisTest, ThinLaunchersLeaveChecksToCallers) {
  // Kaldi's shape: launchers that only launch; their callers check.
  LauncherHabit Habit = habitOf(R"(
void fill(int *p) { kernel<<<1, 1>>>(p); }
void scale(int *p) { kernel<<<1, 1>>>(p); }
void copy(int *p) { kernel<<<1, 1>>>(p); cudaGetLastError(); }
)");
  EXPECT_EQ(Habit.CheckOwnLaunches, 1u);
  EXPECT_EQ(Habit.LeaveLaunchesPending, 2u);
  EXPECT_FALSE(Habit.checksOwnLaunches());
  // Too few to call a rule, and a mixed file is no rule either.
  EXPECT_FALSE((LauncherHabit{2, 0, nullptr}.checksOwnLaunches()));
  EXPECT_FALSE((LauncherHabit{7, 2, nullptr}.checksOwnLaunches()));
  EXPECT_TRUE((LauncherHabit{8, 2, nullptr}.checksOwnLaunches()));
}
