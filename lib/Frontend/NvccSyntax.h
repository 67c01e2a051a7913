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

#include "llvm/ADT/StringRef.h"
#include <cstddef>

namespace gpuguard::frontend {

/// True when \p Offset in \p Buffer is the string literal of an inline
/// assembly operand that follows the previous operand with no comma:
/// `asm("..." :: "r"(a) "l"(b));`. nvcc takes juxtaposed operands as a list;
/// Clang stops at the second one with "expected ')'".
bool isJuxtaposedAsmOperand(llvm::StringRef Buffer, std::size_t Offset);

} // namespace gpuguard::frontend

#endif // GPUGUARD_FRONTEND_NVCCSYNTAX_H
