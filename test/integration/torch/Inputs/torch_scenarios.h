// Scenarios of the LibTorch integration tests. Each test file is one program
// of named scenarios; gpuguard checks the file, and test/scripts/torch_run.py
// compiles it against LibTorch and runs each scenario alone, to show that
// PyTorch itself rejects the positives and accepts the negatives.
//
//   GPUGUARD_SCENARIO(label_too_large) { ... }
//
// A scenario is rejected when it throws (a c10::Error: PyTorch's own check),
// when PyTorch warns, or when it hands a tensor with NaN or infinity to
// expectFinite(). Built for running (GPUGUARD_RUN), CUDA is mapped to the
// meta device, which has no data but keeps every device check: this machine
// has no GPU.
#pragma once

#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <string>

namespace gpuguard_scenarios {
using Scenario = void (*)();
inline std::map<std::string, Scenario> &registry() {
  static std::map<std::string, Scenario> Scenarios;
  return Scenarios;
}
struct Registration {
  Registration(const char *Name, Scenario Run) { registry()[Name] = Run; }
};
} // namespace gpuguard_scenarios

#define GPUGUARD_SCENARIO(Name)                                                \
  static void Name();                                                          \
  static gpuguard_scenarios::Registration Name##_registration(#Name, Name);    \
  static void Name()

/// Reports a tensor holding NaN or infinity: the result PyTorch gives for a
/// zero denominator instead of an error.
inline void expectFinite(const torch::Tensor &Values) {
  if (Values.device().type() == torch::kCPU &&
      !torch::isfinite(Values).all().item<bool>())
    std::printf("gpuguard-scenario: non-finite result\n");
}

#ifdef GPUGUARD_RUN
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define kCUDA kMeta
#define cuda() to(torch::kMeta)

namespace gpuguard_scenarios {
/// Runs one scenario as the whole program would: its exit status.
inline int runScenario(const char *Name) {
  try {
    registry()[Name]();
  } catch (const std::exception &Error) {
    const char *What = Error.what();
    const char *End = std::strchr(What, '\n');
    std::printf("gpuguard-scenario: exception: %.*s\n",
                End ? static_cast<int>(End - What)
                    : static_cast<int>(std::strlen(What)),
                What);
    return 1;
  }
  return 0;
}

inline int &exitCode() {
  static int Code = 0;
  return Code;
}

/// Runs every scenario in a child forked after LibTorch's start-up, which
/// costs most of a run's time and is then paid once. A child is the program
/// run with one scenario, save that its output is unbuffered and goes to
/// DIR/NAME.out (stderr too, in order, when \p Merge; else to DIR/NAME.err);
/// its exit status is written to DIR/NAME.status (minus the signal number
/// when a signal ended it).
inline int runEachScenario(const std::string &Dir, bool Merge) {
  std::fflush(nullptr);
  for (const auto &Entry : registry()) {
    const std::string Base = Dir + "/" + Entry.first;
    pid_t Child = fork();
    if (Child < 0) {
      std::perror("fork");
      return 2;
    }
    if (Child == 0) {
      int Out = open((Base + ".out").c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                     0644);
      int Err = Merge ? Out
                      : open((Base + ".err").c_str(),
                             O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (Out < 0 || Err < 0 || dup2(Out, 1) < 0 || dup2(Err, 2) < 0)
        _exit(3);
      std::setvbuf(stdout, nullptr, _IONBF, 0);
      std::setvbuf(stderr, nullptr, _IONBF, 0);
      alarm(300); // A scenario that hangs ends as a run would time out.
      // Handlers registered from here on (the runtime's summary, statics
      // the scenario made) run at exit as they would; this one then ends
      // the child before the teardown of LibTorch's own statics, which is
      // the same for every scenario and costs most of a child's time.
      std::atexit([] {
        std::fflush(nullptr);
        _exit(exitCode());
      });
      exitCode() = runScenario(Entry.first.c_str());
      std::exit(exitCode());
    }
    int Status = 0;
    if (waitpid(Child, &Status, 0) < 0) {
      std::perror("waitpid");
      return 2;
    }
    int Code = WIFEXITED(Status) ? WEXITSTATUS(Status)
                                 : -WTERMSIG(Status);
    FILE *Written = std::fopen((Base + ".status").c_str(), "w");
    if (!Written)
      return 2;
    std::fprintf(Written, "%d\n", Code);
    std::fclose(Written);
  }
  return 0;
}
} // namespace gpuguard_scenarios

/// PROGRAM SCENARIO runs one scenario; PROGRAM --each DIR [--merge] runs
/// them all, one child each (test/scripts/scenario_runs.py reads DIR).
int main(int argc, char **argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--each") == 0)
    return gpuguard_scenarios::runEachScenario(
        argv[2], argc == 4 && std::strcmp(argv[3], "--merge") == 0);
  if (argc != 2 || !gpuguard_scenarios::registry().count(argv[1])) {
    std::fprintf(stderr, "usage: %s SCENARIO | --each DIR [--merge]\n",
                 argv[0]);
    return 2;
  }
  return gpuguard_scenarios::runScenario(argv[1]);
}
#endif
