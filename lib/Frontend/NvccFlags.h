//===--- NvccFlags.h - nvcc compile commands as Clang commands --*- C++ -*-===//
///
/// \file
/// Translates the compile commands of projects that build CUDA with nvcc (as
/// CMake writes them into compile_commands.json) into commands Clang's CUDA
/// driver accepts. Each nvcc flag is kept in Clang's spelling when it changes
/// what the source means (macros, include paths, the language standard, the
/// GPU architecture, relocatable device code), and dropped when it only
/// concerns nvcc's code generation, linking or its own diagnostics. Flags for
/// the host compiler (`-Xcompiler`, or unknown flags nvcc forwards) are kept
/// when Clang knows them. Anything else is dropped and reported, never fatal.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_NVCCFLAGS_H
#define GPUGUARD_FRONTEND_NVCCFLAGS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>
#include <vector>

namespace gpuguard::frontend {

/// Receives a problem met while translating: a flag dropped because nobody
/// knows it, an options file that cannot be read, and so on. \p Key is the
/// same for every repeat of one problem (it names the flag or the file, not
/// the command), so that a caller can report each problem once per run.
using NvccWarningHandler =
    llvm::function_ref<void(llvm::StringRef Key, const llvm::Twine &Message)>;

/// True when \p CommandLine runs nvcc: its compiler (after a ccache or
/// sccache launcher) is named `nvcc`, or it holds a flag only nvcc takes.
bool isNvccCommandLine(llvm::ArrayRef<std::string> CommandLine);

/// The command line of \p Command, an nvcc command, with its flags
/// translated for Clang and `clang++` as its compiler. Relative options files
/// are read from the command's directory.
std::vector<std::string>
translateNvccCommandLine(const clang::tooling::CompileCommand &Command,
                         NvccWarningHandler Warn);

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_NVCCFLAGS_H
