//===- print_site_kinds.cpp - The runtime's view of the site kinds --------===//
///
/// \file
/// Prints each site kind's value and entry point as the runtime header
/// compiles them, and its site-table ABI version, for site-kinds-agree.cu to
/// compare with what `gpuguard instrument` writes. The values are read from
/// rt.h's enumerators and each entry point must be a name rt.h declares, so
/// a change on either side shows.
///
//===----------------------------------------------------------------------===//

#include <gpuguard/rt.h>

#include <cstdio>

namespace gpuguard {
namespace rt {
namespace torch {
// Declared by <gpuguard/torch.h>, which needs LibTorch; compile-gxx.test
// compiles instrumented LibTorch code against the real one.
void operand();
} // namespace torch
} // namespace rt
} // namespace gpuguard

int main() {
  std::printf("ABI %u\n", GPUGUARD_SITE_TABLE_ABI_VERSION);
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  {                                                                            \
    using ::gpuguard::rt::EntryPoint;                                          \
    std::printf("%s %u ::gpuguard::rt::%s(\n", #Name,                          \
                static_cast<unsigned>(::gpuguard::rt::Name), #EntryPoint);     \
  }
#include <gpuguard/site_kinds.def>
  // The calls outside the sites: only that the runtime declares each.
#define GPUGUARD_HOOK(Name)                                                    \
  {                                                                            \
    using ::gpuguard::rt::Name;                                                \
    std::printf("hook ::gpuguard::rt::%s(\n", #Name);                          \
  }
#define GPUGUARD_CUDA_WRAPPER(Name)                                            \
  {                                                                            \
    using ::gpuguard::rt::Name;                                                \
    std::printf("wrapper ::gpuguard::rt::%s\n", #Name);                        \
  }
  // Instrumented code calls these as CalledAt<Line>::Name, with the line.
#define GPUGUARD_CUDA_LOCATED_WRAPPER(Name)                                    \
  {                                                                            \
    using ::gpuguard::rt::Name;                                                \
    struct Probe : ::gpuguard::rt::CalledAt<1> {                               \
      using ::gpuguard::rt::CalledAt<1>::Name;                                 \
    };                                                                         \
    std::printf("wrapper ::gpuguard::rt::%s\n", #Name);                        \
    std::printf("located ::gpuguard::rt::CalledAt< >::%s\n", #Name);           \
  }
#include <gpuguard/hooks.def>
  return 0;
}
