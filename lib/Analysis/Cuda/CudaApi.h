//===--- CudaApi.h - CUDA runtime and driver API calls ----------*- C++ -*-===//
///
/// \file
/// What gpuguard knows about calls of the CUDA runtime and driver APIs: which
/// calls return a status (by their declared return type, so that every API
/// function and every user wrapper returning `cudaError_t` or `CUresult` is
/// covered), which ones block until earlier device work is done, and which
/// ones report a kernel launch's errors.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CUDA_CUDAAPI_H
#define GPUGUARD_ANALYSIS_CUDA_CUDAAPI_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace gpuguard {

/// The status types of the runtime and driver APIs, as typedef and as enum:
/// `cudaError_t`, `cudaError`, `CUresult`, `cudaError_enum`.
extern const char DefaultStatusTypes[];

/// The status types of the toolkit's libraries, cuDNN and NCCL, as typedef
/// and as enum where they differ: `cublasStatus_t`, `cufftResult`,
/// `ncclResult_t`, ... Their errors are returned only: none becomes the
/// runtime's last error.
extern const char DefaultLibraryStatusTypes[];

/// Whether \p TypeName (an entry of a list of status types) is one of the
/// runtime's or driver's, whose errors the analysis of pending errors
/// follows to a later check of the last error; any other status is lost
/// when its call's result is dropped.
bool isLastErrorStatusType(llvm::StringRef TypeName);

/// The functions \p Call may call: its callee, or, for a call whose arguments
/// are still dependent in a template, every function its name finds.
llvm::SmallVector<const clang::FunctionDecl *, 2>
calleeCandidates(const clang::CallExpr &Call);

/// The name \p Call is written with: its callee's, or the name it looks up.
/// Empty for calls through a pointer and for operators.
llvm::StringRef calleeName(const clang::CallExpr &Call);

/// The entry of \p TypeNames that \p Type is spelled as or resolves to,
/// looking through typedefs from the outermost in, and then at the enum or
/// class it names (also when a typedef names an anonymous enum). Empty when
/// none matches.
llvm::StringRef matchStatusType(clang::QualType Type,
                                llvm::ArrayRef<llvm::StringRef> TypeNames,
                                const clang::ASTContext &Context);

/// The status type (an entry of \p TypeNames) that \p Call returns, or empty
/// when it returns none. A dependent call returns one when every function it
/// may call does.
llvm::StringRef returnedStatusType(const clang::CallExpr &Call,
                                   llvm::ArrayRef<llvm::StringRef> TypeNames,
                                   const clang::ASTContext &Context);

/// Whether \p Function is a status handler: it takes a status (of a type in
/// \p TypeNames) and every return hands that parameter back unchanged, as
/// `checkCuda(cudaError_t result) { ... return result; }` does. What it
/// returns is the status the caller gave it to handle, checked there or
/// deliberately not (a check compiled in only for debug builds).
bool passesStatusThrough(const clang::FunctionDecl &Function,
                         llvm::ArrayRef<llvm::StringRef> TypeNames,
                         const clang::ASTContext &Context);

/// Whether \p Call is the configuration of a `<<<>>>` launch, which Clang
/// writes as a call (`cudaLaunchDevice` in device code, whose status the
/// launch consumes): no status the code reads.
bool isLaunchConfiguration(const clang::CallExpr &Call,
                           clang::ASTContext &Context);

/// Whether the statement after \p Call, a statement of its own, tests a
/// local that \p Call writes through its address and that holds a value
/// from before the call: `int n = 0; cudaGetDeviceCount(&n); if (n < 1)
/// ...`, `int found = 0; query(..., &found); if (found == 0) exit(1);`,
/// also past statements that only print the local. A failed call leaves the
/// local at that value, which the test catches: the call's outcome is
/// checked through its output.
bool isCheckedThroughOutput(const clang::CallExpr &Call,
                            clang::ASTContext &Context);

/// Whether the status \p Call returns is read: used, and not only handed
/// to a handler that does nothing with it but return it (NVIDIA's blog
/// samples' `checkCuda` outside debug builds) when the handler's result is
/// dropped in turn. `CHECK(cudaSetDevice(d))` with a `CHECK` that tests,
/// `if (cudaSetDevice(d) != cudaSuccess)` and `err = cudaSetDevice(d)` read
/// it.
bool isStatusRead(const clang::CallExpr &Call,
                  llvm::ArrayRef<llvm::StringRef> TypeNames,
                  clang::ASTContext &Context);

/// \p Name without the suffixes the toolkit headers' macros append to API
/// functions: an ABI version (`cuMemFree_v2`) and the per-thread default
/// stream variants (`cudaMemcpy_ptds`, `cudaStreamSynchronize_ptsz`).
llvm::StringRef canonicalApiName(llvm::StringRef Name);

/// True for the API functions that wait for earlier device work, so that an
/// asynchronous fault of an earlier kernel is reported in their result:
/// `cudaDeviceSynchronize`, `cudaStreamSynchronize`, `cudaEventSynchronize`,
/// the blocking copies (`cudaMemcpy`, `cudaMemcpyToSymbol`, ...), `cudaFree`
/// and their driver API counterparts. \p Name is canonical.
bool isSynchronizingApi(llvm::StringRef Name);

/// True for the API functions that release what an earlier call made: frees,
/// destroys, unregistrations, `cudaDeviceReset`, and the libraries' destroys
/// (`cublasDestroy`, `cufftDestroy`, `ncclCommDestroy`, ...). Their failures
/// are about the release itself, and teardown code rarely checks them. \p
/// Name is canonical.
bool isTeardownApi(llvm::StringRef Name);

/// True for the API functions that set up what a later kernel reads:
/// allocations, copies and fills of device memory, and the choice of
/// device. A kernel launched after one of them failed runs on garbage.
/// \p Name is canonical.
bool isKernelSetupApi(llvm::StringRef Name);

/// True for the API functions that ask whether work is done:
/// `cudaEventQuery`, `cudaStreamQuery` and the driver's. Their usual answer
/// is `cudaErrorNotReady`, which is no error and does not become the last
/// error; a call whose answer is dropped only flushes the queue (the
/// Windows WDDM idiom). \p Name is canonical.
bool isReadinessQuery(llvm::StringRef Name);

/// True for the profiler's controls, `cudaProfilerStart`, `cudaProfilerStop`
/// and the driver's: a failure changes only what a profiler records, and
/// the program's results not at all. \p Name is canonical.
bool isProfilerControl(llvm::StringRef Name);

/// True for `cudaGetLastError` and `cudaPeekAtLastError`, which return the
/// error of the last kernel launch. \p Name is canonical.
bool isLastErrorQuery(llvm::StringRef Name);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CUDA_CUDAAPI_H
