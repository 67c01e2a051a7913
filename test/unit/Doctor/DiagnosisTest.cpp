//===--- DiagnosisTest.cpp ------------------------------------------------===//
//
// The verdicts for programs and machines described by hand: the cases a real
// toolkit here cannot build (a runtime newer than the driver's minor
// version, LibTorch for another CUDA) beside the common ones.
//
//===----------------------------------------------------------------------===//

#include "Doctor/Diagnosis.h"
#include "Doctor/BinaryInspection.h"
#include "gtest/gtest.h"

using namespace gpuguard::doctor;

namespace {

DriverReport driver(CudaVersion Supports, std::vector<GpuInfo> Gpus) {
  DriverReport D;
  D.Library = "libcuda.so.1";
  D.Loaded = true;
  D.Supports = Supports;
  D.Gpus = std::move(Gpus);
  return D;
}

BinaryReport program(CudaVersion Runtime, std::vector<EmbeddedCode> Code) {
  BinaryReport P;
  P.Path = "prog";
  P.Runtime.Kind = RuntimeLink::Static;
  P.Runtime.Version = Runtime;
  P.Code = std::move(Code);
  return P;
}

std::vector<std::string> codes(const std::vector<Verdict> &Verdicts) {
  std::vector<std::string> Codes;
  for (const Verdict &V : Verdicts)
    Codes.push_back(V.Code);
  return Codes;
}

using Strings = std::vector<std::string>;
const GpuInfo H100{0, "H100", 9, 0};
const GpuInfo A10{0, "A10", 8, 6};

TEST(DiagnosisTest, SassRunsOnTheSameMajorAndAnOlderMinor) {
  // sm_80 runs on 8.6; sm_86 would not run on 8.0.
  EXPECT_EQ(
      codes(diagnoseProgram(driver({13, 0}, {A10}),
                            program({13, 0}, {{EmbeddedCode::Sass, 80}}))),
      Strings{"native"});
  EXPECT_EQ(
      codes(diagnoseProgram(driver({13, 0}, {GpuInfo{0, "A100", 8, 0}}),
                            program({13, 0}, {{EmbeddedCode::Sass, 86}}))),
      Strings{"no-kernel-image"});
  // Never across majors, PTX or not.
  EXPECT_EQ(
      codes(diagnoseProgram(driver({13, 0}, {H100}),
                            program({13, 0}, {{EmbeddedCode::Sass, 80},
                                              {EmbeddedCode::Ptx, 100}}))),
      Strings{"no-kernel-image"});
}

TEST(DiagnosisTest, NewerMinorRuntimeCannotJitItsPtx) {
  std::vector<Verdict> Verdicts = diagnoseProgram(
      driver({12, 2}, {H100}), program({12, 8}, {{EmbeddedCode::Ptx, 80}}));
  EXPECT_EQ(codes(Verdicts),
            (Strings{"minor-version-compatibility", "unsupported-ptx"}));
  EXPECT_EQ(Verdicts[1].Severity, Verdict::Error);
  // Its own SASS still runs.
  EXPECT_EQ(
      codes(diagnoseProgram(driver({12, 2}, {H100}),
                            program({12, 8}, {{EmbeddedCode::Sass, 90}}))),
      (Strings{"minor-version-compatibility", "native"}));
}

TEST(DiagnosisTest, LibTorchForAnotherCuda) {
  BinaryReport P = program({13, 0}, {{EmbeddedCode::Sass, 90}});
  P.TorchCudaLibrary = "libtorch_cuda.so";
  P.TorchCudaPath = "/opt/libtorch/lib/libtorch_cuda.so";
  P.TorchCuda = CudaVersion{11, 8};
  std::vector<Verdict> Verdicts = diagnoseProgram(driver({13, 0}, {H100}), P);
  ASSERT_EQ(codes(Verdicts), (Strings{"native", "torch-cuda-mismatch"}));
  EXPECT_EQ(Verdicts[1].Message,
            "LibTorch was built for CUDA 11.8 and this program's kernels for "
            "13.0: two CUDA runtimes in one process, each with its own "
            "context state and errors; build the kernels with CUDA 11");
  P.TorchCudaPath.clear();
  EXPECT_EQ(codes(diagnoseProgram(driver({13, 0}, {H100}), P)),
            (Strings{"native", "torch-not-found"}));
}

TEST(DiagnosisTest, HostOnlyProgramsNeedNothing) {
  BinaryReport P;
  P.Path = "tool";
  EXPECT_EQ(codes(diagnoseProgram(DriverReport(), P)), Strings{"no-cuda"});
}

TEST(DiagnosisTest, ArchitectureLists) {
  std::vector<EmbeddedCode> Codes = {{EmbeddedCode::Sass, 90},
                                     {EmbeddedCode::Sass, 75},
                                     {EmbeddedCode::Sass, 80},
                                     {EmbeddedCode::Sass, 80},
                                     {EmbeddedCode::Ptx, 90}};
  EXPECT_EQ(listArchs(Codes, EmbeddedCode::Sass), "sm_75, sm_80 and sm_90");
  EXPECT_EQ(listArchs(Codes, EmbeddedCode::Ptx), "compute_90");
}

TEST(DiagnosisTest, VersionsFromNames) {
  EXPECT_EQ(cudartMajor("libcudart.so.13"), 13u);
  EXPECT_EQ(cudartMajor("/usr/lib/libcudart.so.11.0"), 11u);
  EXPECT_EQ(cudartMajor("libcudart.so"), std::nullopt);
  std::optional<CudaVersion> Release = findToolkitRelease(
      "....Cuda compilation tools, release 12.8, V12.8.93\n");
  ASSERT_TRUE(Release);
  EXPECT_EQ(Release->str(), "12.8");
  EXPECT_FALSE(findToolkitRelease("nothing here"));
}

} // namespace
