//===--- IndexEvidenceTest.cpp - Tests of IndexEvidence -------------------===//

#include "Analysis/Cuda/IndexEvidence.h"
#include "Analysis/Core/ComparedValues.h"
#include "Analysis/Cuda/KernelLaunches.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::cuda;
using namespace gpuguard::test;

namespace {

using Kind = IndexEvidenceKind;

/// An access the guard analysis leaves unguarded, with the evidence the
/// check would report it on: the first of its problems that has some.
struct Judged {
  unsigned Line;
  Kind Evidence;
  bool operator==(const Judged &Other) const {
    return Line == Other.Line && Evidence == Other.Evidence;
  }
};

void PrintTo(const Judged &J, std::ostream *OS) {
  *OS << "{line " << J.Line << ", kind " << static_cast<int>(J.Evidence) << "}";
}

/// Parses `__global__ void kernel(float *out, const float *in, int n)` with
/// \p Body, followed by \p Host, and judges each unguarded access of
/// `kernel`, lines numbered from the first line of \p Body.
std::vector<Judged> judge(const std::string &Body,
                          const std::string &Host = "") {
  auto Unit = parseCuda(
      std::string(DeviceAllocationDeclarations) +
      "__device__ void addTo(float *p, float v);\n"
      "__global__ void kernel(float *out, const float *in, int n) {\n" +
      Body + "\n}\n" + Host + "\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Kernel = findFunction(Context, "kernel");
  ThreadIndexProvenance Provenance(*Kernel, Context);
  ComparedValues Compared(*Kernel, Context);
  KernelLaunches Launches(Context);
  IndexEvidenceContext Where(*Kernel, Context, Compared, Provenance, Launches);
  std::vector<Judged> Result;
  for (const UnguardedAccess &Access :
       findUnguardedAccesses(*Kernel, Context, Provenance, {})) {
    Kind Found = Kind::None;
    for (const IndexProblem &Problem : Access.Problems)
      if (IndexEvidence Evidence = evidenceFor(Access, Problem, Where)) {
        Found = Evidence.Kind;
        break;
      }
    Result.push_back(
        {lineInBody(*Kernel, Access.Access.Access->getBeginLoc()), Found});
  }
  return Result;
}

using Judgements = std::vector<Judged>;
const char *GlobalIndex = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n";

TEST(IndexEvidenceTest, GuardThatLetsTheBoundThrough) {
  // `i > n` exits too late: `i == n` passes, and `n` is a size.
  EXPECT_EQ(judge(std::string(GlobalIndex) + "if (i > n) return;\nout[i] = 0;"),
            Judgements({{3, Kind::WeakGuard}}));
  // Inclusive against a position the function moves is "up to and
  // including": not evidence.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "for (int last = 0; last < 4; ++last)\n"
                  "  if (i <= last) out[i] = 0;"),
            Judgements({{3, Kind::None}}));
}

TEST(IndexEvidenceTest, AnAddressKeptInAPointerMayBeOnePastTheEnd) {
  // Forming `&in[n]` is valid C++; what reads through it is judged there.
  EXPECT_EQ(judge(std::string(GlobalIndex) + "if (i > n) return;\n"
                                             "const float *p = &in[i];\n"
                                             "const float *q;\nq = &in[i];"),
            Judgements({{3, Kind::None}, {5, Kind::None}}));
  // Handed to a call, the address is written through.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i > n) return;\naddTo(&out[i], 1.0f);"),
            Judgements({{3, Kind::WeakGuard}}));
}

TEST(IndexEvidenceTest, NeighbourBelowTheFirstThread) {
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i >= n) return;\nout[i] = in[i - 1];"),
            Judgements({{3, Kind::ThreadZero}}));
  // Every launch passes the input one element in: `in[-1]` is allocated.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                      "if (i >= n) return;\nout[i] = in[i - 1];",
                  "void host(float *o, float *d, int n) {\n"
                  "  kernel<<<(n + 127) / 128, 128>>>(o, d + 1, n);\n}"),
            Judgements({{3, Kind::None}}));
}

TEST(IndexEvidenceTest, GridRoundedUpPastTheData) {
  const char *Unguarded = "out[i] = in[i];";
  EXPECT_EQ(
      judge(std::string(GlobalIndex) + Unguarded,
            "void host(float *o, float *d, int n) {\n"
            "  kernel<<<(n + 255) / 256, 256>>>(o, d, n);\n}"),
      Judgements({{2, Kind::RoundedUpLaunch}, {2, Kind::RoundedUpLaunch}}));
  // A grid of exactly the data, and no launch in view: unproven.
  EXPECT_EQ(judge(std::string(GlobalIndex) + Unguarded,
                  "void host(float *o, float *d, int n) {\n"
                  "  kernel<<<n / 256, 256>>>(o, d, n);\n}"),
            Judgements({{2, Kind::None}, {2, Kind::None}}));
  EXPECT_EQ(judge(std::string(GlobalIndex) + Unguarded),
            Judgements({{2, Kind::None}, {2, Kind::None}}));
}

TEST(IndexEvidenceTest, ComparedOnAnotherPath) {
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i < n) out[i] = 1;\nout[i + 0] = in[0];"),
            Judgements({{3, Kind::BoundedElsewhere}}));
  // A test of the lower end, and room left for a neighbour, say nothing
  // of the upper end.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i >= 1) out[i] = in[i - 1];\nout[i] = 0;"),
            Judgements({{2, Kind::None}, {2, Kind::None}, {3, Kind::None}}));
}

TEST(IndexEvidenceTest, PaddedRowsAreJudgedByTheAllocation) {
  const char *HaloRows = "if (i < n) out[(i + 1) * (n + 2)] = in[i];";
  // Without the buffer in view the halo layout is trusted.
  EXPECT_EQ(judge(std::string(GlobalIndex) + HaloRows),
            Judgements({{2, Kind::None}}));
  EXPECT_EQ(judge(std::string(GlobalIndex) + HaloRows,
                  "void host(float *d, int n) {\n"
                  "  float *o; cudaMalloc((void **)&o, (n + 2) * (n + 2) * "
                  "sizeof(float));\n"
                  "  kernel<<<(n + 127) / 128, 128>>>(o, d, n);\n}"),
            Judgements({{2, Kind::None}}));
  // A buffer with no halo rows: the last guarded row is past it.
  EXPECT_EQ(judge(std::string(GlobalIndex) + HaloRows,
                  "void host(float *d, int n) {\n"
                  "  float *o; cudaMalloc((void **)&o, n * (n + 2) * "
                  "sizeof(float));\n"
                  "  kernel<<<(n + 127) / 128, 128>>>(o, d, n);\n}"),
            Judgements({{2, Kind::PastAllocation}}));
  // Three rows down is past a halo of one on each side.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i < n) out[(i + 3) * (n + 2)] = in[i];"),
            Judgements({{2, Kind::WeakGuard}}));
}

TEST(IndexEvidenceTest, BlockExtentFixedByTheLaunches) {
  // `ix + blockDim.x < n` keeps `ix + 16` below `n` when every block in
  // view is at least 16 threads across.
  const char *Unrolled =
      "unsigned ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;\n"
      "if (ix + blockDim.x < n) out[ix + 16] = in[ix];";
  auto Launched = [](const std::string &Block) {
    return "void host(float *o, float *d, int n) {\n"
           "  kernel<<<(n + 31) / 32, " +
           Block + ">>>(o, d, n);\n}";
  };
  EXPECT_EQ(judge(Unrolled, Launched("16")), Judgements({{2, Kind::None}}));
  EXPECT_EQ(judge(Unrolled, Launched("dim3(32, 2)")),
            Judgements({{2, Kind::None}}));
  EXPECT_EQ(judge(Unrolled, Launched("8")), Judgements({{2, Kind::WeakGuard}}));
  EXPECT_EQ(judge(Unrolled, Launched("n")), Judgements({{2, Kind::WeakGuard}}));
  EXPECT_EQ(judge(Unrolled), Judgements({{2, Kind::WeakGuard}}));
  // `<=` leaves one less; a block extent along another axis says nothing.
  EXPECT_EQ(judge("unsigned ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "if (ix + blockDim.x <= n) out[ix + 16] = in[ix];",
                  Launched("16")),
            Judgements({{2, Kind::WeakGuard}}));
  EXPECT_EQ(judge("unsigned ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "if (ix + blockDim.y < n) out[ix + 16] = in[ix];",
                  Launched("dim3(16, 2)")),
            Judgements({{2, Kind::WeakGuard}}));
}

TEST(IndexEvidenceTest, TreeReductionStepAndLaunchExtents) {
  // `t + s` under `t < s` stays below twice the bound.
  EXPECT_EQ(judge("int t = threadIdx.x;\n"
                  "for (int s = n / 2; s > 0; s >>= 1)\n"
                  "  if (t < s) out[t] += out[t + s];"),
            Judgements({{3, Kind::None}}));
  // `i + blockDim.x` under `i < n` is past the data for the last block,
  // unless the guard bounds the sum in a shape of its own.
  EXPECT_EQ(judge(std::string(GlobalIndex) +
                  "if (i < n) out[i] = in[i + blockDim.x];"),
            Judgements({{2, Kind::WeakGuard}}));
}

} // namespace
