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
#define kCUDA kMeta
#define cuda() to(torch::kMeta)

int main(int argc, char **argv) {
  if (argc != 2 || !gpuguard_scenarios::registry().count(argv[1])) {
    std::fprintf(stderr, "usage: %s SCENARIO\n", argv[0]);
    return 2;
  }
  try {
    gpuguard_scenarios::registry()[argv[1]]();
  } catch (const std::exception &Error) {
    const char *What = Error.what();
    const char *End = std::strchr(What, '\n');
    std::printf("gpuguard-scenario: exception: %.*s\n",
                End ? static_cast<int>(End - What) : static_cast<int>(std::strlen(What)),
                What);
    return 1;
  }
  return 0;
}
#endif
