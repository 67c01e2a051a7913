//===--- SourceText.h - Source snippets for diagnostics ---------*- C++ -*-===//
///
/// \file
/// Renders expressions as the user wrote them, for diagnostic arguments.
/// Long snippets are shortened so a message stays on one readable line.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_SOURCETEXT_H
#define GPUGUARD_ANALYSIS_CORE_SOURCETEXT_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace gpuguard {

/// The source text of \p E with whitespace runs folded, shortened to about
/// 60 characters. Code a macro expands to is quoted as the macro's body
/// spells it, or when written partly in the body, partly in an argument,
/// as the macro's use (`HALO_AT(i, j + 2)`); "expression" when none of
/// these has a spelling.
std::string quoteSource(const clang::Expr *E, const clang::ASTContext &Context);

/// "'a'", "'a' and 'b'", "'a', 'b' and 'c'".
std::string joinQuoted(llvm::ArrayRef<std::string> Items);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_SOURCETEXT_H
