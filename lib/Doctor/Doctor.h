//===--- Doctor.h - gpuguard doctor -----------------------------*- C++ -*-===//
///
/// \file
/// `gpuguard doctor [--format=text|json] [--libcuda=PATH] [PROGRAM...]`: what
/// the machine's driver and GPUs are, what each program or library needs
/// (read from its file, never run), and in plain words what will fail and
/// why. Exit codes: 0 every program can run here (notes and warnings
/// allowed), 1 something will fail, 2 a usage error, 3 a file that cannot
/// be read as a program.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DOCTOR_DOCTOR_H
#define GPUGUARD_DOCTOR_DOCTOR_H

namespace gpuguard::doctor {

enum DoctorExit : int {
  Healthy = 0,
  WillFail = 1,
  DoctorUsageError = 2,
  UnreadableInput = 3,
};

/// Runs `gpuguard doctor`; \p Argv[0] is "doctor".
int runDoctor(int Argc, const char **Argv);

} // namespace gpuguard::doctor

#endif // GPUGUARD_DOCTOR_DOCTOR_H
