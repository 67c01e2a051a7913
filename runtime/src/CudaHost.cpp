//===- CudaHost.cpp - The CUDA host side of the runtime -------------------===//
///
/// \file
/// Checks of CUDA API results and kernel launches, the allocation and
/// synchronisation wrappers, and the device half of the reporter: every
/// translation unit compiled as CUDA registers its module's device state
/// (rt.h), and this file pushes the halt flag and the allocation registry
/// into it and drains its records.
///
/// All copies go through a non-blocking stream of the runtime's own, so that
/// they never wait for (or serialise with) the program's kernels. A record is
/// read only once its Ready word is set; buffers are reset only after
/// cudaDeviceSynchronize, when no kernel can still be writing.
///
//===----------------------------------------------------------------------===//

// The wrappers' declarations, checked against their definitions here: set
// before the first include of rt.h, which CudaHost.h makes.
#ifndef GPUGUARD_RT_CUDA_HOST
#define GPUGUARD_RT_CUDA_HOST
#endif

#include "CudaHost.h"
#include "Reporter.h"
#include "gpuguard/report.h"
#include "gpuguard/rt.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace gpuguard {
namespace rt {
namespace detail {
namespace {

constexpr size_t HeadBytes = offsetof(DeviceModuleState, Allocations);
constexpr size_t TableSequenceOffset =
    offsetof(DeviceModuleState, TableSequence);
constexpr size_t ClaimedOffset = offsetof(DeviceModuleState, Claimed);
constexpr size_t RecordsOffset = offsetof(DeviceModuleState, Records);
constexpr size_t SitesOffset = offsetof(DeviceModuleState, Sites);
// Claimed and SiteSpan are read with one copy.
static_assert(offsetof(DeviceModuleState, SiteSpan) ==
                  ClaimedOffset + sizeof(unsigned long long),
              "SiteSpan follows Claimed");

/// Errors a kernel raises while it runs; they are found at a later call and
/// belong to a launch, not to that call. All of them are sticky.
bool isKernelExecutionError(cudaError_t E) {
  switch (E) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchTimeout:
  case cudaErrorAssert:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchFailure:
    return true;
  default:
    return false;
  }
}

/// "12.2" for 12020.
std::string cudaVersionText(int Version) {
  return std::to_string(Version / 1000) + "." +
         std::to_string(Version % 1000 / 10);
}

/// What the two errors of a machine that cannot run the program mean here,
/// in the words of `gpuguard doctor`; empty for other errors. Its queries
/// leave the program's last error as it was.
std::string explainSetupError(cudaError_t E) {
  cudaError_t Before = ::cudaPeekAtLastError();
  std::string Explanation;
  if (E == cudaErrorNoKernelImageForDevice) {
    int Device = 0, Major = 0, Minor = 0;
    if (::cudaGetDevice(&Device) == cudaSuccess &&
        ::cudaDeviceGetAttribute(&Major, cudaDevAttrComputeCapabilityMajor,
                                 Device) == cudaSuccess &&
        ::cudaDeviceGetAttribute(&Minor, cudaDevAttrComputeCapabilityMinor,
                                 Device) == cudaSuccess) {
      std::string Arch = std::to_string(Major * 10 + Minor);
      Explanation = "; GPU " + std::to_string(Device) + " is sm_" + Arch +
                    " and the program has neither SASS for it nor PTX "
                    "older than it: rebuild with -gencode arch=compute_" +
                    Arch + ",code=sm_" + Arch +
                    " ('gpuguard doctor <program>' lists what it has)";
    }
  } else if (E == cudaErrorInsufficientDriver) {
    int Driver = 0, Runtime = 0;
    if (::cudaDriverGetVersion(&Driver) == cudaSuccess &&
        ::cudaRuntimeGetVersion(&Runtime) == cudaSuccess)
      Explanation =
          Driver == 0
              ? "; no NVIDIA driver is loaded"
              : "; the driver supports CUDA " + cudaVersionText(Driver) +
                    " and the program's runtime is " +
                    cudaVersionText(Runtime) + ": install a driver for CUDA " +
                    std::to_string(Runtime / 1000);
  }
  if (Before == cudaSuccess && ::cudaPeekAtLastError() != cudaSuccess)
    (void)::cudaGetLastError();
  return Explanation;
}

std::string describe(cudaError_t E) {
  const char *Name = ::cudaGetErrorName(E);
  const char *Text = ::cudaGetErrorString(E);
  return std::string(Name ? Name : "cudaError") + ": " +
         (Text ? Text : "unknown error") + explainSetupError(E);
}

std::string quoted(const char *What) {
  if (!What || !*What)
    return std::string();
  return std::string(" '") + What + "'";
}

/// Internal calls must not leave an error behind for the program's own
/// cudaGetLastError when there was none before them.
class LastErrorGuard {
public:
  LastErrorGuard() : Before(::cudaPeekAtLastError()) {}
  ~LastErrorGuard() {
    if (Failed && Before == cudaSuccess)
      (void)::cudaGetLastError();
  }
  bool ok(cudaError_t E) {
    if (E != cudaSuccess)
      Failed = true;
    return E == cudaSuccess;
  }

private:
  cudaError_t Before;
  bool Failed = false;
};

struct ModuleOnDevice {
  /// 1 + the registry generation last pushed; 0 = never pushed.
  unsigned long long PushedGeneration = 0;
  /// Records [0, Cursor) were reported already.
  unsigned long long Cursor = 0;
  /// Records dropped so far, as already counted.
  unsigned long long DroppedCounted = 0;
  /// Each site tally's failures, as already counted.
  std::vector<unsigned long long> TalliesCounted;
  /// The table's sequence lock as last written (even: no write under way).
  unsigned TableSequence = 0;
  /// The symbol cannot be copied (not in this device's module).
  bool Unusable = false;
};

struct DeviceSync {
  cudaStream_t Stream = nullptr;
  bool Unusable = false;
  std::vector<ModuleOnDevice> Modules;
};

/// The site reported when an asynchronous error shows up before any
/// instrumented launch.
const SiteInfo UnknownLaunch = {"<unknown launch>", 0,  0, "", "gpuguard",
                                KernelLaunch,       -1, ""};

class CudaState {
public:
  static CudaState &state() {
    // Never destroyed: the exit handlers still use it.
    static CudaState *Instance = new CudaState();
    return *Instance;
  }

  void registerModule(const void *Symbol) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Modules.push_back(Symbol);
    if (!HookSet) {
      HookSet = true;
      setDeviceDrainHook(
          [](bool AtExit) { state().drain(/*DeviceWide=*/false, AtExit); });
    }
  }

  /// Makes sure the current device's modules have the halt flag and the
  /// current allocation registry.
  void prepare() {
    LastErrorGuard Guard;
    int Device = 0;
    if (!Guard.ok(::cudaGetDevice(&Device)))
      return;
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!ExitHandlerSet) {
      // Registered after the CUDA runtime's own teardown, so it runs first.
      ExitHandlerSet = true;
      std::atexit([] { state().drain(/*DeviceWide=*/false, /*AtExit=*/true); });
    }
    DeviceSync *D = deviceLocked(Device, Guard);
    if (D)
      pushLocked(*D, Guard);
  }

  /// A launch begins (LaunchInFlight); counted, so that a device-wide
  /// synchronisation knows whether one began or was under way since it
  /// started.
  void beginLaunch() {
    std::lock_guard<std::mutex> Lock(Mutex);
    ++LaunchesBegun;
    ++LaunchesInFlight;
  }
  void endLaunch() {
    std::lock_guard<std::mutex> Lock(Mutex);
    --LaunchesInFlight;
  }
  /// Taken before a device-wide synchronisation: its launch count, or ~0 when
  /// a launch was under way then (its kernel may start after the
  /// synchronisation began, and not be waited for).
  unsigned long long launchEpoch() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return LaunchesInFlight ? ~0ull : LaunchesBegun;
  }

  void setLastLaunch(SiteRef Site) {
    std::lock_guard<std::mutex> Lock(Mutex);
    LastLaunch = Site;
    HaveLastLaunch = true;
  }

  /// Reports a sticky error a kernel left behind at the last launch, once.
  void reportAsynchronous(cudaError_t E, const char *FoundBy) {
    Failure F;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      if (StickyReported)
        return;
      StickyReported = true;
      if (HaveLastLaunch) {
        F.Ref = LastLaunch;
        F.Site = lookupSite(LastLaunch);
      }
    }
    if (!F.Site) {
      F.Site = &UnknownLaunch;
      F.Ref = SiteRef{0, ~0u - 1};
    }
    F.What = "kernel" + quoted(F.Site->What) + " failed asynchronously";
    F.Values = describe(E) + ", found by " + FoundBy;
    if (options().HaltOnError)
      F.Values += "; a device check may have stopped it (halt_on_error=1)";
    reportFailure(F);
  }

  /// Reports the records of the current device's modules that are complete.
  /// \p DeviceWide: a device-wide synchronisation that started at launch
  /// count \p Epoch succeeded; unless a launch began or was under way since,
  /// no kernel runs, and the buffers can be emptied. Another thread's kernel
  /// launched after the synchronisation began could otherwise lose a record
  /// to the emptying.
  void drain(bool DeviceWide, bool AtExit, unsigned long long Epoch = ~0ull) {
    std::vector<Record> Found;
    std::vector<std::pair<SiteRef, unsigned long long>> Tallied;
    unsigned long long Dropped = 0;
    {
      LastErrorGuard Guard;
      std::lock_guard<std::mutex> Lock(Mutex);
      if (ExitDrained || (AtExit && !ExitHandlerSet))
        return; // Never prepared: CUDA was not used through the runtime.
      if (AtExit)
        ExitDrained = true;
      int Device = 0;
      if (!Guard.ok(::cudaGetDevice(&Device)))
        return;
      DeviceSync *D = deviceLocked(Device, Guard);
      if (!D)
        return;
      bool NothingRuns =
          DeviceWide && LaunchesInFlight == 0 && Epoch == LaunchesBegun;
      for (size_t I = 0; I < Modules.size(); ++I)
        drainModuleLocked(*D, I, NothingRuns, Found, Tallied, Dropped, Guard);
    }
    if (Dropped)
      addDroppedRecords(Dropped);
    for (const Record &R : Found)
      reportRecord(R, RecordOrigin::Device);
    for (const auto &[Site, Count] : Tallied)
      addSiteOccurrences(Site, Count);
  }

  void resetForTesting() {
    std::lock_guard<std::mutex> Lock(Mutex);
    Devices.clear();
    HaveLastLaunch = false;
    StickyReported = false;
    ExitDrained = false;
    LaunchesBegun = 0;
    LaunchesInFlight = 0;
    NoImageNoticed = false;
  }

private:
  /// A module whose state the device cannot hold has no image for this
  /// GPU: its kernels will fail with a code that names no cause. Said once,
  /// at the first allocation or launch, before they do.
  void noticeNoImageLocked(cudaError_t E) {
    if (NoImageNoticed || (E != cudaErrorNoKernelImageForDevice &&
                           E != cudaErrorUnsupportedPtxVersion &&
                           E != cudaErrorInvalidKernelImage))
      return;
    NoImageNoticed = true;
    emitLines({"gpuguard: this program's kernels cannot run on this GPU (" +
               describe(E) + ")"});
  }

  DeviceSync *deviceLocked(int Device, LastErrorGuard &Guard) {
    DeviceSync &D = Devices[Device];
    if (D.Unusable)
      return nullptr;
    if (!D.Stream && !Guard.ok(::cudaStreamCreateWithFlags(
                         &D.Stream, cudaStreamNonBlocking))) {
      D.Unusable = true;
      return nullptr;
    }
    D.Modules.resize(Modules.size());
    return &D;
  }

  void pushLocked(DeviceSync &D, LastErrorGuard &Guard) {
    unsigned long long Generation = allocationGeneration();
    bool Needed = false;
    for (const ModuleOnDevice &M : D.Modules)
      Needed |= !M.Unusable && M.PushedGeneration != Generation + 1;
    if (!Needed)
      return;
    std::vector<AllocationEntry> Entries;
    snapshotAllocations(Entries, Generation);
    if (Entries.size() > AllocationCapacity && !WarnedCapacity) {
      WarnedCapacity = true;
      std::fprintf(stderr,
                   "gpuguard: more than %u live device allocations; accesses "
                   "into the others are not checked\n",
                   AllocationCapacity);
    }
    // Sorted by base, so the first AllocationCapacity entries are a valid
    // table: an address in a left-out allocation finds no entry containing it.
    unsigned Count = static_cast<unsigned>(Entries.size() < AllocationCapacity
                                               ? Entries.size()
                                               : AllocationCapacity);
    std::vector<unsigned char> Head(HeadBytes +
                                    Count * sizeof(AllocationEntry));
    unsigned Halt = options().HaltOnError ? 1 : 0;
    std::memcpy(Head.data() + offsetof(DeviceModuleState, HaltOnError), &Halt,
                sizeof(Halt));
    std::memcpy(Head.data() + offsetof(DeviceModuleState, AllocationCount),
                &Count, sizeof(Count));
    if (Count)
      std::memcpy(Head.data() + HeadBytes, Entries.data(),
                  Count * sizeof(AllocationEntry));
    // Under the sequence lock (see DeviceModuleState): odd, the table, even,
    // each step complete on the device before the next starts. The table's
    // copy carries the same odd value, so it leaves the lock as it is.
    std::vector<size_t> Pushing;
    for (size_t I = 0; I < Modules.size(); ++I)
      if (!D.Modules[I].Unusable &&
          D.Modules[I].PushedGeneration != Generation + 1)
        Pushing.push_back(I);
    // One write to each module being pushed, then a wait; false once the
    // context is gone and nothing can be pushed any more.
    auto ToEachModule = [&](auto Write) {
      for (size_t I : Pushing) {
        ModuleOnDevice &M = D.Modules[I];
        if (M.Unusable)
          continue;
        cudaError_t E = Write(Modules[I], M);
        if (!Guard.ok(E)) {
          if (isKernelExecutionError(E))
            return false;
          M.Unusable = true;
          noticeNoImageLocked(E);
        }
      }
      return Guard.ok(::cudaStreamSynchronize(D.Stream));
    };
    auto Sequence = [&](unsigned Step) {
      return [&, Step](const void *Symbol, const ModuleOnDevice &M) {
        unsigned Value = M.TableSequence + Step;
        return ::cudaMemcpyToSymbolAsync(Symbol, &Value, sizeof(Value),
                                         TableSequenceOffset,
                                         cudaMemcpyHostToDevice, D.Stream);
      };
    };
    auto Table = [&](const void *Symbol, const ModuleOnDevice &M) {
      unsigned Odd = M.TableSequence + 1;
      std::memcpy(Head.data() + TableSequenceOffset, &Odd, sizeof(Odd));
      return ::cudaMemcpyToSymbolAsync(Symbol, Head.data(), Head.size(), 0,
                                       cudaMemcpyHostToDevice, D.Stream);
    };
    if (!ToEachModule(Sequence(1)) || !ToEachModule(Table) ||
        !ToEachModule(Sequence(2)))
      return;
    for (size_t I : Pushing) {
      ModuleOnDevice &M = D.Modules[I];
      if (M.Unusable)
        continue;
      M.TableSequence += 2;
      M.PushedGeneration = Generation + 1;
    }
  }

  void drainModuleLocked(
      DeviceSync &D, size_t Index, bool DeviceWide, std::vector<Record> &Found,
      std::vector<std::pair<SiteRef, unsigned long long>> &Tallied,
      unsigned long long &Dropped, LastErrorGuard &Guard) {
    ModuleOnDevice &M = D.Modules[Index];
    if (M.Unusable)
      return;
    const void *Symbol = Modules[Index];
    unsigned long long Counters[2] = {0, 0}; // Claimed, SiteSpan
    if (!Guard.ok(::cudaMemcpyFromSymbolAsync(
            Counters, Symbol, sizeof(Counters), ClaimedOffset,
            cudaMemcpyDeviceToHost, D.Stream)) ||
        !Guard.ok(::cudaStreamSynchronize(D.Stream)))
      return;
    unsigned long long Claimed = Counters[0];
    size_t SiteSpan = static_cast<size_t>(
        Counters[1] < SiteTallyCapacity ? Counters[1] : SiteTallyCapacity);
    unsigned long long Written =
        Claimed < RecordCapacity ? Claimed : RecordCapacity;
    if (Written > M.Cursor) {
      std::vector<Record> Records(Written - M.Cursor);
      if (!Guard.ok(::cudaMemcpyFromSymbolAsync(
              Records.data(), Symbol, Records.size() * sizeof(Record),
              RecordsOffset + M.Cursor * sizeof(Record), cudaMemcpyDeviceToHost,
              D.Stream)) ||
          !Guard.ok(::cudaStreamSynchronize(D.Stream)))
        return;
      for (const Record &R : Records) {
        if (!R.Ready)
          break; // Still being written; read again at the next drain.
        Found.push_back(R);
        ++M.Cursor;
      }
    }
    unsigned long long DroppedNow =
        Claimed > RecordCapacity ? Claimed - RecordCapacity : 0;
    if (DroppedNow > M.DroppedCounted) {
      Dropped += DroppedNow - M.DroppedCounted;
      M.DroppedCounted = DroppedNow;
    }
    if (SiteSpan > 0) {
      std::vector<SiteTally> Tallies(SiteSpan);
      if (!Guard.ok(::cudaMemcpyFromSymbolAsync(
              Tallies.data(), Symbol, SiteSpan * sizeof(SiteTally), SitesOffset,
              cudaMemcpyDeviceToHost, D.Stream)) ||
          !Guard.ok(::cudaStreamSynchronize(D.Stream)))
        return;
      if (M.TalliesCounted.size() < SiteSpan)
        M.TalliesCounted.resize(SiteSpan, 0);
      for (size_t Site = 0; Site < SiteSpan; ++Site) {
        const SiteTally &T = Tallies[Site];
        if (T.FileKey == 0 || T.Failures <= M.TalliesCounted[Site])
          continue;
        Tallied.push_back({SiteRef{T.FileKey, static_cast<unsigned>(Site)},
                           T.Failures - M.TalliesCounted[Site]});
        M.TalliesCounted[Site] = T.Failures;
      }
    }
    if (!DeviceWide || Claimed == 0 || M.Cursor < Written)
      return;
    // Empty the buffer: the count and the Ready words of the used records.
    std::vector<unsigned char> Zeros(RecordsOffset - ClaimedOffset +
                                     Written * sizeof(Record));
    if (Guard.ok(::cudaMemcpyToSymbolAsync(Symbol, Zeros.data(), Zeros.size(),
                                           ClaimedOffset,
                                           cudaMemcpyHostToDevice, D.Stream)) &&
        Guard.ok(::cudaStreamSynchronize(D.Stream))) {
      M.Cursor = 0;
      M.DroppedCounted = 0;
    }
    // And the tallies, which only sites below SiteSpan ever touched.
    if (SiteSpan > 0) {
      std::vector<SiteTally> Empty(SiteSpan, SiteTally{0, 0});
      if (Guard.ok(::cudaMemcpyToSymbolAsync(
              Symbol, Empty.data(), SiteSpan * sizeof(SiteTally), SitesOffset,
              cudaMemcpyHostToDevice, D.Stream)) &&
          Guard.ok(::cudaStreamSynchronize(D.Stream)))
        M.TalliesCounted.clear();
    }
  }

  std::mutex Mutex;
  std::vector<const void *> Modules;
  std::map<int, DeviceSync> Devices;
  SiteRef LastLaunch = {0, 0};
  bool HaveLastLaunch = false;
  bool StickyReported = false;
  bool HookSet = false;
  bool ExitHandlerSet = false;
  bool ExitDrained = false;
  bool WarnedCapacity = false;
  bool NoImageNoticed = false;
  unsigned long long LaunchesBegun = 0;
  unsigned LaunchesInFlight = 0;
};

CudaState &cudaState() { return CudaState::state(); }

/// After a call that waits for device work: report its records, then an
/// error a kernel left behind.
void afterSynchronisation(cudaError_t Result, const char *Call, bool DeviceWide,
                          unsigned long long Epoch = ~0ull) {
  if (DeviceWide && Result == cudaSuccess)
    quiesceAllocations();
  cudaState().prepare();
  cudaState().drain(DeviceWide && Result == cudaSuccess, /*AtExit=*/false,
                    Epoch);
  if (isKernelExecutionError(Result))
    cudaState().reportAsynchronous(Result, Call);
}

/// The site of an allocation call, for reports at it: one entry per file
/// and line, kept for the life of the process as site tables are.
const SiteInfo *callSite(const char *Function, const char *Check,
                         const char *File, unsigned Line) {
  static std::mutex Mutex;
  static auto *Sites =
      new std::map<std::tuple<std::string, unsigned, std::string>,
                   std::unique_ptr<SiteInfo>>();
  std::lock_guard<std::mutex> Lock(Mutex);
  std::unique_ptr<SiteInfo> &Site =
      (*Sites)[{File ? File : "", Line, Function ? Function : ""}];
  if (!Site)
    Site.reset(new SiteInfo{File ? File : "<unknown>", Line, 0, nullptr, Check,
                            ApiResult, -1, Function});
  return Site.get();
}

/// An allocation the device had no room for: what was asked, what the
/// device has left, and the largest live allocations with their lines,
/// instead of a bare cudaErrorMemoryAllocation.
void reportOutOfMemory(const char *Allocator, size_t Size, const char *File,
                       unsigned Line) {
  Failure F;
  F.Site = callSite(Allocator, "out-of-memory", File, Line);
  F.Ref = refOfSite(*F.Site);
  F.What = std::string("'") + Allocator + "' of " + formatBytes(Size) +
           " failed: out of memory";
  size_t Free = 0, Total = 0;
  if (::cudaMemGetInfo(&Free, &Total) == cudaSuccess)
    F.Values = "the device has " + formatBytes(Free) + " free of " +
               formatBytes(Total);
  std::vector<LiveAllocation> Live = liveAllocations();
  if (Live.empty()) {
    F.Details.push_back("no memory allocated through the CUDA wrappers is "
                        "live: the rest is held by other allocators, "
                        "libraries or processes");
  } else {
    F.Details.push_back("live through the CUDA wrappers: " +
                        describeLiveTotal(Live) + "; the largest:");
    for (const std::string &Group : describeLiveAllocations(Live, 5))
      F.Details.push_back("  " + Group);
  }
  reportFailure(F);
}

/// The variables that say which GPU a process of a distributed job was
/// meant to use, those that are set: "CUDA_VISIBLE_DEVICES=0,1; RANK=3".
std::string deviceEnvironment() {
  std::string Text;
  for (const char *Name : {"CUDA_VISIBLE_DEVICES", "LOCAL_RANK", "RANK",
                           "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"}) {
    const char *Value = std::getenv(Name);
    if (!Value)
      continue;
    Text += (Text.empty() ? "" : "; ") + std::string(Name) + "=" + Value;
  }
  return Text;
}

/// A device ordinal past the GPUs this process sees: the call fails with
/// cudaErrorInvalidDevice, and in a distributed job it is usually a global
/// rank used where the local one was meant.
void reportMissingDevice(int Device, int Count, const char *File,
                         unsigned Line) {
  Failure F;
  F.Site =
      callSite("cudaSetDevice", "cuda-unvalidated-device-ordinal", File, Line);
  F.Ref = refOfSite(*F.Site);
  F.What = "'cudaSetDevice' names device " + std::to_string(Device) +
           " and this process sees " + std::to_string(Count) + " GPU(s)";
  F.Values = deviceEnvironment();
  reportFailure(F);
}

/// Says once, before the first allocation or launch fails, that this
/// machine's driver cannot run the program at all.
void noticeSetupProblemsOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LastErrorGuard Guard;
    int Driver = 0, Runtime = 0;
    if (!Guard.ok(::cudaDriverGetVersion(&Driver)) ||
        !Guard.ok(::cudaRuntimeGetVersion(&Runtime)))
      return;
    std::string Notice = driverMismatchNotice(Driver, Runtime);
    if (!Notice.empty())
      emitLines({Notice});
  });
}

void afterAllocation(cudaError_t Result, void **DevPtr, size_t Size,
                     const char *Allocator, const char *File, unsigned Line) {
  noticeSetupProblemsOnce();
  if (Result == cudaSuccess && DevPtr && *DevPtr)
    registerAllocation(*DevPtr, Size, Allocator, File, Line);
  else if (Result == cudaErrorMemoryAllocation)
    reportOutOfMemory(Allocator, Size, File, Line);
  cudaState().prepare();
}

} // namespace

std::string driverMismatchNotice(int Driver, int Runtime) {
  // A driver runs any runtime of its own major version or older (minor
  // version compatibility); none runs a newer major version. No driver at
  // all is said by the first call that fails.
  if (Driver <= 0 || Runtime <= 0 || Driver / 1000 >= Runtime / 1000)
    return "";
  return "gpuguard: the CUDA driver supports CUDA " + cudaVersionText(Driver) +
         " and this program's CUDA runtime is " + cudaVersionText(Runtime) +
         ": every CUDA call will fail with cudaErrorInsufficientDriver; "
         "install a driver for CUDA " +
         std::to_string(Runtime / 1000) +
         " or newer ('gpuguard doctor <program>' says more)";
}

void borrowDeviceMemory(const void *Base, unsigned long long Bytes,
                        BorrowedMemory *Owner) {
  registerBorrowedAllocation(Base, Bytes, Owner);
  cudaState().prepare();
}

void registerDeviceModule(const void *StateSymbol) {
  cudaState().registerModule(StateSymbol);
}

void resetCudaHostForTesting() { cudaState().resetForTesting(); }

void reportApiFailure(SiteRef Site, cudaError_t Result) {
  if (isKernelExecutionError(Result)) {
    // A kernel's error surfacing here: it belongs to the last launch.
    cudaState().reportAsynchronous(Result, "a checked CUDA call");
  }
  Failure F;
  F.Ref = Site;
  F.Site = lookupSite(Site);
  F.What = kindMessage(ApiResult, F.Site ? F.Site->What : nullptr);
  F.Values = describe(Result);
  reportFailure(F);
}

void reportApiFailure(SiteRef Site, long long Result) {
  Failure F;
  F.Ref = Site;
  F.Site = lookupSite(Site);
  F.What = "API call" + quoted(F.Site ? F.Site->What : nullptr) + " failed";
  F.Values = "status " + std::to_string(Result);
  reportFailure(F);
}

} // namespace detail

LaunchInFlight::LaunchInFlight() { detail::cudaState().beginLaunch(); }

LaunchInFlight::~LaunchInFlight() {
  if (Active)
    detail::cudaState().endLaunch();
}

LaunchInFlight beforeLaunch() {
  detail::noticeSetupProblemsOnce();
  // Nothing to push unless borrowed memory went away since the last launch;
  // a new registration pushed itself.
  if (detail::pruneBorrowedAllocations())
    detail::cudaState().prepare();
  return LaunchInFlight();
}

void checkLaunch(SiteRef Site) {
  cudaError_t E = ::cudaPeekAtLastError();
  detail::cudaState().setLastLaunch(Site);
  detail::cudaState().prepare();
  // A kernel error from an earlier launch is that launch's (reported at the
  // next synchronisation); anything else is this launch's configuration.
  if (E == cudaSuccess || detail::isKernelExecutionError(E))
    return;
  detail::Failure F;
  F.Ref = Site;
  F.Site = detail::lookupSite(Site);
  F.What = detail::kindMessage(KernelLaunch, F.Site ? F.Site->What : nullptr);
  F.Values = detail::describe(E);
  detail::reportFailure(F);
}

cudaError_t cudaMalloc(void **DevPtr, size_t Size, const char *File,
                       unsigned Line) {
  cudaError_t Result = ::cudaMalloc(DevPtr, Size);
  detail::afterAllocation(Result, DevPtr, Size, "cudaMalloc", File, Line);
  return Result;
}

cudaError_t cudaMallocManaged(void **DevPtr, size_t Size, unsigned Flags,
                              const char *File, unsigned Line) {
  cudaError_t Result = ::cudaMallocManaged(DevPtr, Size, Flags);
  detail::afterAllocation(Result, DevPtr, Size, "cudaMallocManaged", File,
                          Line);
  return Result;
}

cudaError_t cudaMallocAsync(void **DevPtr, size_t Size, cudaStream_t Stream,
                            const char *File, unsigned Line) {
  cudaError_t Result = ::cudaMallocAsync(DevPtr, Size, Stream);
  detail::afterAllocation(Result, DevPtr, Size, "cudaMallocAsync", File, Line);
  return Result;
}

cudaError_t cudaSetDevice(int Device, const char *File, unsigned Line) {
  {
    detail::LastErrorGuard Guard;
    int Count = 0;
    if (Guard.ok(::cudaGetDeviceCount(&Count)) &&
        (Device < 0 || Device >= Count))
      detail::reportMissingDevice(Device, Count, File, Line);
  }
  return ::cudaSetDevice(Device);
}

cudaError_t cudaDeviceReset() {
  // The reset releases every allocation: none is left to report.
  detail::forgetWrappedAllocations();
  return ::cudaDeviceReset();
}

cudaError_t cudaMallocAsync(void **DevPtr, size_t Size, cudaMemPool_t Pool,
                            cudaStream_t Stream, const char *File,
                            unsigned Line) {
  cudaError_t Result = ::cudaMallocFromPoolAsync(DevPtr, Size, Pool, Stream);
  detail::afterAllocation(Result, DevPtr, Size, "cudaMallocAsync", File, Line);
  return Result;
}

// Unregistered before the memory is released, so that an allocation another
// thread gets at the same address is never removed by mistake.
cudaError_t cudaFree(void *DevPtr) {
  detail::unregisterAllocation(DevPtr);
  cudaError_t Result = ::cudaFree(DevPtr);
  detail::cudaState().prepare();
  return Result;
}

cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream) {
  detail::unregisterAllocation(DevPtr);
  cudaError_t Result = ::cudaFreeAsync(DevPtr, Stream);
  detail::cudaState().prepare();
  return Result;
}

cudaError_t cudaDeviceSynchronize() {
  unsigned long long Epoch = detail::cudaState().launchEpoch();
  cudaError_t Result = ::cudaDeviceSynchronize();
  detail::afterSynchronisation(Result, "cudaDeviceSynchronize",
                               /*DeviceWide=*/true, Epoch);
  return Result;
}

cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  cudaError_t Result = ::cudaStreamSynchronize(Stream);
  detail::afterSynchronisation(Result, "cudaStreamSynchronize",
                               /*DeviceWide=*/false);
  return Result;
}

cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  cudaError_t Result = ::cudaEventSynchronize(Event);
  detail::afterSynchronisation(Result, "cudaEventSynchronize",
                               /*DeviceWide=*/false);
  return Result;
}

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       cudaMemcpyKind Kind) {
  cudaError_t Result = ::cudaMemcpy(Dst, Src, Count, Kind);
  detail::afterSynchronisation(Result, "cudaMemcpy", /*DeviceWide=*/false);
  return Result;
}

} // namespace rt
} // namespace gpuguard
