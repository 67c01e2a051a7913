//===--- AnalysisTestSupport.cpp - Parsing snippets for unit tests --------===//

#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::test {

const char *const DeviceAllocationDeclarations = R"(
typedef unsigned long size_t;
typedef int cudaError_t;
cudaError_t cudaMalloc(void **p, size_t bytes);
)";

static const char Prelude[] = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#include <__clang_cuda_builtin_vars.h>
__device__ int min(int, int);
__device__ int max(int, int);
extern "C" __device__ [[noreturn]] void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
// What a `<<<...>>>` launch needs.
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, unsigned long shared = 0,
                                 cudaStream_t stream = 0);
)";

std::unique_ptr<ASTUnit> parseCuda(const std::string &Code) {
  std::vector<std::string> Args = {"-xcuda",
                                   "--cuda-device-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=sm_80",
                                   "-resource-dir=" GPUGUARD_CLANG_RESOURCE_DIR,
                                   "-Wno-unused-value",
                                   "-Wno-unknown-cuda-version"};
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      std::string(Prelude) + Code, Args, "input.cu");
  EXPECT_TRUE(Unit);
  if (Unit)
    EXPECT_FALSE(Unit->getDiagnostics().hasErrorOccurred());
  return Unit;
}

std::unique_ptr<ASTUnit> parseTorch(const std::string &Code,
                                    const std::string &Prelude) {
  // Set by CMake: __FILE__ may be relative to the build directory.
  std::string MockHeaders = GPUGUARD_TEST_INPUTS_DIR "/torch";
  std::vector<std::string> Args = {"-std=c++17", "-isystem", MockHeaders,
                                   "-resource-dir=" GPUGUARD_CLANG_RESOURCE_DIR,
                                   "-Wno-unused-value"};
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      "#include <torch/torch.h>\n" + Prelude + Code, Args, "input.cpp");
  EXPECT_TRUE(Unit);
  if (Unit)
    EXPECT_FALSE(Unit->getDiagnostics().hasErrorOccurred());
  return Unit;
}

const FunctionDecl *findFunction(ASTContext &Context, llvm::StringRef Name) {
  auto Matches = match(
      functionDecl(hasName(Name.str()), isDefinition()).bind("f"), Context);
  return Matches.empty() ? nullptr : Matches[0].getNodeAs<FunctionDecl>("f");
}

namespace {
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
public:
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    Launches.push_back(Launch);
    return true;
  }
  std::vector<const CUDAKernelCallExpr *> Launches;
};

class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(llvm::StringRef Callee) : Callee(Callee) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Direct = Call->getDirectCallee();
    if (!Found && Direct && Direct->getIdentifier() &&
        Direct->getName() == Callee)
      Found = Call;
    return true;
  }
  llvm::StringRef Callee;
  const CallExpr *Found = nullptr;
};
} // namespace

const CallExpr *findFirstCall(Decl &Root, llvm::StringRef Callee) {
  CallFinder Finder(Callee);
  Finder.TraverseDecl(&Root);
  return Finder.Found;
}

std::vector<const CUDAKernelCallExpr *> findLaunches(Decl &Root) {
  LaunchCollector Collector;
  Collector.TraverseDecl(&Root);
  return Collector.Launches;
}

unsigned lineInBody(const FunctionDecl &Function, SourceLocation Loc) {
  const SourceManager &SM = Function.getASTContext().getSourceManager();
  return SM.getPresumedLineNumber(Loc) -
         SM.getPresumedLineNumber(Function.getBody()->getBeginLoc());
}

static const VarDecl *findVariableIn(const Stmt *S, llvm::StringRef Name) {
  if (!S)
    return nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (Var->getName() == Name)
          return Var;
  for (const Stmt *Child : S->children())
    if (const VarDecl *Found = findVariableIn(Child, Name))
      return Found;
  return nullptr;
}

const VarDecl *findVariable(const FunctionDecl &Function,
                            llvm::StringRef Name) {
  return findVariableIn(Function.getBody(), Name);
}

const BinaryOperator *findFirstDivision(const FunctionDecl &Function) {
  struct DivisionFinder : RecursiveASTVisitor<DivisionFinder> {
    const BinaryOperator *Found = nullptr;
    bool VisitBinaryOperator(BinaryOperator *Op) {
      if (!Found && Op->getOpcode() == BO_Div)
        Found = Op;
      return true;
    }
  } Finder;
  Finder.TraverseStmt(Function.getBody());
  return Finder.Found;
}

} // namespace gpuguard::test
