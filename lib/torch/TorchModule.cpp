//===--- TorchModule.cpp - the torch check module -------------------------===//
///
/// \file
/// Registers the checks for C++ code that uses LibTorch under the `torch-`
/// prefix.
///
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"

namespace gpuguard::torch {

class TorchModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    // add_new_check.py registers new checks above this line.
  }
};

} // namespace gpuguard::torch

static clang::tidy::ClangTidyModuleRegistry::Add<gpuguard::torch::TorchModule>
    TorchModuleRegistration("torch-module",
                            "Checks for C++ code that uses LibTorch.");
