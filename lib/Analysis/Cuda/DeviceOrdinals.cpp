//===--- DeviceOrdinals.cpp - Where a device ordinal comes from -----------===//

#include "Analysis/Cuda/DeviceOrdinals.h"
#include "Analysis/Core/ExprShape.h"
#include "Analysis/Core/KnownCalls.h"
#include "Analysis/Cuda/CudaApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace gpuguard {

bool OrdinalSource::isGlobalRank() const {
  if (Kind == MpiWorldRank)
    return true;
  return Kind == Environment &&
         StringSwitch<bool>(Name)
             .Cases({"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID",
                     "PMIX_RANK", "MV2_COMM_WORLD_RANK"},
                    true)
             .Default(false);
}

namespace {

const VarDecl *localVariable(const Expr *E) {
  return asLocalVariable(E->IgnoreParenImpCasts());
}

bool isDeviceCountCall(const CallExpr &Call) {
  StringRef Name = canonicalApiName(calleeName(Call));
  return Name == "cudaGetDeviceCount" || Name == "cuDeviceGetCount" ||
         Name == "device_count";
}

bool isArgv(const ParmVarDecl *Param) {
  if (!Param->getIdentifier() || Param->getName() != "argv")
    return false;
  return Param->getType()->isPointerType() || Param->getType()->isArrayType();
}

/// What the function writes into each local (initialisers, assignments,
/// out-parameters of MPI_Comm_rank and of the device-count queries), and
/// its comparisons.
class Writes : public RecursiveASTVisitor<Writes> {
public:
  explicit Writes(const Stmt *Body) : Variables(collectVariableWrites(Body)) {}

  /// Every value the local \p Var is given: its initialiser, then what is
  /// assigned or added to it.
  SmallVector<const Expr *, 2> valuesOf(const VarDecl *Var) const {
    SmallVector<const Expr *, 2> Values;
    if (Var->hasLocalStorage() && Var->getInit())
      Values.push_back(Var->getInit());
    for (const auto *Written : {&Variables.Assigned, &Variables.Combined})
      if (auto It = Written->find(Var); It != Written->end())
        Values.append(It->second.begin(), It->second.end());
    return Values;
  }

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isComparisonOp())
      Comparisons.push_back(Op);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    StringRef Name = canonicalApiName(calleeName(*Call));
    if (Name == "MPI_Comm_rank" && Call->getNumArgs() == 2)
      if (const VarDecl *Var = addressedLocalVariable(Call->getArg(1)))
        MpiRanks[Var] = Call;
    if (isDeviceCountCall(*Call) && Call->getNumArgs() >= 1)
      if (const VarDecl *Var = addressedLocalVariable(Call->getArg(0)))
        DeviceCounts.insert(Var);
    return true;
  }

  VariableWrites Variables;
  DenseMap<const VarDecl *, const CallExpr *> MpiRanks;
  SmallPtrSet<const VarDecl *, 4> DeviceCounts;
  std::vector<const BinaryOperator *> Comparisons;
};

/// The variables an expression reads, and the sources it reads directly.
class Tracer {
public:
  explicit Tracer(const Writes &W) : W(W) {}

  void trace(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParenImpCasts();
    if (const auto *Op = dyn_cast<BinaryOperator>(E);
        Op && (Op->getOpcode() == BO_Rem || Op->getOpcode() == BO_RemAssign)) {
      Remapped = true;
      if (mentionsDeviceCount(Op->getRHS()))
        Counted = true;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      StringRef Name = calleeName(*Call);
      if (Name == "getenv" || Name == "secure_getenv") {
        OrdinalSource Source;
        Source.Kind = OrdinalSource::Environment;
        if (Call->getNumArgs() == 1)
          if (const auto *Literal = dyn_cast<clang::StringLiteral>(
                  Call->getArg(0)->IgnoreParenImpCasts()))
            Source.Name = Literal->getString().str();
        Source.Where = Call;
        Sources.push_back(Source);
        return;
      }
      // What another function returns is that function's business (a
      // helper that picks a device may check it); only the parsers of
      // text are seen through.
      if (!isTextToNumber(Name))
        return;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && isArgv(Param)) {
        Sources.push_back({OrdinalSource::CommandLine, "argv", E});
        return;
      }
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage() && Visited.insert(Var).second) {
        if (auto It = W.MpiRanks.find(Var); It != W.MpiRanks.end()) {
          const CallExpr *Call = It->second;
          std::string Communicator;
          if (const auto *CommRef =
                  dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenCasts()))
            Communicator = CommRef->getDecl()->getNameAsString();
          // A macro as in MPICH and Open MPI both: the name is lost, but
          // the spelling of the argument is not.
          if (Communicator.empty() || Communicator == "MPI_COMM_WORLD" ||
              Communicator == "ompi_mpi_comm_world")
            Sources.push_back(
                {OrdinalSource::MpiWorldRank, "MPI_COMM_WORLD", Call});
        }
        for (const Expr *Value : W.valuesOf(Var))
          trace(Value);
      }
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        trace(ChildExpr);
  }

  bool mentionsDeviceCount(const Expr *E) const {
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && isDeviceCountCall(*Call))
      return true;
    if (const VarDecl *Var = localVariable(E)) {
      if (W.DeviceCounts.contains(Var))
        return true;
      return llvm::any_of(W.valuesOf(Var), [](const Expr *Value) {
        const auto *Call = dyn_cast<CallExpr>(Value->IgnoreParenImpCasts());
        return Call && isDeviceCountCall(*Call);
      });
    }
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (mentionsDeviceCount(ChildExpr))
          return true;
    return false;
  }

  bool mentionsTraced(const Expr *E) const {
    if (!E)
      return false;
    if (const VarDecl *Var = localVariable(E))
      return Visited.contains(Var);
    for (const Stmt *Child : E->IgnoreParenImpCasts()->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (mentionsTraced(ChildExpr))
          return true;
    return false;
  }

  const Writes &W;
  std::vector<OrdinalSource> Sources;
  SmallPtrSet<const VarDecl *, 8> Visited;
  bool Remapped = false;
  bool Counted = false;
};

} // namespace

OrdinalTrace traceDeviceOrdinal(const Expr &Ordinal,
                                const FunctionDecl &Function) {
  OrdinalTrace Result;
  if (!Function.getBody())
    return Result;
  Writes W(Function.getBody());
  W.TraverseStmt(Function.getBody());
  Tracer T(W);
  T.trace(&Ordinal);
  Result.Sources = T.Sources;
  Result.Remapped = T.Remapped;
  Result.CheckedAgainstDeviceCount = T.Counted;
  // A comparison of the ordinal (or what it came from) with a count.
  for (const BinaryOperator *Compare : W.Comparisons)
    if ((T.mentionsTraced(Compare->getLHS()) &&
         T.mentionsDeviceCount(Compare->getRHS())) ||
        (T.mentionsTraced(Compare->getRHS()) &&
         T.mentionsDeviceCount(Compare->getLHS())))
      Result.CheckedAgainstDeviceCount = true;
  return Result;
}

} // namespace gpuguard
