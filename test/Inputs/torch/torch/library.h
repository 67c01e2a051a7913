// A stand-in for LibTorch's <torch/library.h>: operator registration with
// TORCH_LIBRARY and TORCH_LIBRARY_IMPL, with LibTorch 1.13's names (the
// function TORCH_LIBRARY_IMPL defines is TORCH_LIBRARY_IMPL_init_<ns>_<key>_
// <counter>, as there).
#pragma once

#include "torch.h"

namespace c10 {
template <class FuncType, FuncType *func_ptr> struct CompileTimeFunctionPointer {
};
enum class DispatchKey : uint16_t { CPU, CUDA, Meta };
} // namespace c10

#define TORCH_FN(func)                                                         \
  ::c10::CompileTimeFunctionPointer<                                           \
      std::remove_pointer_t<std::remove_reference_t<decltype(func)>>, func>()

namespace torch {
class Library {
public:
  template <typename Schema> Library &def(Schema &&schema) &;
  template <typename NameOrSchema, typename Func>
  Library &def(NameOrSchema &&name_or_schema, Func &&f) & {
    return *this;
  }
  template <typename Name, typename Func> Library &impl(Name name, Func &&f) & {
    return *this;
  }
};
} // namespace torch

#define TORCH_LIBRARY(ns, m)                                                   \
  static void TORCH_LIBRARY_init_##ns(torch::Library &);                       \
  void TORCH_LIBRARY_init_##ns(torch::Library &m)

#define GPUGUARD_MOCK_CONCAT_(a, b) a##b
#define GPUGUARD_MOCK_CONCAT(a, b) GPUGUARD_MOCK_CONCAT_(a, b)
#define TORCH_LIBRARY_IMPL(ns, k, m)                                           \
  static void GPUGUARD_MOCK_CONCAT(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,     \
                                   __COUNTER__)(torch::Library & m)
