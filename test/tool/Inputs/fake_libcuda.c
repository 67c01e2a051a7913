/* A stand-in for the NVIDIA driver's libcuda.so.1, for `gpuguard doctor`'s
   tests: it reports the driver version in FAKE_CUDA_DRIVER_VERSION (12020
   for CUDA 12.2), the GPUs in FAKE_CUDA_DEVICES ("NVIDIA H100 80GB HBM3=9.0;
   Tesla V100-SXM2-16GB=7.0"), and fails cuInit with FAKE_CUDA_INIT_ERROR
   (a CUresult) when set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;

static const char *devices(void) {
  const char *List = getenv("FAKE_CUDA_DEVICES");
  return List ? List : "";
}

/* The Index-th "name=major.minor" entry, or 0. */
static int device(int Index, char *Name, int NameSize, int *Major, int *Minor) {
  const char *Entry = devices();
  for (int I = 0; *Entry; ++I) {
    const char *End = strchr(Entry, ';');
    size_t Length = End ? (size_t)(End - Entry) : strlen(Entry);
    if (I == Index) {
      const char *Equals = memchr(Entry, '=', Length);
      if (!Equals)
        return 0;
      size_t NameLength = (size_t)(Equals - Entry);
      if (Name) {
        size_t Copied = NameLength < (size_t)NameSize - 1 ? NameLength
                                                          : (size_t)NameSize - 1;
        memcpy(Name, Entry, Copied);
        Name[Copied] = 0;
      }
      if (Major && Minor && sscanf(Equals + 1, "%d.%d", Major, Minor) != 2)
        return 0;
      return 1;
    }
    if (!End)
      break;
    Entry = End + 1;
  }
  return 0;
}

CUresult cuDriverGetVersion(int *Version) {
  const char *Text = getenv("FAKE_CUDA_DRIVER_VERSION");
  *Version = Text ? atoi(Text) : 13000;
  return 0;
}

CUresult cuInit(unsigned Flags) {
  (void)Flags;
  const char *Error = getenv("FAKE_CUDA_INIT_ERROR");
  return Error ? atoi(Error) : 0;
}

CUresult cuGetErrorName(CUresult Error, const char **Name) {
  *Name = Error == 100 ? "CUDA_ERROR_NO_DEVICE"
          : Error == 999 ? "CUDA_ERROR_UNKNOWN"
                         : "CUDA_ERROR_NOT_INITIALIZED";
  return 0;
}

CUresult cuDeviceGetCount(int *Count) {
  int N = 0;
  while (device(N, 0, 0, 0, 0))
    ++N;
  *Count = N;
  return 0;
}

CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  *Device = Ordinal;
  return device(Ordinal, 0, 0, 0, 0) ? 0 : 101;
}

CUresult cuDeviceGetName(char *Name, int Length, CUdevice Device) {
  return device(Device, Name, Length, 0, 0) ? 0 : 101;
}

CUresult cuDeviceGetAttribute(int *Value, int Attribute, CUdevice Device) {
  int Major = 0, Minor = 0;
  if (!device(Device, 0, 0, &Major, &Minor))
    return 101;
  *Value = Attribute == 75 ? Major : Attribute == 76 ? Minor : 0;
  return 0;
}
