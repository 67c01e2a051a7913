//===--- ExprShape.h - What an expression is made of ------------*- C++ -*-===//
///
/// \file
/// Small structural questions every analysis asks of an expression: what it
/// is once value-preserving casts are gone, which constant it is, which local
/// variables it reads, and which terms it sums. Keeping one answer to each
/// keeps the analyses agreeing on what counts as "the same value".
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_CORE_EXPRSHAPE_H
#define GPUGUARD_ANALYSIS_CORE_EXPRSHAPE_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace clang {
class ASTContext;
class ForStmt;
class VarDecl;
} // namespace clang

namespace gpuguard {

/// Strips parentheses, implicit casts and value-preserving explicit integral
/// and boolean casts, which change nothing about what bounds an index. A
/// float-to-integer conversion is kept: it is where NaN becomes an index.
const clang::Expr *stripIndexCasts(const clang::Expr *E);

/// The value of \p E when it is an integer constant expression that fits in
/// 63 bits; std::nullopt for anything else, dependent expressions included.
std::optional<int64_t> integerConstant(const clang::Expr *E,
                                       const clang::ASTContext &Context);

/// The variable with local storage (a local or a parameter) that \p E names
/// directly, or null.
const clang::VarDecl *asLocalVariable(const clang::Expr *E);

/// The variable with local storage whose address \p E takes (`&v`, through
/// parentheses and casts: `(void **)&v`), or null.
const clang::VarDecl *addressedLocalVariable(const clang::Expr *E);

/// Which variables collectReadVariables() reports.
enum class ReadScope {
  /// Locals and parameters: what a function's own assignments can change.
  Locals,
  /// Every variable, globals and statics included.
  AllVariables,
};

/// Appends to \p Out, once each and in the order first read, the variables
/// that \p E or its sub-expressions name.
void collectReadVariables(const clang::Expr *E,
                          llvm::SmallVectorImpl<const clang::VarDecl *> &Out,
                          ReadScope Scope = ReadScope::Locals);

/// Flattens `a + b - c + 4` into its non-constant terms (in order, casts
/// stripped) and adds its constants to \p Constant; a subtracted term that
/// is not a constant stays whole, as one term.
void flattenSum(const clang::Expr *E, const clang::ASTContext &Context,
                llvm::SmallVectorImpl<const clang::Expr *> &Terms,
                int64_t &Constant);

/// The operands of a chain of \p Op, left to right, parentheses and
/// implicit casts stripped: `a`, `b`, `c` of `a && (b && c)`.
void flattenChain(const clang::Expr *E, clang::BinaryOperatorKind Op,
                  llvm::SmallVectorImpl<const clang::Expr *> &Out);

/// The condition \p S branches or loops on: of an `if`, `while`, `do`,
/// `for` or `?:`; null for any other statement.
const clang::Expr *conditionOf(const clang::Stmt *S);

/// Adds to \p Out the local variables that \p Body may change after their
/// declaration: assigned or incremented (loop counters, accumulators,
/// reassigned copies, a class through its `operator=`), assigned through a
/// member (`block.x = n`), or whose
/// address is taken. A value is followed through a local's initialiser only
/// when the local is not among them.
void collectAssignedVariables(
    const clang::Stmt *Body,
    llvm::SmallPtrSetImpl<const clang::VarDecl *> &Out);

/// What a body writes into the variables it names directly (locals,
/// parameters and globals alike).
struct VariableWrites {
  /// The value of each plain assignment `v = e`, in source order.
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::Expr *, 1>>
      Assigned;
  /// The right operand of each compound assignment `v += e`, in source
  /// order.
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::Expr *, 1>>
      Combined;
  /// The variables changed other than by a plain assignment: by a compound
  /// assignment, `++` or `--`, or through their address.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> ChangedOtherwise;
};

/// The writes of \p Body (see VariableWrites).
VariableWrites collectVariableWrites(const clang::Stmt *Body);

/// The initialiser of the local variable \p E names, when \p MayChange (see
/// collectAssignedVariables()) does not hold it: the value the local has
/// wherever it is read. Null for parameters (what they hold comes from the
/// call, not from a default argument), references, and locals declared
/// without an initialiser.
const clang::Expr *unchangedInitializer(
    const clang::Expr *E,
    const llvm::SmallPtrSetImpl<const clang::VarDecl *> &MayChange);

/// Adds to \p Out each variable declared alone in the init of a `for` loop
/// in \p Body, with its loop: the counters whose range the loop decides.
void collectLoopCounters(
    const clang::Stmt *Body,
    llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> &Out);

/// A comparison or logical operation as written: a built-in operator, or,
/// in a template, a call of the overloadable operator that clang keeps
/// unresolved until instantiation (`c < x.size(1)` with the type of `x`
/// dependent, where some `operator<` is in scope).
struct BinaryOperation {
  clang::BinaryOperatorKind Opcode;
  const clang::Expr *LHS;
  const clang::Expr *RHS;
};

/// \p E (parentheses stripped) as a BinaryOperation, when it is one of
/// `<`, `<=`, `>`, `>=`, `==`, `!=`, `&&` and `||`.
std::optional<BinaryOperation> asBinaryOperation(const clang::Expr *E);

/// `p + i`, `i + p`, or with \p AddressOfElement `&p[i]`, through
/// parentheses and casts between pointer types: the pointer and the index
/// it adds.
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
splitPointerSum(const clang::Expr *E, bool AddressOfElement = false);

/// Whether \p A and \p B are the same expression once value-preserving casts
/// are stripped: the same variables, members, constants and operators.
bool isSameValue(const clang::Expr *A, const clang::Expr *B,
                 const clang::ASTContext &Context);

/// Whether \p Part is a fixed fraction below one of \p Whole, truncated or
/// not: `Whole / k` with a constant k of at least 2, `c * Whole` with a
/// constant c in [0, 1) (`(int)(0.8f * n)`), `Whole * a / b` with constants
/// 0 <= a < b. Such a part equals its whole only where the whole is zero,
/// so `n - n / 2` is zero exactly where `n` is. With \p MayChange (see
/// collectAssignedVariables()), a local that is not in it stands for its
/// initialiser: `int half = n / 2; ... n - half`.
bool isFractionOf(
    const clang::Expr *Part, const clang::Expr *Whole,
    const clang::ASTContext &Context,
    const llvm::SmallPtrSetImpl<const clang::VarDecl *> *MayChange = nullptr);

/// Whether the integer difference \p Minus (`a - b`) is zero whenever its
/// two sides meet for values of no special kind: neither side is a constant
/// (`n - 1` is zero at one value only) and neither is a fraction of the
/// other (`n - n / 2` is zero only where `n` is). \p MayChange is as for
/// isFractionOf().
bool differenceCanMeet(
    const clang::BinaryOperator &Minus, const clang::ASTContext &Context,
    const llvm::SmallPtrSetImpl<const clang::VarDecl *> *MayChange = nullptr);

/// When \p E is a triangular number, `L * (L - 1) / 2` in any spelling
/// (`r * (r + 1) / 2` with L = r + 1, `r * (r - 1) / 2` with L = r, `>> 1`
/// for `/ 2`), the larger factor L, else null. \p E then counts the elements
/// of the first L - 1 rows of a packed triangle, which is where row L - 1
/// starts: with a column at most L - 1 it stays below the n(n+1)/2 elements
/// of n rows while L <= n, and it is never negative.
const clang::Expr *packedTriangleRowCount(const clang::Expr *E,
                                          const clang::ASTContext &Context);

/// How much \p S changes the local \p Var by a constant: 1 for `++v` and
/// `v++`, -1 for `--v`, c for `v += c`, -c for `v -= c`; std::nullopt for
/// any other statement.
std::optional<int64_t> constantStep(const clang::Stmt *S,
                                    const clang::VarDecl *Var,
                                    const clang::ASTContext &Context);

/// A `for` loop over one counter, `for (int i = Start; i Test Bound; Step)`
/// or with `i = Start` as its init: the test is read with the counter on
/// the left (`n > i` is `i < n`).
struct CountedLoop {
  const clang::VarDecl *Counter = nullptr;
  const clang::Expr *Start = nullptr;
  clang::BinaryOperatorKind Test = clang::BO_LT;
  const clang::Expr *Bound = nullptr;
  /// The loop's increment as a constant step (constantStep()), if it is one.
  std::optional<int64_t> Step;
};

/// The counted-loop shape of \p Loop, if its init sets one local whose
/// comparison is the loop's condition.
std::optional<CountedLoop> countedLoop(const clang::ForStmt &Loop,
                                       const clang::ASTContext &Context);

/// Whether the body of \p Loop runs at least once: its counter starts at a
/// constant that passes the loop's test against a constant, as in `for (int
/// i = 0; i < 2000; ++i)` with the bound a macro or a `constexpr`.
bool entersAtLeastOnce(const clang::ForStmt &Loop,
                       const clang::ASTContext &Context);

/// Whether \p Loop visits only whole tiles of width \p Width: its counter
/// starts at a constant of at least 0, steps by 1 and stays below `K /
/// Width`, a quotient rounded down, so every tile `counter * Width` it
/// visits ends by K. `(K + Width - 1) / Width` rounds up: its last tile
/// may end past K.
bool visitsWholeTilesOnly(const clang::ForStmt &Loop, const clang::Expr &Width,
                          const clang::ASTContext &Context);

} // namespace gpuguard

#endif // GPUGUARD_ANALYSIS_CORE_EXPRSHAPE_H
