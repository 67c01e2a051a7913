//===--- FunctionMatchers.h - Which functions checks analyse ----*- C++ -*-===//
///
/// \file
/// The AST matcher every function-wide check registers: definitions as the
/// user wrote them. A template is analysed once, as written, because its
/// instantiations would repeat every finding; implicit functions and code in
/// system headers are not the user's to fix.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_FUNCTIONMATCHERS_H
#define GPUGUARD_ANALYSIS_CORE_FUNCTIONMATCHERS_H

#include "clang/ASTMatchers/ASTMatchers.h"

namespace gpuguard {

/// Function definitions written in user code, narrowed further by
/// \p Extra (e.g. `hasAttr(attr::CUDAGlobal)`).
template <typename... ExtraMatchers>
auto writtenFunctionDefinition(ExtraMatchers... Extra) {
  using namespace clang::ast_matchers;
  return functionDecl(isDefinition(), unless(isImplicit()),
                      unless(isInstantiated()),
                      unless(isExpansionInSystemHeader()), Extra...);
}

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_FUNCTIONMATCHERS_H
