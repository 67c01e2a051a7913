//===--- gpuguard-doctor.cpp - gpuguard doctor on its own -----------------===//
///
/// \file
/// `gpuguard-doctor [--format=text|json] [--libcuda=PATH] [PROGRAM...]` is
/// `gpuguard doctor` as a program of its own, linked with nothing of LLVM
/// but the static libraries it reads files with, so that it can be copied
/// to the GPU server that fails, which rarely has LLVM.
///
//===----------------------------------------------------------------------===//

#include "Doctor/Doctor.h"

#include <vector>

int main(int Argc, const char **Argv) {
  std::vector<const char *> Arguments(Argv, Argv + Argc);
  Arguments[0] = "doctor";
  return gpuguard::doctor::runDoctor(Argc, Arguments.data());
}
