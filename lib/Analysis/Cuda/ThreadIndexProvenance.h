//===--- ThreadIndexProvenance.h - What a value derives from ----*- C++ -*-===//
///
/// \file
/// Answers "does this integer depend on the thread's launch coordinates, and
/// how?" for the expressions and local variables of one device function.
/// A value is thread-dependent when it is computed from threadIdx or blockIdx,
/// directly or through local variables and visible helper functions. Values
/// loaded from memory are not: where they come from is a different question.
/// Local variables are classified flow-insensitively over all their
/// definitions, which is sound for the question asked (whether a variable can
/// ever hold a thread-dependent value).
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_THREADINDEXPROVENANCE_H
#define GPUGUARD_ANALYSIS_CUDA_THREADINDEXPROVENANCE_H

#include "Analysis/Cuda/BuiltinVariables.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace gpuguard {

/// Which launch builtins a value is computed from.
struct ValueOrigin {
  enum : unsigned {
    ThreadIdx = 1u << 0,
    BlockIdx = 1u << 1,
    BlockDim = 1u << 2,
    GridDim = 1u << 3,
    /// Read from memory (`ids[i]`, `*p`, `p->n`): nothing bounds it.
    Loaded = 1u << 4,
    /// Converted from a floating-point value, which may be NaN or huge.
    FromFloat = 1u << 5,
  };
  unsigned Builtins = 0;
  /// The axes of the thread and block coordinates it is computed from:
  /// x = 1, y = 2, z = 4. A grid rounded up along x adds threads past the
  /// data for an index computed from x only.
  unsigned CoordinateAxes = 0;
  /// True when the value is exactly one coordinate component (`threadIdx.x`,
  /// `blockIdx.y`, or a copy of one), which the launch itself bounds.
  bool IsBareCoordinate = false;

  bool isThreadDependent() const {
    return (Builtins & (ThreadIdx | BlockIdx)) != 0;
  }
  /// Thread-dependent but identical for every block: such an index only
  /// addresses block-sized storage.
  bool isBlockLocal() const {
    return (Builtins & ThreadIdx) && !(Builtins & BlockIdx);
  }
  bool isLoaded() const { return Builtins & Loaded; }
  /// Adds what \p Other is computed from.
  void add(const ValueOrigin &Other) {
    Builtins |= Other.Builtins;
    CoordinateAxes |= Other.CoordinateAxes;
  }
  bool isFromFloat() const { return Builtins & FromFloat; }
};

/// Where a local variable first received a thread-dependent, loaded or
/// float-converted value.
struct VariableDefinition {
  const clang::Expr *Value = nullptr; ///< The initialiser or assigned value.
  clang::SourceLocation Loc;          ///< The declaration or assignment.
};

class ThreadIndexProvenance {
public:
  ThreadIndexProvenance(const clang::FunctionDecl &Function,
                        clang::ASTContext &Context);

  /// What \p E is computed from.
  ValueOrigin originOf(const clang::Expr *E) const;
  bool isThreadDependent(const clang::Expr *E) const {
    return originOf(E).isThreadDependent();
  }
  /// What the local variable \p Var can hold.
  ValueOrigin originOf(const clang::VarDecl *Var) const;
  bool isThreadDependent(const clang::VarDecl *Var) const {
    return originOf(Var).isThreadDependent();
  }

  /// The first definition of \p Var that gives it a thread-dependent,
  /// loaded or float-converted value, if it has one.
  const VariableDefinition *definitionOf(const clang::VarDecl *Var) const;

  /// The launch builtins and thread-dependent variables that \p E reads
  /// directly, in source order and without repetition, as users spell them.
  llvm::SmallVector<std::string, 4> inputsOf(const clang::Expr *E) const;

private:
  ValueOrigin computeOrigin(const clang::Expr *E, unsigned Depth) const;
  void recordDefinition(const clang::VarDecl *Var, const clang::Expr *Value,
                        clang::SourceLocation Loc, bool IsArithmeticUpdate,
                        bool &Changed);

  clang::ASTContext &Context;
  llvm::DenseMap<const clang::VarDecl *, ValueOrigin> Variables;
  llvm::DenseMap<const clang::VarDecl *, VariableDefinition> Definitions;
};

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_THREADINDEXPROVENANCE_H
