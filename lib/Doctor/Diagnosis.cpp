//===--- Diagnosis.cpp - Why a CUDA program will not run here -------------===//

#include "Doctor/Diagnosis.h"
#include <algorithm>
#include <set>

namespace gpuguard::doctor {

namespace {

std::string gpuName(const GpuInfo &Gpu) {
  return "GPU " + std::to_string(Gpu.Index) + " (" +
         (Gpu.Name.empty() ? std::string("unnamed") : Gpu.Name) + ", sm_" +
         std::to_string(Gpu.arch()) + ")";
}

/// The driver major that first supports CUDA \p Major, for the advice.
std::string driverFor(unsigned Major) {
  switch (Major) {
  case 11:
    return " (driver 450 or later)";
  case 12:
    return " (driver 525 or later)";
  case 13:
    return " (driver 580 or later)";
  default:
    return "";
  }
}

} // namespace

std::string listArchs(const std::vector<EmbeddedCode> &Codes,
                      EmbeddedCode::KindType Kind) {
  std::set<unsigned> Archs;
  for (const EmbeddedCode &Code : Codes)
    if (Code.Kind == Kind)
      Archs.insert(Code.Arch);
  std::string Text;
  unsigned Index = 0;
  for (unsigned Arch : Archs) {
    if (Index)
      Text += Index + 1 == Archs.size() ? " and " : ", ";
    Text += archName({Kind, Arch});
    ++Index;
  }
  return Text;
}

std::vector<Verdict> diagnoseMachine(const DriverReport &Driver) {
  std::vector<Verdict> Verdicts;
  if (!Driver.Loaded) {
    Verdicts.push_back(
        {Verdict::Error, "no-driver",
         "no NVIDIA driver: " + Driver.Library + " cannot be loaded (" +
             Driver.LoadError +
             "); every CUDA call fails with cudaErrorInsufficientDriver or "
             "cudaErrorNoDevice"});
    return Verdicts;
  }
  if (!Driver.InitError.empty()) {
    Verdicts.push_back(
        {Verdict::Error, "driver-init",
         "the driver does not start (" + Driver.InitError +
             "): no CUDA call can succeed; check that the "
             "kernel module is loaded and matches " +
             Driver.Library +
             (Driver.KernelModule.empty()
                  ? std::string()
                  : " (kernel module " + Driver.KernelModule + ")")});
    return Verdicts;
  }
  if (Driver.Gpus.empty())
    Verdicts.push_back({Verdict::Error, "no-gpu",
                        "the driver sees no GPU: every CUDA call fails with "
                        "cudaErrorNoDevice; check CUDA_VISIBLE_DEVICES and "
                        "the container's device access"});
  return Verdicts;
}

std::vector<Verdict> diagnoseProgram(const DriverReport &Driver,
                                     const BinaryReport &Program) {
  std::vector<Verdict> Verdicts;
  bool UsesCuda =
      Program.Runtime.Kind != RuntimeLink::None || !Program.Code.empty();
  if (!UsesCuda && Program.TorchCudaLibrary.empty()) {
    Verdicts.push_back({Verdict::Note, "no-cuda",
                        "links no CUDA runtime and carries no GPU code"});
    return Verdicts;
  }
  if (!Driver.Loaded || !Driver.InitError.empty() || Driver.Gpus.empty()) {
    std::vector<Verdict> Machine = diagnoseMachine(Driver);
    Verdicts.insert(Verdicts.end(), Machine.begin(), Machine.end());
    return Verdicts;
  }

  // The runtime against the driver.
  std::optional<CudaVersion> Runtime = Program.Runtime.Version;
  bool DriverOlderMinor = false;
  if (Runtime && Driver.Supports) {
    if (Driver.Supports->Major < Runtime->Major) {
      Verdicts.push_back(
          {Verdict::Error, "insufficient-driver",
           "the driver supports CUDA " + Driver.Supports->str() +
               "; the program needs " + Runtime->str() +
               " (cudaErrorInsufficientDriver at its first CUDA call): "
               "install a driver for CUDA " +
               std::to_string(Runtime->Major) + driverFor(Runtime->Major) +
               ", or build with CUDA " +
               std::to_string(Driver.Supports->Major)});
      return Verdicts;
    }
    DriverOlderMinor = Driver.Supports->Major == Runtime->Major &&
                       Driver.Supports->Minor < Runtime->Minor;
    if (DriverOlderMinor)
      Verdicts.push_back(
          {Verdict::Warning, "minor-version-compatibility",
           "the driver supports CUDA " + Driver.Supports->str() +
               " and the program's runtime is " + Runtime->str() +
               ": it runs under minor version compatibility, but PTX from "
               "the newer toolkit cannot be compiled by this driver "
               "(cudaErrorUnsupportedPtxVersion)"});
  }

  // The GPU code against each GPU.
  std::string Sass = listArchs(Program.Code, EmbeddedCode::Sass);
  std::string Ptx = listArchs(Program.Code, EmbeddedCode::Ptx);
  if (!Program.Code.empty()) {
    for (const GpuInfo &Gpu : Driver.Gpus) {
      const EmbeddedCode *Native = nullptr, *Jit = nullptr;
      for (const EmbeddedCode &Code : Program.Code) {
        if (Code.Kind == EmbeddedCode::Sass && Code.Arch / 10 == Gpu.Major &&
            Code.Arch % 10 <= Gpu.Minor &&
            (!Native || Code.Arch > Native->Arch))
          Native = &Code;
        if (Code.Kind == EmbeddedCode::Ptx && Code.Arch <= Gpu.arch() &&
            (!Jit || Code.Arch > Jit->Arch))
          Jit = &Code;
      }
      if (Native) {
        Verdicts.push_back(
            {Verdict::Note, "native",
             gpuName(Gpu) + " runs its " + archName(*Native) + " code",
             int(Gpu.Index)});
      } else if (Jit) {
        Verdict V{DriverOlderMinor ? Verdict::Error : Verdict::Note,
                  DriverOlderMinor ? "unsupported-ptx" : "ptx-jit",
                  gpuName(Gpu) +
                      " has no SASS of its own; the driver "
                      "compiles the " +
                      archName(*Jit) + " PTX when the program starts",
                  int(Gpu.Index)};
        if (DriverOlderMinor)
          V.Message += ", which this older driver cannot do "
                       "(cudaErrorUnsupportedPtxVersion)";
        else
          V.Message += " (a slow first start; add -gencode arch=compute_" +
                       std::to_string(Gpu.arch()) + ",code=sm_" +
                       std::to_string(Gpu.arch()) + " to avoid it)";
        Verdicts.push_back(V);
      } else {
        std::string Has = Sass.empty() ? "no SASS" : Sass + " code";
        std::string PtxText =
            Ptx.empty() ? " and no PTX"
                        : " and PTX only for " + Ptx + ", newer than the GPU";
        Verdicts.push_back(
            {Verdict::Error, "no-kernel-image",
             "no kernel image for " + gpuName(Gpu) + ": the program has " +
                 Has + PtxText +
                 "; its launches fail with "
                 "cudaErrorNoKernelImageForDevice; rebuild with -gencode "
                 "arch=compute_" +
                 std::to_string(Gpu.arch()) + ",code=sm_" +
                 std::to_string(Gpu.arch()),
             int(Gpu.Index)});
      }
    }
  }

  // LibTorch's own CUDA.
  if (!Program.TorchCudaLibrary.empty()) {
    if (Program.TorchCudaPath.empty()) {
      Verdicts.push_back({Verdict::Warning, "torch-not-found",
                          "links " + Program.TorchCudaLibrary +
                              ", which is not found in its RUNPATH, "
                              "LD_LIBRARY_PATH or the system's folders: the "
                              "program does not start"});
    } else if (Program.TorchCuda) {
      if (Driver.Supports && Driver.Supports->Major < Program.TorchCuda->Major)
        Verdicts.push_back(
            {Verdict::Error, "insufficient-driver-torch",
             "LibTorch was built for CUDA " + Program.TorchCuda->str() +
                 " and the driver supports " + Driver.Supports->str() +
                 ": torch::cuda::is_available() is false and CUDA tensors "
                 "fail"});
      if (Runtime && Runtime->Major != Program.TorchCuda->Major)
        Verdicts.push_back(
            {Verdict::Warning, "torch-cuda-mismatch",
             "LibTorch was built for CUDA " + Program.TorchCuda->str() +
                 " and this program's kernels for " + Runtime->str() +
                 ": two CUDA runtimes in one process, each with its own "
                 "context state and errors; build the kernels with CUDA " +
                 std::to_string(Program.TorchCuda->Major)});
    }
  }
  return Verdicts;
}

} // namespace gpuguard::doctor
