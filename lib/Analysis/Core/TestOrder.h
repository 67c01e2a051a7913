//===--- TestOrder.h - Reads that come before their own test ----*- C++ -*-===//
///
/// \file
/// `while (cols[it] < w && it < end) ++it;` reads `cols[it]` before the
/// test that keeps `it` in range: `&&` and `||` evaluate their operands in
/// order, so when `it` reaches `end` the read is one past it. The author's
/// own test is the evidence that the index can leave its range; the usual
/// fix is to swap the operands. This finds such pairs in a function body.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_TESTORDER_H
#define GPUGUARD_ANALYSIS_CORE_TESTORDER_H

#include "clang/AST/Expr.h"
#include <vector>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace gpuguard {

struct ReadBeforeTest {
  /// The read, `cols[it]`, inside an operand of Chain.
  const clang::ArraySubscriptExpr *Read = nullptr;
  /// The comparison that bounds the read's index from above on the path
  /// that continues, `it < end`: a later operand of Chain.
  const clang::BinaryOperator *Test = nullptr;
  /// The `&&` or `||` whose left operand holds Read and whose right operand
  /// is, or starts a chain of the same operator with, Test.
  const clang::BinaryOperator *Chain = nullptr;
};

/// The reads of \p Body whose index a later operand of the same `&&` (`i <
/// n`) or `||` (`i >= n`) chain compares with an upper bound, when nothing
/// before the read in that chain tests the index. `i != end` (`i == end`
/// under `||`) counts only as the test of a loop that increments `i`: `v !=
/// src` is no bound. Reads in nested lambdas are not looked at.
std::vector<ReadBeforeTest>
findReadsBeforeTheirTest(const clang::Stmt &Body,
                         const clang::ASTContext &Context);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_TESTORDER_H
