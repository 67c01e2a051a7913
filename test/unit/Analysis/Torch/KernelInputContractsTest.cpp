//===--- KernelInputContractsTest.cpp -------------------------------------===//
//
// Which functions an extension registers with PyTorch, what counts as a
// check of a tensor's device and layout, and how a tensor is followed from
// a launch back to the registered function it comes in through.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Torch/KernelInputContracts.h"
#include "Analysis/Core/CallSites.h"
#include "Analysis/Torch/ExtensionLaunches.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;
using namespace gpuguard::torch;

namespace {

constexpr const char *Declarations = R"(
namespace c10 {
struct Device { bool is_cuda() const; };
namespace cuda {
struct OptionalCUDAGuard { explicit OptionalCUDAGuard(Device); };
} // namespace cuda
} // namespace c10
namespace at {
template <class T, unsigned N> struct PackedTensorAccessor32 {};
class TensorBase {
public:
  template <class T> T *data_ptr() const;
  template <class T, unsigned N> PackedTensorAccessor32<T, N> packed_accessor32() const;
  c10::Device device() const;
  bool is_cuda() const;
  bool is_contiguous() const;
  long stride(long) const;
  long numel() const;
};
class Tensor : public TensorBase { public: Tensor contiguous() const; };
Tensor empty_like(const Tensor &);
} // namespace at
namespace torch {
class Library {
public:
  template <class F> Library &impl(const char *, F &&f) & { return *this; }
};
} // namespace torch
namespace pybind11 {
struct module_ {
  template <class F> module_ &def(const char *, F &&f) { return *this; }
};
} // namespace pybind11
void validate(const at::Tensor &);
__global__ void k(float *p, const float *q);
__global__ void a(at::PackedTensorAccessor32<float, 2> acc);
)";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> Unit;
  std::vector<const clang::CUDAKernelCallExpr *> Launches;

  clang::ASTContext &context() const { return Unit->getASTContext(); }
};

Parsed parse(const std::string &Body) {
  Parsed P;
  P.Unit = parseCuda(std::string(Declarations) + Body);
  if (!P.Unit)
    return P;
  P.Launches = findLaunches(*P.Unit->getASTContext().getTranslationUnitDecl());
  return P;
}

/// The unchecked input of the first tensor argument of launch \p Index.
std::optional<UncheckedKernelInput> gapAt(const Parsed &P, unsigned Index) {
  CallSites Calls(P.context());
  ExtensionBindings Bindings(P.context());
  auto Accessors = tensorMemoryArguments(*P.Launches[Index]);
  if (Accessors.empty())
    return std::nullopt;
  return findUncheckedKernelInput(*Accessors.front(), *P.Launches[Index], Calls,
                                  Bindings, P.context());
}

TEST(KernelInputContractsTest, RegisteredFunctionsAndTheirDispatchKey) {
  Parsed P = parse(
      "at::Tensor bound(at::Tensor t) { return t; }\n"
      "at::Tensor cudaImpl(at::Tensor t) { return t; }\n"
      "at::Tensor unbound(at::Tensor t) { return t; }\n"
      "void pybind11_init_ext(pybind11::module_ &m) { m.def(\"b\", &bound); }\n"
      "void TORCH_LIBRARY_IMPL_init_my_ops_CUDA_0(torch::Library &m) {\n"
      "  m.impl(\"c\", cudaImpl);\n"
      "}\n");
  ASSERT_TRUE(P.Unit);
  ExtensionBindings Bindings(P.context());
  const ExtensionBinding *Bound =
      Bindings.find(*findFunction(P.context(), "bound"));
  ASSERT_NE(Bound, nullptr);
  EXPECT_FALSE(Bound->DispatchedToCuda);
  const ExtensionBinding *Cuda =
      Bindings.find(*findFunction(P.context(), "cudaImpl"));
  ASSERT_NE(Cuda, nullptr);
  EXPECT_TRUE(Cuda->DispatchedToCuda);
  EXPECT_EQ(Bindings.find(*findFunction(P.context(), "unbound")), nullptr);
}

TEST(KernelInputContractsTest, WhatCountsAsACheck) {
  Parsed P = parse("void f(at::Tensor t, at::Tensor u, at::Tensor v) {\n"
                   "  if (!t.is_cuda()) return;\n"
                   "  (void)u.stride(0);\n"
                   "  validate(v);\n"
                   "  k<<<1, 1>>>(t.data_ptr<float>(), 0);\n"
                   "  (void)t.is_contiguous();\n"
                   "}\n");
  ASSERT_EQ(P.Launches.size(), 1u);
  const clang::FunctionDecl *F = findFunction(P.context(), "f");
  TensorChecks T =
      checksBefore(*F, *F->getParamDecl(0), *P.Launches[0], P.context());
  EXPECT_TRUE(T.Device);
  EXPECT_FALSE(T.Layout) << "a query after the launch comes too late";
  EXPECT_FALSE(T.Opaque);
  TensorChecks U =
      checksBefore(*F, *F->getParamDecl(1), *P.Launches[0], P.context());
  EXPECT_TRUE(U.Layout);
  EXPECT_FALSE(U.Device);
  TensorChecks V =
      checksBefore(*F, *F->getParamDecl(2), *P.Launches[0], P.context());
  EXPECT_TRUE(V.Opaque) << "the project's validate() may check anything";
}

TEST(KernelInputContractsTest, FollowsHelpersBackToTheRegisteredFunction) {
  Parsed P = parse(
      "static void launch(at::Tensor in) { k<<<1, 1>>>(in.data_ptr<float>(), "
      "0); }\n"
      "void entry(at::Tensor x) {\n"
      "  if (!x.is_cuda()) throw 1;\n"
      "  launch(x);\n"
      "}\n"
      "void checkedEntry(at::Tensor y) {\n"
      "  if (!y.is_cuda() || !y.is_contiguous()) throw 1;\n"
      "  launch(y);\n"
      "}\n"
      "void pybind11_init_ext(pybind11::module_ &m) { m.def(\"e\", &entry); "
      "}\n");
  ASSERT_EQ(P.Launches.size(), 1u);
  std::optional<UncheckedKernelInput> Gap = gapAt(P, 0);
  ASSERT_TRUE(Gap);
  EXPECT_FALSE(Gap->NeedsDeviceCheck);
  EXPECT_TRUE(Gap->NeedsLayoutCheck);
  EXPECT_EQ(Gap->Entry, findFunction(P.context(), "entry"));
  EXPECT_EQ(Gap->EntryParameter->getName(), "x");
  EXPECT_EQ(Gap->Tensor->getName(), "in");
}

TEST(KernelInputContractsTest, NoEvidenceNoReport) {
  // Nobody here registers it: its tensors may well be checked by a caller
  // in another file.
  Parsed Unregistered =
      parse("void f(at::Tensor t) { k<<<1, 1>>>(t.data_ptr<float>(), 0); }\n");
  ASSERT_EQ(Unregistered.Launches.size(), 1u);
  EXPECT_FALSE(gapAt(Unregistered, 0));

  // A tensor made here, and an accessor under the CUDA key.
  Parsed Local = parse(
      "void f(at::Tensor t) {\n"
      "  at::Tensor o = at::empty_like(t);\n"
      "  k<<<1, 1>>>(o.data_ptr<float>(), 0);\n"
      "}\n"
      "void g(at::Tensor t) { a<<<1, 1>>>(t.packed_accessor32<float, 2>()); "
      "}\n"
      "void TORCH_LIBRARY_IMPL_init_ops_CUDA_3(torch::Library &m) {\n"
      "  m.impl(\"f\", &f);\n"
      "  m.impl(\"g\", &g);\n"
      "}\n");
  ASSERT_EQ(Local.Launches.size(), 2u);
  EXPECT_FALSE(gapAt(Local, 0));
  EXPECT_FALSE(gapAt(Local, 1));
}

} // namespace
