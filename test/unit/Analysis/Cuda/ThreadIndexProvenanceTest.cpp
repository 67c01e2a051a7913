//===--- ThreadIndexProvenanceTest.cpp ------------------------------------===//

#include "Analysis/Cuda/ThreadIndexProvenance.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

class ProvenanceTest : public ::testing::Test {
protected:
  void parse(const std::string &Body) {
    Unit = parseCuda("__global__ void kernel(const int *in, int n) {\n" + Body +
                     "\n}\n");
    ASSERT_TRUE(Unit);
    Function = findFunction(Unit->getASTContext(), "kernel");
    ASSERT_TRUE(Function);
    Provenance.emplace(*Function, Unit->getASTContext());
  }
  ValueOrigin origin(llvm::StringRef Var) {
    const clang::VarDecl *Decl = findVariable(*Function, Var);
    EXPECT_TRUE(Decl) << Var.str();
    return Decl ? Provenance->originOf(Decl) : ValueOrigin();
  }

  std::unique_ptr<clang::ASTUnit> Unit;
  const clang::FunctionDecl *Function = nullptr;
  std::optional<ThreadIndexProvenance> Provenance;
};

TEST_F(ProvenanceTest, GlobalIndexIsThreadDependent) {
  parse("int i = blockIdx.x * blockDim.x + threadIdx.x; (void)i;");
  ValueOrigin I = origin("i");
  EXPECT_TRUE(I.isThreadDependent());
  EXPECT_FALSE(I.IsBareCoordinate);
  EXPECT_FALSE(I.isBlockLocal());
}

TEST_F(ProvenanceTest, CopyOfOneCoordinateIsBare) {
  parse("int t = threadIdx.x; unsigned b = blockIdx.y; (void)t; (void)b;");
  EXPECT_TRUE(origin("t").IsBareCoordinate);
  EXPECT_TRUE(origin("t").isBlockLocal());
  EXPECT_TRUE(origin("b").IsBareCoordinate);
}

TEST_F(ProvenanceTest, CoordinateAxesFollowEveryDefinition) {
  parse("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "int row = y * n + x;\n"
        "int z = threadIdx.z; if (n > 4) z = x;\n"
        "int stride = blockDim.x * gridDim.y;\n"
        "int loaded = in[y];\n"
        "(void)row; (void)z; (void)stride; (void)loaded;");
  EXPECT_EQ(origin("x").CoordinateAxes, 1u);
  EXPECT_EQ(origin("y").CoordinateAxes, 2u);
  EXPECT_EQ(origin("row").CoordinateAxes, 3u);
  // Every definition counts, not only the first.
  EXPECT_EQ(origin("z").CoordinateAxes, 5u);
  // Launch extents are not coordinates, and a loaded value is no
  // coordinate of the index it was loaded with.
  EXPECT_EQ(origin("stride").CoordinateAxes, 0u);
  EXPECT_EQ(origin("loaded").CoordinateAxes, 0u);
}

TEST_F(ProvenanceTest, LaunchExtentsAreUniform) {
  parse("int stride = blockDim.x * gridDim.x; (void)stride;");
  EXPECT_FALSE(origin("stride").isThreadDependent());
}

TEST_F(ProvenanceTest, DependenceFlowsThroughCopiesAndUpdates) {
  parse("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "int j = i + 1; int k = 0; k = j; int t = threadIdx.x; t += 4;\n"
        "(void)k; (void)t;");
  EXPECT_TRUE(origin("j").isThreadDependent());
  EXPECT_TRUE(origin("k").isThreadDependent());
  EXPECT_TRUE(origin("t").isThreadDependent());
  EXPECT_FALSE(origin("t").IsBareCoordinate);
}

TEST_F(ProvenanceTest, LoadedValuesAreNotThreadIndexes) {
  parse("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "int id = in[i]; (void)id;");
  EXPECT_FALSE(origin("id").isThreadDependent());
}

TEST_F(ProvenanceTest, LoopCarriedDependenceReachesAFixpoint) {
  parse("int a = 0; int b = 0;\n"
        "for (int s = 0; s < n; ++s) { a = b; b = threadIdx.x + s; }\n"
        "(void)a;");
  EXPECT_TRUE(origin("a").isThreadDependent());
}

TEST_F(ProvenanceTest, InputsNameBuiltinsAndVariables) {
  parse("int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "int idx = row * n + threadIdx.x; (void)idx;");
  const clang::VarDecl *Idx = findVariable(*Function, "idx");
  ASSERT_TRUE(Idx);
  auto Inputs = Provenance->inputsOf(Idx->getInit());
  ASSERT_EQ(Inputs.size(), 2u);
  EXPECT_EQ(Inputs[0], "row");
  EXPECT_EQ(Inputs[1], "threadIdx.x");
}

} // namespace
