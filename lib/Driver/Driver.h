//===--- Driver.h - The gpuguard command line -------------------*- C++ -*-===//
///
/// \file
/// Everything the `gpuguard` binary does, so that the binary itself stays a
/// one-line main. It follows clang-tidy's command line (`-p`, `--checks`,
/// `--config`, `--fix`, `--export-fixes`, `--line-filter`, NOLINT, .clang-tidy
/// files) and adds what CUDA code needs: per-side parsing, toolkit discovery
/// and bundled headers. Every input is checked even when another one fails,
/// and the exit code says what went wrong (see ExitCode).
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_DRIVER_H
#define GPUGUARD_DRIVER_DRIVER_H

namespace gpuguard {

/// gpuguard's exit codes; when several apply, the largest is returned.
enum ExitCode : int {
  /// Every input was checked. Warnings may have been printed.
  Success = 0,
  /// A warning was promoted to an error by --warnings-as-errors.
  WarningsAsErrors = 1,
  /// The command line or a configuration is unusable: unknown option, no
  /// check enabled, -p without compile_commands.json, malformed .clang-tidy.
  UsageError = 2,
  /// An input could not be checked: missing, unreadable, with compile
  /// errors, or crashing Clang or a check.
  InputError = 3,
};

int runGpuGuard(int Argc, const char **Argv);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_DRIVER_H
