//===--- CompileDatabase.h - Where compile commands come from ---*- C++ -*-===//
///
/// \file
/// Chooses the compile commands of a run: the flags after `--`, or the
/// compile_commands.json of the build directory that -p names, with one
/// clear line when that database is missing or malformed.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_COMPILEDATABASE_H
#define GPUGUARD_DRIVER_COMPILEDATABASE_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>

namespace gpuguard {

/// Loads the database named by -p, or the flags after `--`
/// (\p FromCommandLine). Null when neither is given, or, with \p Failed set
/// once the error is printed, when -p names no usable database.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(
    std::unique_ptr<clang::tooling::CompilationDatabase> FromCommandLine,
    bool &Failed);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_COMPILEDATABASE_H
