//===--- DereferencedParameters.h - Dereferenced pointer params -*- C++ -*-===//
///
/// \file
/// Which pointer arguments a call reads or writes through, at the element
/// the pointer points to: CUDA's load and store intrinsics (`__ldg`,
/// `__ldcs`, `__stcs`, ...) and atomics, and visible `__device__` helpers
/// that dereference the parameter (`*reinterpret_cast<int4 *>(p) = v`,
/// `p[0]`) or pass it on to such a call. Production kernels index through
/// such helpers (`store128(out + idx, load128(inp + idx))`), so the pointer
/// sum passed to them is an access like `out[idx]`.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_DEREFERENCEDPARAMETERS_H
#define GPUGUARD_ANALYSIS_CUDA_DEREFERENCEDPARAMETERS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <utility>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace gpuguard {

/// Whether a function of that name, declared by the toolkit, accesses memory
/// through its first argument: the cache-hinted loads and stores and the
/// atomics.
bool isDereferencingIntrinsic(llvm::StringRef Name);

class DereferencedParameters {
public:
  explicit DereferencedParameters(clang::ASTContext &Context)
      : Context(Context) {}

  /// Whether \p Call accesses memory at its argument \p Arg.
  bool dereferences(const clang::CallExpr &Call, unsigned Arg);

private:
  bool calleeDereferences(const clang::FunctionDecl *Callee, unsigned Arg,
                          unsigned Depth);
  bool helperDereferences(const clang::FunctionDecl &Helper, unsigned Param,
                          unsigned Depth);

  clang::ASTContext &Context;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, bool> Known;
};

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_DEREFERENCEDPARAMETERS_H
