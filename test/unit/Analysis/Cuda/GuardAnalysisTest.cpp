//===--- GuardAnalysisTest.cpp --------------------------------------------===//

#include "Analysis/Cuda/GuardAnalysis.h"
#include "Analysis/Core/SourceText.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;

namespace {

/// Source lines of the unguarded accesses in `kernel`, numbered from the
/// first line of \p Body.
std::vector<unsigned> unguardedLines(const std::string &Body,
                                     GuardAnalysisOptions Options = {}) {
  std::string Code = "__global__ void kernel(float *out, const float *in, "
                     "int n, int m) {\n";
  auto Unit = parseCuda(Code + Body + "\n}\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  if (!Function)
    return {};
  ThreadIndexProvenance Provenance(*Function, Context);
  std::vector<unsigned> Lines;
  for (const UnguardedAccess &Finding :
       findUnguardedAccesses(*Function, Context, Provenance, Options))
    Lines.push_back(
        lineInBody(*Function, Finding.Access.Access->getBeginLoc()));
  return Lines;
}

using Lines = std::vector<unsigned>;
const char *GlobalIndex = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n";

TEST(GuardAnalysisTest, UnguardedGlobalIndex) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "out[i] = in[i];"),
            Lines({2, 2}));
}

TEST(GuardAnalysisTest, GuardOnASumBoundsItsTerms) {
  // Beside terms never negative (a launch extent, an unsigned offset),
  // less what they add at least; a signed offset may be negative.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "unsigned off = m;\n"
                           "if (i + blockDim.x < n) out[i + 1] = 1;\n"
                           "if (i + blockDim.x - 1 < n) out[i] = 2;\n"
                           "if (i + off < n) out[i] = 3;\n"
                           "if (i + m < n) out[i] = 4;\n"
                           "if (i + blockDim.x - 2 < n) out[i] = 5;"),
            Lines({6, 7}));
}

TEST(GuardAnalysisTest, WindowLeftAfterItsStart) {
  // `w = end - start`: a loop up to it keeps `start + k` below `end`.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "if (i >= n) return;\n"
                           "int s = min(i, n);\n"
                           "int w = min(i + 4, n) - s;\n"
                           "for (int k = 0; k < w; ++k) out[s + k] = 1;\n"
                           "int v = min(i + 4, n);\n"
                           "for (int k = 0; k < v; ++k) out[s + k] = 2;"),
            Lines({7}));
}

TEST(GuardAnalysisTest, IfGuard) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "if (i < n) out[i] = 1;\n"
                                                      "out[i] = 2;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, GuardOnOnePathOnly) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "if (m > 0) { if (i >= n) return; }\n"
                           "out[i] = 1;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, EarlyReturn) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "if (i >= n) return;\n"
                                                      "out[i] = in[i];"),
            Lines());
}

TEST(GuardAnalysisTest, NegatedAndReversedComparisons) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "if (!(i < n)) return;\n"
                                                      "out[i] = 1;\n"
                                                      "if (n > i) out[i] = 2;"),
            Lines());
}

TEST(GuardAnalysisTest, ConjunctionBoundsEachDimension) {
  EXPECT_EQ(unguardedLines("int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                           "int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "if (r < n && c < m) out[r * m + c] = 1;\n"
                           "if (r < n) out[r * m + c] = 2;"),
            Lines({4}));
}

TEST(GuardAnalysisTest, DisjunctionOnTheFalseEdge) {
  EXPECT_EQ(unguardedLines("int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                           "int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "if (r >= n || c >= m) return;\n"
                           "out[r * m + c] = 1;"),
            Lines());
}

TEST(GuardAnalysisTest, GridStrideLoop) {
  EXPECT_EQ(unguardedLines("for (int i = blockIdx.x * blockDim.x + "
                           "threadIdx.x; i < n;\n"
                           "     i += blockDim.x * gridDim.x)\n"
                           "  out[i] = in[i];"),
            Lines());
}

TEST(GuardAnalysisTest, ReassignmentEndsTheGuard) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "if (i < n) { i += 1; out[i] = 1; }"),
            Lines({2}));
}

TEST(GuardAnalysisTest, Ternary) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "float v = i < n ? in[i] : 0.0f;\n"
                           "float w = i < n ? 0.0f : in[i];\n"
                           "(void)v; (void)w;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, AssertIsAGuard) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "assert(i < n);\n"
                                                      "out[i] = 1;"),
            Lines());
}

TEST(GuardAnalysisTest, ClampsBound) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "int j = min(i, n - 1);\n"
                           "out[j] = 1; out[i % n] = 2;"),
            Lines());
}

// A variable assigned more than once is as bounded as the value it holds
// at the access, while nothing that value reads changes.
TEST(GuardAnalysisTest, ReassignedVariablesHoldTheirLatestValue) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "int x, pos;\n"
                           "x = min(i, n - 1);\n"
                           "pos = x * 2;\n"
                           "out[pos] = 1;\n"
                           "x = i;\n"
                           "out[pos] = 2;\n"
                           "pos = x;\n"
                           "out[pos] = 3;\n"
                           "if (i < m) pos = min(i, n - 1);\n"
                           "out[pos] = 4;"),
            Lines({7, 9, 11}));
}

TEST(GuardAnalysisTest, FlagsCarryGuards) {
  // Set under the guard, cleared where it fails, assigned the guard itself.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "bool ok = false;\n"
                           "if (i < n) ok = true;\n"
                           "if (ok) out[i] = 1;\n"
                           "bool on = true;\n"
                           "if (i >= n) on = false;\n"
                           "if (!on) return;\n"
                           "out[i] = 2;"),
            Lines());
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "bool ok = false;\n"
                                                      "if (m > 0) ok = i < n;\n"
                                                      "if (ok) out[i] = 1;"),
            Lines());
  // True on a path without the guard, moved index, address taken.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "bool ok = true;\n"
                                                      "if (m > 0) ok = i < n;\n"
                                                      "if (ok) out[i] = 1;"),
            Lines({4}));
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "bool ok = false;\n"
                                                      "if (i < n) ok = true;\n"
                                                      "i += m;\n"
                                                      "if (ok) out[i] = 1;"),
            Lines({5}));
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "bool ok = false;\n"
                                                      "if (i < n) ok = true;\n"
                                                      "bool *set = &ok;\n"
                                                      "*set = m > 0;\n"
                                                      "if (ok) out[i] = 1;"),
            Lines({6}));
}

TEST(GuardAnalysisTest, ElseIfChainsExcludeCombinations) {
  const char *Tile = "__shared__ float tile[16][16];\n"
                     "int tx = threadIdx.x, ty = threadIdx.y;\n";
  // Past `ty == 0 && tx == 0`, `ty == 0` (or `ty == 15` past the other
  // corner) leaves tx != 0.
  EXPECT_EQ(unguardedLines(std::string(Tile) +
                           "if (ty == 0 && tx == 0) out[0] = 1;\n"
                           "else if (15 == ty && tx == 0) out[0] = 2;\n"
                           "else if (ty == 0) out[0] = tile[ty][tx - 1];\n"
                           "else if (ty == 15) out[0] = tile[ty][tx - 1];"),
            Lines());
  // Only the corner that was excluded.
  EXPECT_EQ(unguardedLines(std::string(Tile) +
                           "if (ty == 0 && tx == 0) out[0] = 1;\n"
                           "else if (ty == 15) out[0] = tile[ty][tx - 1];\n"
                           "if (ty == 0 && tx < 4) out[0] = 1;\n"
                           "else if (ty == 0) out[0] = tile[ty][tx - 1];"),
            Lines({4, 6}));
  // A variable that changes in between is no longer excluded.
  EXPECT_EQ(unguardedLines(std::string(Tile) +
                           "int c = tx;\n"
                           "if (ty == 0 && c == 0) return;\n"
                           "c = ty;\n"
                           "if (ty == 0) out[0] = tile[ty][c - 1];"),
            Lines({6}));
}

TEST(GuardAnalysisTest, WholeExpressionGuard) {
  EXPECT_EQ(unguardedLines("if (blockIdx.x * blockDim.x + threadIdx.x < n)\n"
                           "  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
                           "out[blockIdx.x * blockDim.x + threadIdx.x] = 2;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, LaunchCoordinatesAndBlockStorage) {
  const char *Body = "__shared__ float tile[256];\n"
                     "int t = threadIdx.x;\n"
                     "tile[t] = in[blockIdx.x];\n"
                     "tile[t + 1] = 0;\n"
                     "out[t + 1] = tile[t];";
  // Bare coordinates and block-local indexes into shared memory are sized by
  // the launch; a block-local index into global memory still needs a guard.
  EXPECT_EQ(unguardedLines(Body), Lines({5}));
  GuardAnalysisOptions Strict;
  Strict.TrustBlockSizedStorage = false;
  EXPECT_EQ(unguardedLines(Body, Strict), Lines({4, 5}));
}

TEST(GuardAnalysisTest, LoopGuardDoesNotOutliveTheLoop) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "while (i < n) { out[i] = 1; i += 32; }\n"
                           "out[i] = 2;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, PointerArithmeticDereference) {
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "*(out + i) = 1;\n"
                           "if (i < n) *(out + i) = 2;"),
            Lines({2}));
}

/// The name the first problem's bound refers to, "<none>" without a bound.
std::string firstProblemBound(const std::string &Body) {
  auto Unit = parseCuda("__global__ void kernel(float *out, int n, int m) {\n" +
                        Body + "\n}\n");
  if (!Unit)
    return "";
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  ThreadIndexProvenance Provenance(*Function, Context);
  std::vector<UnguardedAccess> Findings =
      findUnguardedAccesses(*Function, Context, Provenance, {});
  if (Findings.empty() || Findings.front().Problems.empty())
    return "";
  const IndexProblem &Problem = Findings.front().Problems.front();
  if (!Problem.Bound)
    return "<none>";
  const auto *Ref =
      llvm::dyn_cast<clang::DeclRefExpr>(Problem.Bound->IgnoreParenImpCasts());
  return Ref ? Ref->getDecl()->getNameAsString() : "<expr>";
}

/// Whether the first problem of the first unguarded access of `kernel` is
/// a row within the padding of a halo layout.
bool firstProblemWithinPaddedRows(const std::string &Body) {
  auto Unit = parseCuda("__global__ void kernel(float *out, int n, int m) {\n" +
                        Body + "\n}\n");
  if (!Unit)
    return false;
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  ThreadIndexProvenance Provenance(*Function, Context);
  std::vector<UnguardedAccess> Findings =
      findUnguardedAccesses(*Function, Context, Provenance, {});
  EXPECT_FALSE(Findings.empty());
  if (Findings.empty() || Findings.front().Problems.empty())
    return false;
  const IndexProblem &Problem = Findings.front().Problems.front();
  EXPECT_EQ(Problem.Kind, IndexProblemKind::OffsetNotCovered);
  return Problem.WithinPaddedRows;
}

TEST(GuardAnalysisTest, RowsWithinAPaddedLayout) {
  // `w + 2` columns leave a halo column on each side and imply a halo row
  // above and below: rows `i + 1` and `i + 2` are the buffer's.
  EXPECT_TRUE(firstProblemWithinPaddedRows(
      std::string(GlobalIndex) + "if (i < n) out[(i + 1) * (m + 2)] = 0;"));
  EXPECT_TRUE(firstProblemWithinPaddedRows(
      std::string(GlobalIndex) +
      "int w = m + 2;\nif (i < n) out[(i + 2) * w + 1] = 0;"));
  EXPECT_TRUE(firstProblemWithinPaddedRows(
      std::string(GlobalIndex) + "if (i < n) out[(1 + i) * (2 + m)] = 0;"));
  // Past the padding, and no padding at all.
  EXPECT_FALSE(firstProblemWithinPaddedRows(
      std::string(GlobalIndex) + "if (i < n) out[(i + 3) * (m + 2)] = 0;"));
  EXPECT_FALSE(firstProblemWithinPaddedRows(
      std::string(GlobalIndex) + "if (i < n) out[(i + 1) * m] = 0;"));
}

TEST(GuardAnalysisTest, OffsetsAndLaunchExtents) {
  // The offset written into a guard against a constant covers it.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "if (i + 1 < 512) out[i] = in[i + 1];\n"
                           "if (i + 1 < 512) out[i] = in[i + 2];"),
            Lines({3}));
  // Each launch extent is at least 1; a width passed in may be 0.
  EXPECT_EQ(unguardedLines("int t = threadIdx.x;\n"
                           "out[t] = in[t + blockDim.x - 1];\n"
                           "out[t] += in[t + 2 * blockDim.x - 2];\n"
                           "out[t] += in[t + blockDim.x - 2];\n"
                           "out[t] += in[t + n - 1];"),
            Lines({4, 5}));
}

TEST(GuardAnalysisTest, IntegerFlagsDivisionInPlaceAndLeastValues) {
  // A guard kept in an integer flag, as C writes it.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) +
                           "int valid = i >= 0 && i < n;\n"
                           "if (valid) out[i] = 1;\n"
                           "int many = i + n;\n"
                           "if (many) out[i] = 2;"),
            Lines({5}));
  // Dividing in place keeps the upper bound; adding does not.
  EXPECT_EQ(unguardedLines(std::string(GlobalIndex) + "if (i >= n) return;\n"
                                                      "i /= m;\n"
                                                      "out[i] = 1;\n"
                                                      "i += m;\n"
                                                      "out[i] = 2;"),
            Lines({6}));
  // A coordinate plus 4 is at least 4.
  EXPECT_EQ(unguardedLines("int t = threadIdx.y + 4, u = threadIdx.y + 2;\n"
                           "if (t < 8) out[t - 4] = 1;\n"
                           "if (u < 8) out[u - 4] = 1;"),
            Lines({3}));
}

TEST(GuardAnalysisTest, ProblemNamesTheBoundItsGuardComparesWith) {
  // `i > n` lets i == n through; the bound is the side compared with i,
  // whichever side that is.
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) + "if (i > n) return;\n"
                                                         "out[i] = 1;"),
            "n");
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) + "if (m < i) return;\n"
                                                         "out[i] = 1;"),
            "m");
  // `i + 1` under `i < n`: the guard bounds i, by n.
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) +
                              "if (i < n) out[i + 1] = 1;"),
            "n");
  // A guard kept in a local is read through it.
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) +
                              "bool inside = i <= n;\n"
                              "if (inside) out[i] = 1;"),
            "n");
  // A constant bound from another guard on one path is not the bound of a
  // runtime guard that holds on every path.
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) + "if (i > n) return;\n"
                                                         "float s = 0;\n"
                                                         "if (i > 0) s = 1;\n"
                                                         "out[i] = s;"),
            "n");
  // A guard that compares something else than the index names no bound.
  EXPECT_EQ(firstProblemBound(std::string(GlobalIndex) +
                              "if (i + 1 > n + 1) return;\n"
                              "out[i] = 1;"),
            "<none>");
}

/// The row width (or the constant) and the coordinates of each problem of
/// an index below zero at the first thread, as "width: a b" lines.
std::vector<std::string> rowsAbove(const std::string &Body) {
  auto Unit = parseCuda("__global__ void kernel(float *out, const float *in, "
                        "int w, int h) {\n"
                        "int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                        "int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "if (row >= h || col >= w) return;\n" +
                        Body + "\n}\n");
  if (!Unit)
    return {};
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *Function = findFunction(Context, "kernel");
  ThreadIndexProvenance Provenance(*Function, Context);
  std::vector<std::string> Rows;
  for (const UnguardedAccess &Finding :
       findUnguardedAccesses(*Function, Context, Provenance, {}))
    for (const IndexProblem &Problem : Finding.Problems) {
      if (Problem.OriginCoordinates.empty())
        continue;
      std::string Row =
          (Problem.RowWidth ? quoteSource(Problem.RowWidth, Context)
                            : std::to_string(Problem.Offset)) +
          ":";
      for (const clang::Expr *Coordinate : Problem.OriginCoordinates)
        Row += " " + quoteSource(Coordinate, Context);
      Rows.push_back(Row);
    }
  return Rows;
}

TEST(GuardAnalysisTest, RowAboveTheFirstRow) {
  using Rows = std::vector<std::string>;
  EXPECT_EQ(rowsAbove("out[0] = in[row * w + col - w];"), Rows({"w: row"}));
  EXPECT_EQ(rowsAbove("out[0] = in[blockIdx.y * w * 16 + threadIdx.y * w + "
                      "threadIdx.x - w];"),
            Rows({"w: blockIdx.y threadIdx.y"}));
  // A guard on the row, on what it is computed from, or past a return.
  EXPECT_EQ(rowsAbove("if (row > 0) out[0] = in[row * w + col - w];\n"
                      "if (threadIdx.y >= 1) out[0] = in[row * w + col - w];\n"
                      "if (row == 0) return;\n"
                      "out[0] = in[row * w + col - w];"),
            Rows());
  // A constant below zero at the first thread, unless a guard keeps one
  // of the coordinates above 0.
  EXPECT_EQ(rowsAbove("out[0] = in[blockIdx.y * w * 16 + threadIdx.y * w + "
                      "16 * blockIdx.x - 1];\n"
                      "if (col > 0) out[0] = in[row * w + col - 1];\n"
                      "out[0] = in[(row + 1) * w + col - 1];"),
            Rows({"-1: blockIdx.y threadIdx.y blockIdx.x"}));
  // Not one row up from a row that can be the first: a halo offset, a
  // width that scales no coordinate, another width, a loaded row.
  EXPECT_EQ(rowsAbove("out[0] = in[(row + 1) * w + col - w];\n"
                      "out[0] = in[row * w + col - h];\n"
                      "out[0] = in[row * h + col - w];\n"
                      "int r = (int)in[col];\n"
                      "out[0] = in[r * w + col - w];"),
            Rows());
}

/// What `<Guard>` in `bool b = <Guard>; int j = i;` states of `i` from
/// above, as "Limit + Offset" with the limit's source text.
std::optional<std::pair<std::string, int64_t>>
upperLimitText(const std::string &Guard) {
  auto Unit = parseCuda("void f(int i, int n, int last) { bool b = " + Guard +
                        "; int j = i; }\n");
  if (!Unit)
    return std::nullopt;
  clang::ASTContext &Context = Unit->getASTContext();
  const clang::FunctionDecl *F = findFunction(Context, "f");
  auto Initializer = [&](unsigned Statement) {
    const auto *Decl = llvm::cast<clang::DeclStmt>(
        llvm::cast<clang::CompoundStmt>(F->getBody())->body_begin()[Statement]);
    return llvm::cast<clang::VarDecl>(Decl->getSingleDecl())->getInit();
  };
  std::optional<UpperLimit> Limit =
      upperLimitOf(Initializer(0), Initializer(1), Context);
  if (!Limit)
    return std::nullopt;
  return std::pair(quoteSource(Limit->Limit, Context), Limit->Offset);
}

TEST(GuardAnalysisTest, UpperLimitsOfComparisons) {
  using Limit = std::optional<std::pair<std::string, int64_t>>;
  // Where each holds as an upper bound: the true edge of `<` and `<=`, the
  // false edge of `>=` and `>`.
  EXPECT_EQ(upperLimitText("i < n"), Limit({"n", 0}));
  EXPECT_EQ(upperLimitText("i >= n"), Limit({"n", 0}));
  EXPECT_EQ(upperLimitText("i <= n"), Limit({"n", 1}));
  EXPECT_EQ(upperLimitText("i > n"), Limit({"n", 1}));
  // The part on the right.
  EXPECT_EQ(upperLimitText("n > i"), Limit({"n", 0}));
  EXPECT_EQ(upperLimitText("last >= i"), Limit({"last", 1}));
  // A constant added to the part moves the limit down.
  EXPECT_EQ(upperLimitText("i + 1 < n"), Limit({"n", -1}));
  EXPECT_EQ(upperLimitText("i - 2 <= n - 1"), Limit({"n - 1", 3}));
  // Not a bound on `i`.
  EXPECT_EQ(upperLimitText("i == n"), Limit());
  EXPECT_EQ(upperLimitText("2 * i < n"), Limit());
  EXPECT_EQ(upperLimitText("last < n"), Limit());
}

} // namespace
