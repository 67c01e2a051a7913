//===--- NvccSyntax.h - What nvcc accepts, Clang not ------------*- C++ -*-===//
///
/// \file
/// Recognises, in raw source text, constructs that nvcc's front end accepts
/// and Clang reports as errors, so that the driver can treat those errors as
/// warnings and analyse the rest of the file as nvcc would compile it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_FRONTEND_NVCCSYNTAX_H
#define GPUGUARD_FRONTEND_NVCCSYNTAX_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstddef>
#include <optional>
#include <string>

namespace gpuguard::frontend {

/// True when \p Offset in \p Buffer is the string literal of an inline
/// assembly operand that follows the previous operand with no comma:
/// `asm("..." :: "r"(a) "l"(b));`. nvcc takes juxtaposed operands as a list;
/// Clang stops at the second one with "expected ')'".
bool isJuxtaposedAsmOperand(llvm::StringRef Buffer, std::size_t Offset);

/// \p Buffer with the chevrons of launches written with spaces inside them
/// joined: `k << <grid, block >> > (args)`, as Visual Studio formats CUDA,
/// becomes `k <<<grid, block >>>  (args)`. nvcc takes the spaced chevrons as
/// a launch; Clang lexes `<<<` only unbroken. Each chevron moves within its
/// own stretch of text, so every other character keeps its offset. None
/// when nothing is joined.
std::optional<std::string> joinSpacedLaunchChevrons(llvm::StringRef Buffer);

/// \p Base, with the CUDA sources and headers it reads (`.cu`, `.cuh`)
/// passed through joinSpacedLaunchChevrons().
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withNvccLaunchSyntax(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_NVCCSYNTAX_H
