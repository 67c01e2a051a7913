//===--- DriverProbe.cpp - The NVIDIA driver and its GPUs -----------------===//

#include "Doctor/DriverProbe.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <dlfcn.h>

using namespace llvm;

namespace gpuguard::doctor {

namespace {

// The driver API's entry points, by their documented C signatures.
using CUresult = int;
using CUdevice = int;
using DriverGetVersionFn = CUresult (*)(int *);
using InitFn = CUresult (*)(unsigned);
using DeviceGetCountFn = CUresult (*)(int *);
using DeviceGetFn = CUresult (*)(CUdevice *, int);
using DeviceGetNameFn = CUresult (*)(char *, int, CUdevice);
using DeviceGetAttributeFn = CUresult (*)(int *, int, CUdevice);
using GetErrorNameFn = CUresult (*)(CUresult, const char **);
constexpr int ComputeCapabilityMajor = 75, ComputeCapabilityMinor = 76;

template <class Fn> Fn symbol(void *Handle, const char *Name) {
  return reinterpret_cast<Fn>(dlsym(Handle, Name));
}

} // namespace

std::string kernelModuleVersion(StringRef ProcText) {
  StringRef Line = ProcText.take_until([](char C) { return C == '\n'; });
  size_t At = Line.find("Kernel Module");
  if (At == StringRef::npos)
    return "";
  StringRef Rest = Line.substr(At + strlen("Kernel Module")).ltrim();
  return Rest.take_until(isSpace).str();
}

DriverReport probeDriver(StringRef Library) {
  DriverReport Report;
  Report.Library = Library.empty() ? "libcuda.so.1" : Library.str();
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Proc =
          MemoryBuffer::getFile("/proc/driver/nvidia/version", /*IsText=*/true,
                                /*RequiresNullTerminator=*/false))
    Report.KernelModule = kernelModuleVersion((*Proc)->getBuffer());

  void *Handle = dlopen(Report.Library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    Report.LoadError = Why ? Why : "unknown error";
    return Report;
  }
  Report.Loaded = true;
  auto GetVersion = symbol<DriverGetVersionFn>(Handle, "cuDriverGetVersion");
  int Version = 0;
  if (GetVersion && GetVersion(&Version) == 0 && Version > 0)
    Report.Supports =
        CudaVersion{unsigned(Version / 1000), unsigned(Version % 1000 / 10)};
  auto Init = symbol<InitFn>(Handle, "cuInit");
  auto ErrorName = symbol<GetErrorNameFn>(Handle, "cuGetErrorName");
  auto Count = symbol<DeviceGetCountFn>(Handle, "cuDeviceGetCount");
  auto Get = symbol<DeviceGetFn>(Handle, "cuDeviceGet");
  auto Name = symbol<DeviceGetNameFn>(Handle, "cuDeviceGetName");
  auto Attribute = symbol<DeviceGetAttributeFn>(Handle, "cuDeviceGetAttribute");
  if (!Init || !Count || !Get || !Name || !Attribute) {
    Report.InitError = "the library lacks the driver API's device functions";
    return Report; // Left loaded: unloading a driver is never safe.
  }
  if (CUresult Result = Init(0)) {
    const char *Text = nullptr;
    if (ErrorName && ErrorName(Result, &Text) == 0 && Text)
      Report.InitError = Text;
    else
      Report.InitError = "CUresult " + std::to_string(Result);
    return Report;
  }
  int Devices = 0;
  if (Count(&Devices) != 0)
    return Report;
  for (int I = 0; I < Devices; ++I) {
    CUdevice Device = 0;
    if (Get(&Device, I) != 0)
      continue;
    GpuInfo Gpu;
    Gpu.Index = I;
    char Text[256] = {0};
    if (Name(Text, sizeof(Text) - 1, Device) == 0)
      Gpu.Name = Text;
    int Major = 0, Minor = 0;
    Attribute(&Major, ComputeCapabilityMajor, Device);
    Attribute(&Minor, ComputeCapabilityMinor, Device);
    Gpu.Major = Major;
    Gpu.Minor = Minor;
    Report.Gpus.push_back(Gpu);
  }
  return Report;
}

} // namespace gpuguard::doctor
