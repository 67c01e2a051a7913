//===--- UnrolledStrideLoopsTest.cpp --------------------------------------===//

#include "Analysis/Cuda/UnrolledStrideLoops.h"
#include "Analysis/Core/ExprShape.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// The first `for` loop and the locals named `j` and `lane` of a kernel.
class LoopFinder : public clang::RecursiveASTVisitor<LoopFinder> {
public:
  bool VisitForStmt(clang::ForStmt *For) {
    if (!MainLoop)
      MainLoop = For;
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *Var) {
    if (Var->getName() == "j")
      Counter = Var;
    if (Var->getName() == "lane")
      Lane = Var;
    return true;
  }
  const clang::ForStmt *MainLoop = nullptr;
  const clang::VarDecl *Counter = nullptr;
  const clang::VarDecl *Lane = nullptr;
};

/// Whether, in a kernel with \p Body, `j + lane` stays below the limit of
/// the first loop (`lane` holds the lane offset).
bool lanesStayBelow(const std::string &Body) {
  auto Unit = parseCuda("#define UNROLL 4\n"
                        "__global__ void k(const float *a, int n, int m, "
                        "float *out) {\n"
                        "  float acc = 0.f;\n" +
                        Body + "\n  *out = acc;\n}\n");
  if (!Unit)
    return false;
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Kernel = findFunction(Context, "k");
  LoopFinder Found;
  Found.TraverseDecl(const_cast<clang::FunctionDecl *>(Kernel));
  EXPECT_TRUE(Found.MainLoop && Found.Counter && Found.Lane);
  if (!Found.MainLoop || !Found.Counter || !Found.Lane)
    return false;
  llvm::SmallPtrSet<const clang::VarDecl *, 16> Reassigned;
  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> CounterLoops;
  collectAssignedVariables(Kernel->getBody(), Reassigned);
  collectLoopCounters(Kernel->getBody(), CounterLoops);
  UnrolledStrideLoops Loops(*Kernel, Context, Reassigned, CounterLoops);
  return Loops.keepsLaneBelowLimit(Found.MainLoop->getCond(), Found.Counter,
                                   Found.Lane->getInit());
}

const char *GridStride = "  int s = blockDim.x * gridDim.x;\n"
                         "  int w = UNROLL * s;\n"
                         "  int limit = (n / w) * w;\n";

std::string mainLoop(const std::string &Start, const std::string &Test,
                     const std::string &Step, const std::string &Lanes,
                     const std::string &Lane) {
  return "  int j = " + Start + ";\n  for (; " + Test + "; " + Step +
         ") {\n    for (int u = 0; " + Lanes +
         "; ++u) {\n      int lane = " + Lane +
         ";\n      acc += a[j + lane];\n    }\n  }\n";
}

const char *ThreadIndex = "blockIdx.x * blockDim.x + threadIdx.x";

TEST(UnrolledStrideLoopsTest, LanesOfAnUnrolledGridStrideLoop) {
  EXPECT_TRUE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop(ThreadIndex, "j < limit", "j += w", "u < UNROLL", "u * s")));
  // Spelled inline and in the other orders.
  EXPECT_TRUE(
      lanesStayBelow("  int s = gridDim.x * blockDim.x;\n" +
                     mainLoop("threadIdx.x + blockDim.x * blockIdx.x",
                              "j < n / (s * UNROLL) * (s * UNROLL)",
                              "j += s * UNROLL", "u < UNROLL", "s * u")));
  // The counter declared in the loop's init.
  EXPECT_TRUE(lanesStayBelow(std::string(GridStride) +
                             "  for (int j = " + ThreadIndex +
                             "; j < limit; j += w)\n"
                             "    for (int u = 0; u < UNROLL; ++u) {\n"
                             "      int lane = u * s;\n"
                             "      acc += a[j + lane];\n    }\n"));
  // A block-stride loop: threadIdx.x below blockDim.x.
  EXPECT_TRUE(lanesStayBelow(
      "  int s = blockDim.x;\n  int w = UNROLL * s;\n"
      "  int limit = (n / w) * w;\n" +
      mainLoop("threadIdx.x", "j < limit", "j += w", "u < UNROLL", "u * s")));
}

TEST(UnrolledStrideLoopsTest, LoopsThatLeaveNoRoom) {
  // The limit is n itself, not a multiple of the width below it.
  EXPECT_FALSE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop(ThreadIndex, "j < n", "j += w", "u < UNROLL", "u * s")));
  // Rounded down to a multiple of another width.
  EXPECT_FALSE(lanesStayBelow(std::string(GridStride) +
                              mainLoop(ThreadIndex, "j < (n / m) * m", "j += w",
                                       "u < UNROLL", "u * s")));
  // One lane too many, lanes a stride apart of another size, and a step
  // that is not the width.
  EXPECT_FALSE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop(ThreadIndex, "j < limit", "j += w", "u <= UNROLL", "u * s")));
  EXPECT_FALSE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop(ThreadIndex, "j < limit", "j += w", "u < UNROLL", "u * m")));
  EXPECT_FALSE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop(ThreadIndex, "j < limit", "j += s", "u < UNROLL", "u * s")));
  // A start that may reach the stride: another dimension, a parameter, a
  // thread index scaled by two.
  EXPECT_FALSE(
      lanesStayBelow(std::string(GridStride) +
                     mainLoop("blockIdx.y * blockDim.y + threadIdx.y",
                              "j < limit", "j += w", "u < UNROLL", "u * s")));
  EXPECT_FALSE(lanesStayBelow(
      std::string(GridStride) +
      mainLoop("m", "j < limit", "j += w", "u < UNROLL", "u * s")));
  EXPECT_FALSE(
      lanesStayBelow(std::string(GridStride) +
                     mainLoop("2 * (blockIdx.x * blockDim.x + threadIdx.x)",
                              "j < limit", "j += w", "u < UNROLL", "u * s")));
  // The counter moved between its declaration and the loop.
  EXPECT_FALSE(lanesStayBelow(std::string(GridStride) +
                              "  int j = " + ThreadIndex +
                              ";\n  j += m;\n"
                              "  for (; j < limit; j += w)\n"
                              "    for (int u = 0; u < UNROLL; ++u) {\n"
                              "      int lane = u * s;\n"
                              "      acc += a[j + lane];\n    }\n"));
}

} // namespace
