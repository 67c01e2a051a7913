//===--- DeviceOrdinalsTest.cpp -------------------------------------------===//
//
// Where the ordinal of `cudaSetDevice(x)` in a function `f` comes from, and
// whether the function checks it against the device count.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Cuda/DeviceOrdinals.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

constexpr const char *Declarations = R"(
extern "C" char *getenv(const char *);
extern "C" int atoi(const char *);
struct MPI_Comm_s;
typedef MPI_Comm_s *MPI_Comm;
extern MPI_Comm MPI_COMM_WORLD;
int MPI_Comm_rank(MPI_Comm, int *);
int cudaGetDeviceCount(int *);
int cudaSetDevice(int);
)";

/// The argument of the last cudaSetDevice call in `f`.
class OrdinalFinder : public clang::RecursiveASTVisitor<OrdinalFinder> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    if (const auto *Callee = Call->getDirectCallee();
        Callee && Callee->getName() == "cudaSetDevice")
      Ordinal = Call->getArg(0);
    return true;
  }
  const clang::Expr *Ordinal = nullptr;
};

struct Traced {
  std::unique_ptr<clang::ASTUnit> Unit;
  OrdinalTrace Trace;
};

Traced trace(const std::string &Body) {
  Traced T;
  T.Unit = parseCuda(std::string(Declarations) + Body);
  if (!T.Unit)
    return T;
  const clang::FunctionDecl *F = findFunction(T.Unit->getASTContext(), "f");
  OrdinalFinder Finder;
  Finder.TraverseDecl(const_cast<clang::FunctionDecl *>(F));
  if (F && Finder.Ordinal)
    T.Trace = traceDeviceOrdinal(*Finder.Ordinal, *F);
  return T;
}

TEST(DeviceOrdinalsTest, SourcesThroughLocals) {
  Traced T = trace("void f() {\n"
                   "  const char *text = getenv(\"LOCAL_RANK\");\n"
                   "  int parsed = atoi(text);\n"
                   "  int device;\n"
                   "  device = parsed + 0;\n"
                   "  cudaSetDevice(device);\n"
                   "}\n");
  ASSERT_EQ(T.Trace.Sources.size(), 1u);
  EXPECT_EQ(T.Trace.Sources[0].Kind, OrdinalSource::Environment);
  EXPECT_EQ(T.Trace.Sources[0].Name, "LOCAL_RANK");
  EXPECT_FALSE(T.Trace.Sources[0].isGlobalRank());
  EXPECT_FALSE(T.Trace.CheckedAgainstDeviceCount);
  EXPECT_FALSE(T.Trace.Remapped);
}

TEST(DeviceOrdinalsTest, CommandLineAndMpi) {
  Traced Cli = trace("void f(int argc, char **argv) {\n"
                     "  cudaSetDevice(atoi(argv[1]));\n"
                     "}\n");
  ASSERT_EQ(Cli.Trace.Sources.size(), 1u);
  EXPECT_EQ(Cli.Trace.Sources[0].Kind, OrdinalSource::CommandLine);

  Traced Mpi = trace("void f() {\n"
                     "  int rank;\n"
                     "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
                     "  cudaSetDevice(rank % 8);\n"
                     "}\n");
  ASSERT_EQ(Mpi.Trace.Sources.size(), 1u);
  EXPECT_TRUE(Mpi.Trace.Sources[0].isGlobalRank());
  EXPECT_TRUE(Mpi.Trace.Remapped);
  EXPECT_FALSE(Mpi.Trace.CheckedAgainstDeviceCount);
}

TEST(DeviceOrdinalsTest, ChecksAgainstTheDeviceCount) {
  EXPECT_TRUE(trace("void f() {\n"
                    "  int n = 0; cudaGetDeviceCount(&n);\n"
                    "  int d = atoi(getenv(\"LOCAL_RANK\"));\n"
                    "  if (d >= n) return;\n"
                    "  cudaSetDevice(d);\n"
                    "}\n")
                  .Trace.CheckedAgainstDeviceCount);
  EXPECT_TRUE(trace("void f() {\n"
                    "  int n = 0; cudaGetDeviceCount(&n);\n"
                    "  cudaSetDevice(atoi(getenv(\"RANK\")) % n);\n"
                    "}\n")
                  .Trace.CheckedAgainstDeviceCount);
  // A comparison of something else with the count is no check of it.
  EXPECT_FALSE(trace("void f(int other) {\n"
                     "  int n = 0; cudaGetDeviceCount(&n);\n"
                     "  if (other >= n) return;\n"
                     "  cudaSetDevice(atoi(getenv(\"LOCAL_RANK\")));\n"
                     "}\n")
                   .Trace.CheckedAgainstDeviceCount);
}

TEST(DeviceOrdinalsTest, UnknownOriginsHaveNoSource) {
  EXPECT_TRUE(
      trace("void f(int d) { cudaSetDevice(d); }\n").Trace.Sources.empty());
  EXPECT_TRUE(trace("void f() { cudaSetDevice(0); }\n").Trace.Sources.empty());
  // A helper that picks the device from the command line checks it itself.
  EXPECT_TRUE(trace("int pick(int argc, char **argv);\n"
                    "void f(int argc, char **argv) {\n"
                    "  int d = pick(argc, argv);\n"
                    "  cudaSetDevice(d);\n"
                    "}\n")
                  .Trace.Sources.empty());
}

} // namespace
