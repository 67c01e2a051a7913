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

/// While one is alive, the providers give the current thread's files
/// `SystemHeaders: true`, so that clang-tidy builds its matcher without the
/// per-node system-header test. That test reads each node's start, which
/// costs the depth of a left-nested expression: quadratic on a long sum. The
/// checks' traversal is already limited to user code, and diagnostics are
/// filtered with the file's real options, set again afterwards.
class MatchersWithoutHeaderFilter {
public:
  MatchersWithoutHeaderFilter();
  ~MatchersWithoutHeaderFilter();
  MatchersWithoutHeaderFilter(const MatchersWithoutHeaderFilter &) = delete;
  MatchersWithoutHeaderFilter &
  operator=(const MatchersWithoutHeaderFilter &) = delete;
};

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_OPTIONSPROVIDER_H
