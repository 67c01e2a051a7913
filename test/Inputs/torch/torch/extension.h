// A stand-in for LibTorch's <torch/extension.h>: the LibTorch API and
// pybind11's module, as C++/CUDA extensions bind their functions to Python.
#pragma once

#include "torch.h"

namespace pybind11 {
class module_ {
public:
  template <typename Func, typename... Extra>
  module_ &def(const char *name, Func &&f, const Extra &...extra) {
    return *this;
  }
};
using module = module_;
} // namespace pybind11
namespace py = pybind11;

#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME extension
#endif
#define PYBIND11_MODULE(name, variable)                                        \
  static void pybind11_init_##name(::pybind11::module_ &);                     \
  void pybind11_init_##name(::pybind11::module_ &variable)
