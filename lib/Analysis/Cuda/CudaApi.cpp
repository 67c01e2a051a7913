//===--- CudaApi.cpp - CUDA runtime and driver API calls ------------------===//

#include "Analysis/Cuda/CudaApi.h"
#include "Analysis/Core/EnclosingNodes.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/ResultUse.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gpuguard {

const char DefaultStatusTypes[] =
    "cudaError_t;cudaError;CUresult;cudaError_enum";

// From the toolkit's headers (cublas_api.h, cusparse.h, cusolver_common.h,
// cufft.h, curand.h, nvrtc.h, nvjpeg.h, npp's nppdefs.h), cuDNN's cudnn.h
// and NCCL's nccl.h.
const char DefaultLibraryStatusTypes[] =
    "cublasStatus_t;cusparseStatus_t;cusolverStatus_t;cufftResult;"
    "cufftResult_t;curandStatus_t;curandStatus;nvrtcResult;nvjpegStatus_t;"
    "NppStatus;cudnnStatus_t;ncclResult_t";

bool isLastErrorStatusType(llvm::StringRef TypeName) {
  return llvm::is_contained(
      {"cudaError_t", "cudaError", "CUresult", "cudaError_enum"}, TypeName);
}

llvm::SmallVector<const FunctionDecl *, 2>
calleeCandidates(const CallExpr &Call) {
  llvm::SmallVector<const FunctionDecl *, 2> Candidates;
  if (const FunctionDecl *Callee = Call.getDirectCallee()) {
    Candidates.push_back(Callee);
    return Candidates;
  }
  const auto *Lookup =
      dyn_cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Lookup)
    return Candidates;
  for (const NamedDecl *Found : Lookup->decls()) {
    const NamedDecl *Target = Found->getUnderlyingDecl();
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Target))
      Target = Template->getTemplatedDecl();
    if (const auto *Function = dyn_cast<FunctionDecl>(Target))
      Candidates.push_back(Function);
  }
  return Candidates;
}

llvm::StringRef calleeName(const CallExpr &Call) {
  if (const FunctionDecl *Callee = Call.getDirectCallee())
    return Callee->getIdentifier() ? Callee->getName() : StringRef();
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
          Call.getCallee()->IgnoreParenImpCasts()))
    if (const IdentifierInfo *Name = Lookup->getName().getAsIdentifierInfo())
      return Name->getName();
  return {};
}

llvm::StringRef matchStatusType(QualType Type,
                                llvm::ArrayRef<llvm::StringRef> TypeNames,
                                const ASTContext &Context) {
  auto Find = [&](StringRef Name) -> StringRef {
    const auto *Entry = llvm::find(TypeNames, Name);
    return Name.empty() || Entry == TypeNames.end() ? StringRef() : *Entry;
  };
  QualType Current = Type.getUnqualifiedType();
  while (true) {
    if (const auto *Typedef = dyn_cast<TypedefType>(Current.getTypePtr()))
      if (StringRef Entry = Find(Typedef->getDecl()->getName()); !Entry.empty())
        return Entry;
    QualType Next = Current.getSingleStepDesugaredType(Context);
    if (Next == Current)
      break;
    Current = Next.getUnqualifiedType();
  }
  const TagDecl *Tag = Type->getAsTagDecl();
  if (!Tag)
    return {};
  StringRef Name = Tag->getName();
  if (Name.empty())
    if (const TypedefNameDecl *Typedef = Tag->getTypedefNameForAnonDecl())
      Name = Typedef->getName();
  return Find(Name);
}

llvm::StringRef returnedStatusType(const CallExpr &Call,
                                   llvm::ArrayRef<llvm::StringRef> TypeNames,
                                   const ASTContext &Context) {
  llvm::SmallVector<const FunctionDecl *, 2> Candidates =
      calleeCandidates(Call);
  if (Candidates.empty()) {
    // A call through a pointer: its type still carries the typedef.
    if (Call.isTypeDependent())
      return {};
    return matchStatusType(Call.getType(), TypeNames, Context);
  }
  StringRef Found;
  for (const FunctionDecl *Candidate : Candidates) {
    StringRef Status =
        matchStatusType(Candidate->getReturnType(), TypeNames, Context);
    if (Status.empty())
      return {};
    if (Found.empty())
      Found = Status;
  }
  return Found;
}

/// Adds to \p Out the return statements of \p S, outside lambdas.
static void collectReturns(const Stmt *S,
                           llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Return = dyn_cast<ReturnStmt>(S))
    Out.push_back(Return);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

bool passesStatusThrough(const FunctionDecl &Function,
                         llvm::ArrayRef<llvm::StringRef> TypeNames,
                         const ASTContext &Context) {
  const FunctionDecl *Definition = Function.getDefinition();
  if (!Definition || !Definition->getBody())
    return false;
  llvm::SmallVector<const ReturnStmt *, 2> Returns;
  collectReturns(Definition->getBody(), Returns);
  return !Returns.empty() && llvm::all_of(Returns, [&](const ReturnStmt *R) {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
        R->getRetValue() ? R->getRetValue()->IgnoreParenImpCasts() : nullptr);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return Param && Param->getDeclContext() == Definition &&
           !matchStatusType(Param->getType(), TypeNames, Context).empty();
  });
}

/// Whether \p Body reads \p Param anywhere but in a return of it.
static bool readsBeyondReturn(const Stmt *S, const ParmVarDecl &Param) {
  if (!S)
    return false;
  if (const auto *Return = dyn_cast<ReturnStmt>(S);
      Return && Return->getRetValue()) {
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Return->getRetValue()->IgnoreParenImpCasts());
    if (Ref && Ref->getDecl() == &Param)
      return false;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
      Ref && Ref->getDecl() == &Param)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return readsBeyondReturn(Child, Param);
  });
}

bool isLaunchConfiguration(const CallExpr &Call, ASTContext &Context) {
  const auto *Launch =
      dyn_cast_or_null<CUDAKernelCallExpr>(userOf(Call, Context).User);
  return Launch && Launch->getConfig() == &Call;
}

/// Whether every read of \p Var in \p S is only formatted for output.
static bool onlyFormattedIn(const Stmt &S, const VarDecl &Var,
                            ASTContext &Context) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(&S);
      Ref && Ref->getDecl() == &Var)
    return isOnlyFormatted(*Ref, Context, FormattedValue::Arithmetic);
  return llvm::all_of(S.children(), [&](const Stmt *Child) {
    return !Child || onlyFormattedIn(*Child, Var, Context);
  });
}

bool isCheckedThroughOutput(const CallExpr &Call, ASTContext &Context) {
  if (!isa_and_nonnull<CompoundStmt>(userOf(Call, Context).User))
    return false;
  // The locals the call writes through `&v`, holding a value from before.
  llvm::SmallVector<const VarDecl *, 2> Outputs;
  for (const Expr *Argument : Call.arguments())
    if (const VarDecl *Var = addressedLocalVariable(Argument);
        Var && !isa<ParmVarDecl>(Var) && Var->hasInit())
      Outputs.push_back(Var);
  if (Outputs.empty())
    return false;
  // The statements after the call in its block: the test of an output,
  // after statements that at most print the outputs (`printf("driver
  // %d\n", version / 1000);`), which see the first value on a failure.
  llvm::SmallVector<const Stmt *, 4> After;
  anyEnclosingBlock(Call, Context,
                    [&](const CompoundStmt &Block, const Stmt &Holder) {
                      const auto *It = llvm::find(Block.body(), &Holder);
                      if (It != Block.body_end())
                        After.assign(It + 1, Block.body_end());
                      return true; // The innermost block only.
                    });
  auto ReadsOutput = [&](const Expr *E, auto &&OnRead) {
    llvm::SmallVector<const VarDecl *, 4> Read;
    collectReadVariables(E, Read);
    return llvm::any_of(Outputs, [&](const VarDecl *Output) {
      return llvm::is_contained(Read, Output) && OnRead(Output);
    });
  };
  for (const Stmt *S : After) {
    if (const auto *If = dyn_cast<IfStmt>(S))
      return If->getCond() &&
             ReadsOutput(If->getCond(), [](const VarDecl *) { return true; });
    const auto *Printed = dyn_cast<Expr>(S);
    if (!Printed || !isPrintCall(*Printed) ||
        ReadsOutput(Printed, [&](const VarDecl *Output) {
          return !onlyFormattedIn(*Printed, *Output, Context);
        }))
      return false;
  }
  return false;
}

bool isStatusRead(const CallExpr &Call,
                  llvm::ArrayRef<llvm::StringRef> TypeNames,
                  ASTContext &Context) {
  if (Call.getType()->isVoidType() ||
      getResultUse(Call, Context) != ResultUse::Used)
    return false;
  // The call as an argument of another: `checkCuda(cudaSetDevice(d))`.
  const auto *Handler = dyn_cast_or_null<CallExpr>(userOf(Call, Context).User);
  const FunctionDecl *Callee = Handler ? Handler->getDirectCallee() : nullptr;
  const FunctionDecl *Definition = Callee ? Callee->getDefinition() : nullptr;
  if (!Definition || !passesStatusThrough(*Definition, TypeNames, Context))
    return true;
  for (unsigned I = 0;
       I < Handler->getNumArgs() && I < Definition->getNumParams(); ++I)
    if (Handler->getArg(I)->IgnoreParenImpCasts() == &Call &&
        readsBeyondReturn(Definition->getBody(), *Definition->getParamDecl(I)))
      return true;
  return isStatusRead(*Handler, TypeNames, Context);
}

llvm::StringRef canonicalApiName(llvm::StringRef Name) {
  while (true) {
    if (Name.consume_back("_ptds") || Name.consume_back("_ptsz"))
      continue;
    // `_v2`, `_v3`, ...
    size_t Underscore = Name.rfind("_v");
    if (Underscore == StringRef::npos || Underscore + 2 == Name.size())
      return Name;
    StringRef Version = Name.substr(Underscore + 2);
    if (!llvm::all_of(Version, [](char C) { return C >= '0' && C <= '9'; }))
      return Name;
    Name = Name.take_front(Underscore);
  }
}

bool isSynchronizingApi(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"cudaDeviceSynchronize", "cudaThreadSynchronize",
              "cudaStreamSynchronize", "cudaEventSynchronize"},
             true)
      .Cases({"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyPeer",
              "cudaMemcpy3DPeer", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol",
              "cudaMemcpyToArray", "cudaMemcpyFromArray", "cudaMemcpy2DToArray",
              "cudaMemcpy2DFromArray"},
             true)
      .Case("cudaFree", true)
      .Cases({"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize"},
             true)
      .Cases({"cuMemcpy", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD",
              "cuMemcpy2D", "cuMemcpy3D", "cuMemcpyPeer", "cuMemcpy3DPeer"},
             true)
      .Case("cuMemFree", true)
      .Default(false);
}

bool isKernelSetupApi(llvm::StringRef Name) {
  return Name.starts_with("cudaMalloc") || Name.starts_with("cudaMemcpy") ||
         Name.starts_with("cudaMemset") || Name.starts_with("cuMemAlloc") ||
         Name.starts_with("cuMemcpy") || Name.starts_with("cuMemsetD") ||
         Name == "cudaSetDevice" || Name == "cuCtxSetCurrent";
}

/// A destroy of a library's handle, plan, descriptor or communicator:
/// `cublasDestroy`, `cusparseDestroySpMat`, `curandDestroyGenerator`,
/// `ncclCommDestroy`, `nvrtcDestroyProgram`.
static bool isLibraryDestroy(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Libraries[] = {
      "cublas", "cusparse", "cusolver", "cufft", "curand",
      "nvrtc",  "nvjpeg",   "cudnn",    "nccl"};
  return llvm::any_of(Libraries,
                      [&](llvm::StringRef Prefix) {
                        return Name.starts_with(Prefix);
                      }) &&
         (Name.contains("Destroy") || Name == "ncclCommAbort");
}

bool isTeardownApi(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      // Runtime API.
      .Cases({"cudaFree", "cudaFreeHost", "cudaFreeArray",
              "cudaFreeMipmappedArray", "cudaFreeAsync", "cudaHostUnregister",
              "cudaIpcCloseMemHandle", "cudaMemPoolDestroy"},
             true)
      .Cases({"cudaEventDestroy", "cudaStreamDestroy", "cudaGraphDestroy",
              "cudaGraphExecDestroy", "cudaDestroyTextureObject",
              "cudaDestroySurfaceObject", "cudaDeviceReset"},
             true)
      // Driver API.
      .Cases({"cuMemFree", "cuMemFreeHost", "cuMemFreeAsync",
              "cuMemHostUnregister", "cuMemRelease", "cuMemUnmap",
              "cuMemAddressFree", "cuArrayDestroy"},
             true)
      .Cases({"cuEventDestroy", "cuStreamDestroy", "cuCtxDestroy",
              "cuModuleUnload", "cuTexObjectDestroy", "cuSurfObjectDestroy",
              "cuGraphDestroy", "cuGraphExecDestroy"},
             true)
      .Default(isLibraryDestroy(Name));
}

bool isReadinessQuery(llvm::StringRef Name) {
  return llvm::is_contained(
      {"cudaEventQuery", "cudaStreamQuery", "cuEventQuery", "cuStreamQuery"},
      Name);
}

bool isProfilerControl(llvm::StringRef Name) {
  return llvm::is_contained({"cudaProfilerStart", "cudaProfilerStop",
                             "cuProfilerStart", "cuProfilerStop"},
                            Name);
}

bool isLastErrorQuery(llvm::StringRef Name) {
  return Name == "cudaGetLastError" || Name == "cudaPeekAtLastError";
}

} // namespace gpuguard
