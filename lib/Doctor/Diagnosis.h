//===--- Diagnosis.h - Why a CUDA program will not run here -----*- C++ -*-===//
///
/// \file
/// Puts a program's needs (BinaryInspection.h) next to what the machine has
/// (DriverProbe.h) and says, in plain words and with the error the CUDA
/// runtime will return, what will fail: a driver older than the program's
/// runtime, a GPU for which the program has neither SASS nor PTX that the
/// driver can compile, LibTorch built for another CUDA than the program's
/// kernels.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DOCTOR_DIAGNOSIS_H
#define GPUGUARD_DOCTOR_DIAGNOSIS_H

#include "Doctor/BinaryInspection.h"
#include "Doctor/DriverProbe.h"
#include <string>
#include <vector>

namespace gpuguard::doctor {

struct Verdict {
  enum SeverityType { Note, Warning, Error } Severity = Note;
  /// A stable name for tools: `no-driver`, `insufficient-driver`,
  /// `no-kernel-image`, `ptx-jit`, `native`, `torch-cuda-mismatch`, ...
  std::string Code;
  std::string Message;
  /// The GPU it is about, or -1.
  int Gpu = -1;
};

/// What the machine's driver and GPUs say, with no program: a missing
/// driver, a driver that does not start, no GPU.
std::vector<Verdict> diagnoseMachine(const DriverReport &Driver);

/// What will happen when \p Program runs on this machine.
std::vector<Verdict> diagnoseProgram(const DriverReport &Driver,
                                     const BinaryReport &Program);

/// "sm_70 and sm_80", "sm_70, sm_75 and sm_80".
std::string listArchs(const std::vector<EmbeddedCode> &Codes,
                      EmbeddedCode::KindType Kind);

} // namespace gpuguard::doctor

#endif // GPUGUARD_DOCTOR_DIAGNOSIS_H
