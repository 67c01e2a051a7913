//===--- SiteSupport.h - Shared pieces of runtime-check sites ---*- C++ -*-===//
///
/// \file
/// Small queries the checks share when they turn a match into a runtime-check
/// site of `gpuguard instrument`: the text of an expression as written, where
/// macros make a site unsafe to rewrite, which function holds a statement and
/// whether the host alone runs it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_INSTRUMENT_SITESUPPORT_H
#define GPUGUARD_INSTRUMENT_SITESUPPORT_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace gpuguard::instrument {

/// The namespace of every function the inserted checks call.
inline constexpr llvm::StringLiteral RuntimeNamespace = "::gpuguard::rt::";

/// True when the first or last token of \p E comes from a macro, so that
/// wrapping \p E would rewrite a macro's definition or arguments.
bool involvesMacro(const clang::Expr &E);

/// The text of \p E exactly as written, when all of it is the main file's
/// own text; nothing when a macro is involved or it lies in another file.
std::optional<std::string> writtenText(const clang::Expr &E,
                                       const clang::ASTContext &Context);

/// True for a function only the host runs (neither `__device__` nor
/// `__global__`), where the runtime's host checks and wrappers can be called.
bool isHostOnly(const clang::FunctionDecl &Function);

/// True when \p Value, written at \p Site inside \p Function, names the
/// same value there as where it is written: integer constants, launch
/// builtins, const globals, template parameters, and parameters and locals
/// of \p Function that are never changed (nor have their address taken)
/// and, for locals, are in scope at \p Site; combined with arithmetic,
/// comparisons, casts and `?:`, but no calls, loads or assignments.
bool isStableAt(const clang::Expr &Value, const clang::Expr &Site,
                const clang::FunctionDecl &Function,
                clang::ASTContext &Context);

/// True when no runtime check may be inserted in \p Function: a constexpr or
/// consteval function may be evaluated at compile time, which cannot call
/// the runtime.
bool rejectsRuntimeChecks(const clang::FunctionDecl &Function);

/// True for \p S in the host code of a CUDA file, in a function that may
/// call the runtime: where its CUDA host side (declared under a CUDA
/// compiler only) and the LibTorch checks can be called.
bool isRuntimeCallableCudaHostCode(const clang::Stmt &S,
                                   clang::ASTContext &Context);

/// The tensor object of `t.data_ptr<T>()` (or another accessor) when it
/// can be wrapped in place: written with `.`, not `this`; null otherwise.
const clang::Expr *
wrappableAccessorObject(const clang::CXXMemberCallExpr &Accessor);

} // namespace gpuguard::instrument

#endif // GPUGUARD_INSTRUMENT_SITESUPPORT_H
