// The runtime's LibTorch entry points as instrumented copies call them (see
// runtime/include/gpuguard/torch.h), for compiling copies made against the
// mock LibTorch headers.
#pragma once
#include <utility>

namespace gpuguard::rt {
struct SiteInfo {
  const char *File;
  unsigned Line, Column;
  const char *Function;
  const char *Check;
  unsigned Kind;
  int Related;
  const char *What;
};
struct SiteTableRegistrar {
  SiteTableRegistrar(unsigned long long, const SiteInfo *, unsigned, unsigned) {}
};
namespace torch {
template <class T>
T &&operand(const SiteInfo &, unsigned, unsigned, T &&Value) {
  return std::forward<T>(Value);
}
} // namespace torch
} // namespace gpuguard::rt
