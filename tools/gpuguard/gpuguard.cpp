//===--- gpuguard.cpp - the gpuguard command ------------------------------===//
///
/// \file
/// The `gpuguard` binary; the work happens in lib/Driver.
///
//===----------------------------------------------------------------------===//

#include "Driver/Driver.h"

int main(int Argc, const char **Argv) {
  return gpuguard::runGpuGuard(Argc, Argv);
}
