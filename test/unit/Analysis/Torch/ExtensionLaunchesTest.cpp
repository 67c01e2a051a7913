//===--- ExtensionLaunchesTest.cpp ----------------------------------------===//
//
// Launches in an extension's host code: which arguments are a tensor's
// memory, which guards count and where, and which streams are the default.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Torch/ExtensionLaunches.h"
#include "AnalysisTestSupport.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using namespace gpuguard::test;
using namespace gpuguard::torch;

namespace {

constexpr const char *Declarations = R"(
int cudaSetDevice(int);
namespace c10 {
struct Device { int index() const; };
namespace cuda {
struct OptionalCUDAGuard { explicit OptionalCUDAGuard(Device); };
struct CUDAStream { operator cudaStream_t() const; };
CUDAStream getCurrentCUDAStream();
} // namespace cuda
} // namespace c10
namespace at {
template <class T, unsigned N> struct PackedTensorAccessor32 {};
class TensorBase {
public:
  template <class T> T *data_ptr() const;
  template <class T, unsigned N> PackedTensorAccessor32<T, N> packed_accessor32() const;
  c10::Device device() const;
};
class Tensor : public TensorBase {};
} // namespace at
struct NotATensor { template <class T> T *data_ptr() const; };
__global__ void k(float *p, const float *q);
__global__ void a(at::PackedTensorAccessor32<float, 2> acc);
)";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> Unit;
  const clang::FunctionDecl *Function = nullptr;
  std::vector<const clang::CUDAKernelCallExpr *> Launches;
};

Parsed parse(const std::string &Body) {
  Parsed P;
  P.Unit = parseCuda(std::string(Declarations) + Body);
  if (!P.Unit)
    return P;
  P.Function = findFunction(P.Unit->getASTContext(), "f");
  P.Launches = findLaunches(const_cast<clang::FunctionDecl &>(*P.Function));
  return P;
}

TEST(ExtensionLaunchesTest, TensorMemoryArguments) {
  Parsed P = parse("void f(at::Tensor t, NotATensor n, float *raw) {\n"
                   "  k<<<1, 1>>>(t.data_ptr<float>(), raw);\n"
                   "  k<<<1, 1>>>(n.data_ptr<float>(), raw);\n"
                   "  a<<<1, 1>>>(t.packed_accessor32<float, 2>());\n"
                   "}\n");
  ASSERT_EQ(P.Launches.size(), 3u);
  EXPECT_EQ(tensorMemoryArguments(*P.Launches[0]).size(), 1u);
  EXPECT_TRUE(tensorMemoryArguments(*P.Launches[1]).empty());
  EXPECT_EQ(tensorMemoryArguments(*P.Launches[2]).size(), 1u);
}

TEST(ExtensionLaunchesTest, GuardsCountBeforeTheLaunchOnly) {
  Parsed P = parse("void f(at::Tensor t) {\n"
                   "  k<<<1, 1>>>(t.data_ptr<float>(), 0);\n"
                   "  c10::cuda::OptionalCUDAGuard g(t.device());\n"
                   "  k<<<1, 1>>>(t.data_ptr<float>(), 0);\n"
                   "}\n");
  ASSERT_EQ(P.Launches.size(), 2u);
  clang::ASTContext &Context = P.Unit->getASTContext();
  EXPECT_FALSE(hasDeviceGuardBefore(*P.Function, *P.Launches[0], Context));
  EXPECT_TRUE(hasDeviceGuardBefore(*P.Function, *P.Launches[1], Context));

  Parsed SetDevice = parse("void f(at::Tensor t) {\n"
                           "  cudaSetDevice(t.device().index());\n"
                           "  k<<<1, 1>>>(t.data_ptr<float>(), 0);\n"
                           "}\n");
  ASSERT_EQ(SetDevice.Launches.size(), 1u);
  EXPECT_TRUE(hasDeviceGuardBefore(*SetDevice.Function, *SetDevice.Launches[0],
                                   SetDevice.Unit->getASTContext()));
}

TEST(ExtensionLaunchesTest, DefaultStreams) {
  Parsed P = parse("void f(at::Tensor t, cudaStream_t s) {\n"
                   "  k<<<1, 1>>>(t.data_ptr<float>(), 0);\n"
                   "  k<<<1, 1, 0, 0>>>(t.data_ptr<float>(), 0);\n"
                   "  k<<<1, 1, 0, nullptr>>>(t.data_ptr<float>(), 0);\n"
                   "  k<<<1, 1, 0, s>>>(t.data_ptr<float>(), 0);\n"
                   "  k<<<1, 1, 0, c10::cuda::getCurrentCUDAStream()>>>("
                   "t.data_ptr<float>(), 0);\n"
                   "}\n");
  ASSERT_EQ(P.Launches.size(), 5u);
  EXPECT_TRUE(launchesOnDefaultStream(*P.Launches[0]));
  EXPECT_TRUE(launchesOnDefaultStream(*P.Launches[1]));
  EXPECT_TRUE(launchesOnDefaultStream(*P.Launches[2]));
  EXPECT_FALSE(launchesOnDefaultStream(*P.Launches[3]));
  EXPECT_FALSE(launchesOnDefaultStream(*P.Launches[4]));
}

} // namespace
