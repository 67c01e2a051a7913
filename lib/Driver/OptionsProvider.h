//===--- OptionsProvider.h - The configuration of a run ---------*- C++ -*-===//
///
/// \file
/// Builds clang-tidy's options provider from gpuguard's defaults, the
/// .clang-tidy files (or --config, --config-file) and the command-line
/// options that override both, the way clang-tidy layers them.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_OPTIONSPROVIDER_H
#define GPUGUARD_DRIVER_OPTIONSPROVIDER_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>

namespace gpuguard {

/// The name of the options source that gpuguard appends to every
/// configuration, to turn off the checks that are not its own.
constexpr llvm::StringLiteral GpuGuardOptionsSource = "gpuguard";

/// The provider of the options for each file, reading configuration files
/// through \p FS. Null, with \p Failed set once the error is printed, when
/// the command line's configuration is unusable.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
createOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      bool &Failed);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_OPTIONSPROVIDER_H
