//===--- AnalysisTestSupport.h - Parsing snippets for tests -----*- C++ -*-===//
///
/// \file
/// Parses a CUDA snippet (device side, Clang's own builtin variables, no
/// toolkit) so that the analyses in lib/Analysis can be tested on their own.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_UNIT_ANALYSISTESTSUPPORT_H
#define GPUGUARD_TEST_UNIT_ANALYSISTESTSUPPORT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/ASTUnit.h"
#include <memory>
#include <string>
#include <vector>

namespace gpuguard::test {

/// Parses \p Code as CUDA device code; fails the test on compile errors.
std::unique_ptr<clang::ASTUnit> parseCuda(const std::string &Code);

/// The declarations host code that allocates device memory needs in code
/// given to parseCuda(), which includes no CUDA header: size_t,
/// cudaError_t and cudaMalloc.
extern const char *const DeviceAllocationDeclarations;

/// Parses \p Code as C++17 after `#include <torch/torch.h>` of the mock
/// LibTorch headers (test/Inputs/torch) and \p Prelude; fails the test on
/// compile errors.
std::unique_ptr<clang::ASTUnit> parseTorch(const std::string &Code,
                                           const std::string &Prelude = "");

/// The function named \p Name, or null.
const clang::FunctionDecl *findFunction(clang::ASTContext &Context,
                                        llvm::StringRef Name);

/// The line of \p Loc counted from the line of \p Function's opening brace,
/// so that tests name lines of the body they wrote.
unsigned lineInBody(const clang::FunctionDecl &Function,
                    clang::SourceLocation Loc);

/// The kernel launches under \p Root (a function, or the translation unit),
/// in source order.
std::vector<const clang::CUDAKernelCallExpr *> findLaunches(clang::Decl &Root);

/// The first call under \p Root of a function named \p Callee, lambda
/// bodies included, or null.
const clang::CallExpr *findFirstCall(clang::Decl &Root, llvm::StringRef Callee);

/// The local variable named \p Name in \p Function, or null.
const clang::VarDecl *findVariable(const clang::FunctionDecl &Function,
                                   llvm::StringRef Name);

/// The first `/` in \p Function's body, or null.
const clang::BinaryOperator *
findFirstDivision(const clang::FunctionDecl &Function);

} // namespace gpuguard::test

#endif // GPUGUARD_TEST_UNIT_ANALYSISTESTSUPPORT_H
