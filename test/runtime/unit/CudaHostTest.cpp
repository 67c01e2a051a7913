//===- CudaHostTest.cpp - The CUDA host side, on a fake CUDA runtime ------===//
//
// The allocation registry as pushed to a module, the drain of its records
// (complete ones only, each once, buffer emptied after a device-wide
// synchronisation, overflow counted), launch and API errors, and
// asynchronous errors reported at the last launch. The "device" is host
// memory (FakeCudaRuntime.h); a test writes records into it as a kernel
// would.
//
//===----------------------------------------------------------------------===//

#include "CudaHost.h"
#include "FakeCudaRuntime.h"
#include "Reporter.h"

#include "gpuguard/rt.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace gpuguard::rt;

namespace {

constexpr unsigned long long Key = 0xc0daULL;

const SiteInfo Sites[] = {
    {"/src/k.cu", 4, 3, "fill", "cuda-unchecked-index", IndexBound, -1, "i"},
    {"/src/k.cu", 9, 5, "main", "cuda-unchecked-launch", KernelLaunch, -1,
     "fill"},
    {"/src/k.cu", 12, 3, "main", "cuda-unchecked-api-call", ApiResult, -1,
     "cudaMalloc"},
    {"/src/k.cu", 15, 5, "main", "cuda-unchecked-launch", KernelLaunch, -1,
     "reduce"},
};
const SiteTableRegistrar Registrar(Key, Sites, 4,
                                   GPUGUARD_SITE_TABLE_ABI_VERSION);

constexpr SiteRef IndexSite{Key, 0};
constexpr SiteRef FillLaunch{Key, 1};
constexpr SiteRef MallocSite{Key, 2};
constexpr SiteRef ReduceLaunch{Key, 3};

// Two modules' device state, as two translation units compiled as CUDA
// would have; the second is not loaded on the device.
detail::DeviceModuleState Module;
detail::DeviceModuleState Missing;
const bool Registered = [] {
  detail::registerDeviceModule(&Module);
  detail::registerDeviceModule(&Missing);
  return true;
}();

class CudaHostTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(Registered);
    std::memset(&Module, 0, sizeof(Module));
    std::memset(&Missing, 0, sizeof(Missing));
    fake_cuda::reset();
    fake_cuda::script().MissingSymbols.insert(&Missing);
    detail::resetCudaHostForTesting();
    reset(detail::Options());
  }
  void TearDown() override {
    detail::Options Quiet;
    Quiet.PrintSummary = false;
    detail::resetForTesting(Quiet, nullptr);
    fake_cuda::reset();
  }
  void reset(const detail::Options &O) {
    detail::resetForTesting(
        O, [this](const std::string &Line) { Lines.push_back(Line); });
  }

  /// What a failing checkIndex in block (1,0,0) thread (T,0,0) writes.
  void deviceRecord(unsigned long long Slot, unsigned T, bool Ready = true) {
    Record &R = Module.Records[Slot];
    R = Record();
    R.FileKey = Key;
    R.Index = 0;
    R.Values[0] = 100 + T;
    R.Values[1] = 100;
    R.Tags[0] = SignedValue;
    R.Tags[1] = SignedValue;
    R.Block[0] = 1;
    R.Thread[0] = T;
    R.Ready = Ready ? 1 : 0;
    if (Module.Claimed < Slot + 1)
      Module.Claimed = Slot + 1;
  }

  std::vector<std::string> Lines;
};

TEST_F(CudaHostTest, AllocationsArePushedSorted) {
  float *A = nullptr;
  int *B = nullptr;
  void *C = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 400), cudaSuccess);
  ASSERT_EQ(::gpuguard::rt::cudaMallocManaged(&B, 64), cudaSuccess);
  cudaStream_t Stream = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMallocAsync(&C, 4096, Stream), cudaSuccess);
  ASSERT_EQ(Module.AllocationCount, 3u);
  EXPECT_EQ(Module.HaltOnError, 0u);
  EXPECT_EQ(Module.Allocations[0].Base, reinterpret_cast<std::uintptr_t>(A));
  EXPECT_EQ(Module.Allocations[0].Bytes, 400u);
  EXPECT_LT(Module.Allocations[0].Base, Module.Allocations[1].Base);
  EXPECT_LT(Module.Allocations[1].Base, Module.Allocations[2].Base);
  EXPECT_EQ(Module.Allocations[2].Bytes, 4096u);
  // The device's lookup finds them in the pushed table.
  AllocationEntry Found;
  EXPECT_TRUE(detail::findAllocationIn(
      Module.Allocations, Module.AllocationCount,
      reinterpret_cast<std::uintptr_t>(B) + 63, Found));
  EXPECT_EQ(Found.Bytes, 64u);

  ASSERT_EQ(::gpuguard::rt::cudaFree(B), cudaSuccess);
  ASSERT_EQ(::gpuguard::rt::cudaFreeAsync(C, Stream), cudaSuccess);
  // Kernels launched before the frees may still run: the device keeps the
  // freed ranges until a device-wide synchronisation, while the host's
  // registry forgets them at once.
  EXPECT_EQ(Module.AllocationCount, 3u);
  EXPECT_FALSE(detail::findAllocation(B, Found));
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, reinterpret_cast<std::uintptr_t>(A));
  EXPECT_TRUE(Lines.empty());
}

TEST_F(CudaHostTest, KernelsNeverTrustATableBeingRewritten) {
  // Two allocations pushed; a third, between them in address, makes the
  // push rewrite and shift the table while "kernels" look addresses up in
  // the middle of every piece of every copy.
  std::vector<char> Arena(3 << 12);
  const auto At = [&](size_t Page) { return Arena.data() + (Page << 12); };
  detail::registerAllocation(At(0), 4096);
  detail::registerAllocation(At(2), 1024);
  void *Pushed = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&Pushed, 8), cudaSuccess);
  const std::vector<std::pair<const char *, unsigned long long>> Live = {
      {At(0), 4096}, {At(1), 512}, {At(2), 1024}};
  unsigned Lookups = 0, Unchecked = 0;
  fake_cuda::script().TearBytes = 8;
  fake_cuda::script().DuringCopy = [&] {
    for (const auto &Allocation : Live) {
      AllocationEntry Found;
      ++Lookups;
      if (!detail::findAllocationStable(
              Module, reinterpret_cast<std::uintptr_t>(Allocation.first) + 100,
              Found, [] {})) {
        ++Unchecked;
        continue;
      }
      // Whatever it finds is an allocation exactly as registered.
      EXPECT_EQ(Found.Base, reinterpret_cast<std::uintptr_t>(Allocation.first));
      EXPECT_EQ(Found.Bytes, Allocation.second);
    }
  };
  detail::registerAllocation(At(1), 512);
  ::gpuguard::rt::beforeLaunch();
  (void)::gpuguard::rt::cudaMalloc(&Pushed, 8);
  fake_cuda::script().DuringCopy = nullptr;
  // The window was exercised, and the finished table is whole.
  EXPECT_GT(Lookups, 0u);
  EXPECT_GT(Unchecked, 0u);
  EXPECT_EQ(Module.TableSequence % 2, 0u);
  for (const auto &Allocation : Live) {
    AllocationEntry Found;
    ASSERT_TRUE(detail::findAllocationStable(
        Module, reinterpret_cast<std::uintptr_t>(Allocation.first), Found,
        [] {}));
    EXPECT_EQ(Found.Bytes, Allocation.second);
  }
}

TEST_F(CudaHostTest, ALookupAcrossAPushChecksNothing) {
  // A sequence that changed between a lookup's first and last read: what
  // the lookup saw may mix two tables.
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 256), cudaSuccess);
  const auto Address = reinterpret_cast<std::uintptr_t>(A);
  AllocationEntry Found;
  ASSERT_TRUE(detail::findAllocationStable(Module, Address, Found, [] {}));
  bool First = true;
  EXPECT_FALSE(detail::findAllocationStable(Module, Address, Found, [&] {
    if (!First)
      Module.TableSequence += 2;
    First = false;
  }));
  ++Module.TableSequence;
  EXPECT_FALSE(detail::findAllocationStable(Module, Address, Found, [] {}));
}

TEST_F(CudaHostTest, StreamSynchronisationKeepsFreedRanges) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 256), cudaSuccess);
  ASSERT_EQ(::gpuguard::rt::cudaFree(A), cudaSuccess);
  // Another stream's kernels may still use the memory.
  ASSERT_EQ(::gpuguard::rt::cudaStreamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Module.AllocationCount, 1u);
  // A failed device-wide synchronisation proves nothing either.
  fake_cuda::script().Sticky = cudaErrorIllegalAddress;
  (void)::gpuguard::rt::cudaDeviceSynchronize();
  EXPECT_EQ(Module.AllocationCount, 1u);
}

TEST_F(CudaHostTest, ReuseWithASmallerSizeNeverShrinksARangeInUse) {
  // A stream-ordered free and a smaller allocation at the same address, as
  // cudaMallocAsync's pool hands out: a kernel still running on the old
  // allocation must not be checked against the new, smaller size.
  void *Old = nullptr;
  cudaStream_t Stream = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMallocAsync(&Old, 1024, Stream), cudaSuccess);
  const auto Base = reinterpret_cast<std::uintptr_t>(Old);
  ASSERT_EQ(::gpuguard::rt::cudaFreeAsync(Old, Stream), cudaSuccess);
  detail::registerAllocation(Old, 128); // what the next cudaMallocAsync gets
  void *Other = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&Other, 8), cudaSuccess);
  AllocationEntry Found;
  ASSERT_TRUE(detail::findAllocationIn(
      Module.Allocations, Module.AllocationCount, Base + 1000, Found));
  EXPECT_EQ(Found.Base, Base);
  EXPECT_EQ(Found.Bytes, 1024u);
  // Once nothing runs, the table is the live allocations again.
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_TRUE(detail::findAllocationIn(Module.Allocations,
                                       Module.AllocationCount, Base, Found));
  EXPECT_EQ(Found.Bytes, 128u);
  EXPECT_FALSE(detail::findAllocationIn(
      Module.Allocations, Module.AllocationCount, Base + 1000, Found));
}

TEST_F(CudaHostTest, HaltFlagIsPushed) {
  detail::Options Halt;
  Halt.HaltOnError = true;
  reset(Halt);
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  EXPECT_EQ(Module.HaltOnError, 1u);
}

TEST_F(CudaHostTest, FailedInternalCopiesLeaveNoErrorBehind) {
  // The copy into the missing module fails; the program must not see it.
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  EXPECT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  // A failure of the program's own call stays visible.
  fake_cuda::script().Everything = cudaErrorNoDevice;
  EXPECT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaErrorNoDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorNoDevice);
}

TEST_F(CudaHostTest, DrainReportsCompleteRecordsOnce) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  deviceRecord(0, 7);
  deviceRecord(1, 8);
  deviceRecord(2, 9, /*Ready=*/false);
  deviceRecord(3, 10);
  ASSERT_EQ(::gpuguard::rt::cudaStreamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:4:3: runtime error: index 'i' out of bounds "
                      "(index 107, bound 100) in kernel fill, block (1,0,0) "
                      "thread (7,0,0) [cuda-unchecked-index]");
  // Record 2 is still being written: it and what follows wait.
  EXPECT_EQ(detail::occurrences(IndexSite), 2u);
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 2u);
  Module.Records[2].Ready = 1;
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 4u);
  // Not device-wide: the buffer keeps its records.
  EXPECT_EQ(Module.Claimed, 4u);
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 4u);

  // After cudaDeviceSynchronize no kernel writes: the buffer is emptied.
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(Module.Claimed, 0u);
  for (unsigned Slot = 0; Slot < 4; ++Slot)
    EXPECT_EQ(Module.Records[Slot].Ready, 0u);
  deviceRecord(0, 11);
  ASSERT_EQ(::gpuguard::rt::cudaEventSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(detail::occurrences(IndexSite), 5u);
  ASSERT_EQ(
      ::gpuguard::rt::cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDeviceToHost),
      cudaSuccess);
  EXPECT_EQ(detail::occurrences(IndexSite), 5u);
  EXPECT_EQ(Lines.size(), 1u);
}

TEST_F(CudaHostTest, ALaunchDuringADeviceSynchronisationKeepsTheBuffer) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  deviceRecord(0, 7);
  // Another thread launches while this one waits: its kernel is not waited
  // for and may write at any time, so the buffer must not be emptied under
  // it (the emptying would erase its record).
  fake_cuda::script().DuringDeviceSynchronize = [] {
    (void)::gpuguard::rt::beforeLaunch();
  };
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  fake_cuda::script().DuringDeviceSynchronize = nullptr;
  EXPECT_EQ(detail::occurrences(IndexSite), 1u);
  EXPECT_EQ(Module.Claimed, 1u);
  deviceRecord(1, 8);
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 2u);
  // With no launch around it, the next one empties the buffer.
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(Module.Claimed, 0u);
}

TEST_F(CudaHostTest, ALaunchUnderWayAtADeviceSynchronisationKeepsTheBuffer) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  deviceRecord(0, 7);
  {
    // Begun before the synchronisation, issued after it started.
    auto Launch = ::gpuguard::rt::beforeLaunch();
    ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(Module.Claimed, 1u);
  }
  deviceRecord(1, 8);
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 2u);
}

TEST_F(CudaHostTest, OverflowIsCountedAsDropped) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  for (unsigned Slot = 0; Slot < detail::RecordCapacity; ++Slot)
    deviceRecord(Slot, Slot % 128);
  Module.Claimed = detail::RecordCapacity + 25;
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(detail::occurrences(IndexSite), detail::RecordCapacity);
  EXPECT_EQ(detail::totals().Dropped, 25u);
  EXPECT_EQ(Module.Claimed, 0u);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: 1024 runtime error(s) at 1 site(s); 25 "
            "record(s) dropped (device buffer full)");
}

TEST_F(CudaHostTest, SiteTalliesCountWhatTheirFirstRecordStandsFor) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  // The device's first failure at site 0 took a record marked Tallied; the
  // 5,000 after it only counted.
  deviceRecord(0, 7);
  Module.Records[0].Tallied = 1;
  Module.Sites[0] = detail::SiteTally{Key, 5001};
  Module.SiteSpan = 1;
  ASSERT_EQ(::gpuguard::rt::cudaStreamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(detail::occurrences(IndexSite), 5001u);
  // Read again: only what the tally added since.
  Module.Sites[0].Failures = 5003;
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 5003u);
  EXPECT_EQ(Lines.size(), 1u);
  // A device-wide synchronisation empties the tallies with the records.
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(Module.SiteSpan, 0u);
  EXPECT_EQ(Module.Sites[0].FileKey, 0u);
  EXPECT_EQ(Module.Sites[0].Failures, 0u);
  deviceRecord(0, 9);
  Module.Records[0].Tallied = 1;
  Module.Sites[0] = detail::SiteTally{Key, 2};
  Module.SiteSpan = 1;
  drain();
  EXPECT_EQ(detail::occurrences(IndexSite), 5005u);
  EXPECT_EQ(detail::summaryLine(),
            "SUMMARY: gpuguard: 5005 runtime error(s) at 1 site(s)");
}

TEST_F(CudaHostTest, ATallyCanCountASiteBeforeItsRecordIsReady) {
  void *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaSuccess);
  deviceRecord(0, 7, /*Ready=*/false);
  Module.Records[0].Tallied = 1;
  Module.Sites[0] = detail::SiteTally{Key, 40};
  Module.SiteSpan = 1;
  drain();
  EXPECT_TRUE(Lines.empty());
  EXPECT_EQ(detail::occurrences(IndexSite), 40u);
  Module.Records[0].Ready = 1;
  drain();
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(detail::occurrences(IndexSite), 40u);
}

TEST_F(CudaHostTest, LaunchErrorsAreReportedAtTheLaunch) {
  fake_cuda::script().Launch = cudaErrorInvalidConfiguration;
  checkLaunch(FillLaunch);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:9:5: runtime error: kernel launch 'fill' "
                      "failed (cudaErrorInvalidConfiguration: invalid "
                      "configuration argument) in main "
                      "[cuda-unchecked-launch]");
  // cudaPeekAtLastError: the program still sees it.
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  checkLaunch(ReduceLaunch);
  EXPECT_EQ(Lines.size(), 1u);
}

TEST_F(CudaHostTest, AsynchronousErrorsGoToTheLastLaunch) {
  checkLaunch(FillLaunch);
  checkLaunch(ReduceLaunch);
  // The kernel fails while it runs; the next synchronisation finds it.
  fake_cuda::script().Sticky = cudaErrorIllegalAddress;
  EXPECT_EQ(::gpuguard::rt::cudaStreamSynchronize(nullptr),
            cudaErrorIllegalAddress);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:15:5: runtime error: kernel 'reduce' failed "
                      "asynchronously (cudaErrorIllegalAddress: an illegal "
                      "memory access was encountered, found by "
                      "cudaStreamSynchronize) in main "
                      "[cuda-unchecked-launch]");
  // Sticky: later calls return it too, but it is one error.
  EXPECT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  checkLaunch(FillLaunch);
  EXPECT_EQ(checkApi(::gpuguard::rt::cudaDeviceSynchronize(), MallocSite),
            cudaErrorIllegalAddress);
  EXPECT_EQ(detail::totals().Errors, 2u);
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[1], "/src/k.cu:12:3: runtime error: CUDA call 'cudaMalloc' "
                      "failed (cudaErrorIllegalAddress: an illegal memory "
                      "access was encountered) in main "
                      "[cuda-unchecked-api-call]");
}

TEST_F(CudaHostTest, AsynchronousErrorBeforeAnyLaunch) {
  fake_cuda::script().Sticky = cudaErrorIllegalAddress;
  EXPECT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0].rfind("<unknown launch>:0:0: runtime error: kernel "
                           "failed asynchronously (cudaErrorIllegalAddress",
                           0),
            0u)
      << Lines[0];
}

TEST_F(CudaHostTest, CheckApiReportsFailuresOnly) {
  EXPECT_EQ(checkApi(cudaSuccess, MallocSite), cudaSuccess);
  EXPECT_TRUE(Lines.empty());
  EXPECT_EQ(checkApi(cudaErrorMemoryAllocation, MallocSite),
            cudaErrorMemoryAllocation);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:12:3: runtime error: CUDA call 'cudaMalloc' "
                      "failed (cudaErrorMemoryAllocation: out of memory) in "
                      "main [cuda-unchecked-api-call]");
  // Another API's status type is reported by number.
  enum class Status { Ok = 0, Bad = 7 };
  EXPECT_EQ(checkApi(Status::Bad, ReduceLaunch), Status::Bad);
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_NE(Lines[1].find("API call 'reduce' failed (status 7)"),
            std::string::npos)
      << Lines[1];
}

TEST_F(CudaHostTest, NoDeviceNoCrash) {
  fake_cuda::script().Everything = cudaErrorNoDevice;
  void *A = nullptr;
  EXPECT_EQ(::gpuguard::rt::cudaMalloc(&A, 8), cudaErrorNoDevice);
  EXPECT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaErrorNoDevice);
  drain();
  EXPECT_TRUE(Lines.empty());
}

// What tensorMemory() uses of a LibTorch tensor, with a storage that a test
// can free (reset Impl) or move (change Data), as resize_() would.
struct FakeStorageImpl {
  void *Data;
  void *data() const { return Data; }
};
struct FakeStorage {
  std::shared_ptr<FakeStorageImpl> Impl;
  unsigned long long Bytes;
  void *data() const { return Impl->Data; }
  unsigned long long nbytes() const { return Bytes; }
  std::weak_ptr<FakeStorageImpl> getWeakStorageImpl() const { return Impl; }
};
struct FakeTensor {
  FakeStorage Storage;
  bool Cuda = true;
  bool defined() const { return true; }
  bool is_cuda() const { return Cuda; }
  bool has_storage() const { return true; }
  const FakeStorage &storage() const { return Storage; }
};

FakeTensor cudaTensor(void *Data, unsigned long long Bytes) {
  return FakeTensor{FakeStorage{
      std::make_shared<FakeStorageImpl>(FakeStorageImpl{Data}), Bytes}};
}

std::uintptr_t address(const void *P) {
  return reinterpret_cast<std::uintptr_t>(P);
}

TEST_F(CudaHostTest, TensorStorageIsRegisteredWhileItLives) {
  alignas(16) static char Memory[1024];
  FakeTensor T = cudaTensor(Memory, 512);
  EXPECT_EQ(&tensorMemory(T), &T);
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, address(Memory));
  EXPECT_EQ(Module.Allocations[0].Bytes, 512u);
  AllocationEntry Found;
  EXPECT_TRUE(detail::findAllocation(Memory + 511, Found));
  EXPECT_FALSE(detail::findAllocation(Memory + 512, Found));

  // The same storage again, as every step of a loop registers it: the
  // registry does not change, so nothing is pushed.
  unsigned long long Generation = detail::allocationGeneration();
  tensorMemory(T);
  EXPECT_EQ(detail::allocationGeneration(), Generation);
  beforeLaunch();
  EXPECT_EQ(detail::allocationGeneration(), Generation);
  EXPECT_EQ(Module.AllocationCount, 1u);

  // Freed: the host forgets it at the next launch, the device once no
  // kernel that may use it runs any more.
  T.Storage.Impl.reset();
  beforeLaunch();
  EXPECT_FALSE(detail::findAllocation(Memory, Found));
  EXPECT_EQ(Module.AllocationCount, 1u);
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(Module.AllocationCount, 0u);
  EXPECT_TRUE(Lines.empty());
}

TEST_F(CudaHostTest, MovedStorageIsDropped) {
  alignas(16) static char Memory[1024];
  FakeTensor T = cudaTensor(Memory, 256);
  tensorMemory(T);
  ASSERT_EQ(Module.AllocationCount, 1u);
  // resize_() gave the storage a new block; the old one may be reused.
  T.Storage.Impl->Data = Memory + 512;
  beforeLaunch();
  AllocationEntry Found;
  EXPECT_FALSE(detail::findAllocation(Memory, Found));
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(Module.AllocationCount, 0u);
}

TEST_F(CudaHostTest, ReusedMemoryReplacesTheOldEntry) {
  alignas(16) static char Memory[1024];
  // A storage whose owner is still alive (a leaked or long-lived tensor)
  // and a new one over part of its bytes: the host keeps the newer one; the
  // device covers both until no kernel on the old one can run.
  FakeTensor Old = cudaTensor(Memory, 256);
  FakeTensor New = cudaTensor(Memory + 128, 512);
  tensorMemory(Old);
  tensorMemory(New);
  AllocationEntry Found;
  ASSERT_TRUE(detail::findAllocation(Memory + 200, Found));
  EXPECT_EQ(Found.Base, address(Memory + 128));
  EXPECT_FALSE(detail::findAllocation(Memory, Found));
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, address(Memory));
  EXPECT_EQ(Module.Allocations[0].Bytes, 640u);
  ASSERT_EQ(::gpuguard::rt::cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, address(Memory + 128));
  EXPECT_EQ(Module.Allocations[0].Bytes, 512u);
}

TEST_F(CudaHostTest, OnlyCudaTensorsOutsideWrappedAllocationsAreRegistered) {
  alignas(16) static char Memory[256];
  FakeTensor Cpu = cudaTensor(Memory, 256);
  Cpu.Cuda = false;
  tensorMemory(Cpu);
  EXPECT_EQ(Module.AllocationCount, 0u);

  // Memory inside an allocation the wrappers made keeps that allocation's
  // entry.
  float *A = nullptr;
  ASSERT_EQ(::gpuguard::rt::cudaMalloc(&A, 400), cudaSuccess);
  FakeTensor Inside = cudaTensor(A + 10, 40);
  tensorMemory(Inside);
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, address(A));
  EXPECT_EQ(Module.Allocations[0].Bytes, 400u);

  // Entries of both kinds go to the device sorted, for its binary search.
  alignas(16) static char Low[64];
  FakeTensor Before = cudaTensor(Low, 64);
  tensorMemory(Before);
  ASSERT_EQ(Module.AllocationCount, 2u);
  EXPECT_LT(Module.Allocations[0].Base, Module.Allocations[1].Base);
  ASSERT_EQ(::gpuguard::rt::cudaFree(A), cudaSuccess);
}

} // namespace

namespace {

TEST_F(CudaHostTest, LiveAllocationsAreListedByTheLineThatMadeThem) {
  void *A = nullptr, *B = nullptr, *C = nullptr, *D = nullptr;
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&A, 4096, "/src/train.cu", 42),
            cudaSuccess);
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&B, 4096, "/src/train.cu", 42),
            cudaSuccess);
  ASSERT_EQ(gpuguard::rt::cudaMallocManaged(&C, 1 << 20, cudaMemAttachGlobal,
                                            "/src/train.cu", 57),
            cudaSuccess);
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&D, 100, "/src/train.cu", 60),
            cudaSuccess);
  ASSERT_EQ(gpuguard::rt::cudaFree(D), cudaSuccess);
  Lines.clear();
  gpuguard::rt::reportLiveAllocations();
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0], "gpuguard: device memory still allocated: 3 "
                      "allocation(s), 1056768 bytes (1.0 MiB) "
                      "[cuda-device-memory-leak]");
  // Largest first; the freed allocation is gone.
  EXPECT_EQ(Lines[1], "  1048576 bytes (1.0 MiB) in 1 allocation(s) by "
                      "cudaMallocManaged at /src/train.cu:57");
  EXPECT_EQ(Lines[2], "  8192 bytes (8.0 KiB) in 2 allocation(s) by "
                      "cudaMalloc at /src/train.cu:42");
  // A reset releases them all.
  ASSERT_EQ(gpuguard::rt::cudaDeviceReset(), cudaSuccess);
  Lines.clear();
  gpuguard::rt::reportLiveAllocations();
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "gpuguard: no device memory allocated through the CUDA "
                      "wrappers is live");
}

TEST_F(CudaHostTest, InstrumentedAllocationsCarryTheLineWrittenForThem) {
  // As `gpuguard instrument` writes them, one statement over two lines:
  // each call keeps the line of the template, whatever line the compiler
  // gives the statement.
  float *Weights = nullptr;
  void *Scratch = nullptr;
  ASSERT_TRUE(gpuguard::rt::CalledAt<18>::cudaMalloc(&Weights, 4096) ==
                  cudaSuccess &&
              gpuguard::rt::CalledAt<19>::cudaMallocManaged(&Scratch, 100) ==
                  cudaSuccess);
  Lines.clear();
  gpuguard::rt::reportLiveAllocations();
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[1], "  4096 bytes (4.0 KiB) in 1 allocation(s) by "
                      "cudaMalloc at " __FILE__ ":18");
  EXPECT_EQ(Lines[2], "  100 bytes in 1 allocation(s) by "
                      "cudaMallocManaged at " __FILE__ ":19");
  ASSERT_EQ(gpuguard::rt::cudaDeviceReset(), cudaSuccess);
}

TEST_F(CudaHostTest, OutOfMemoryNamesWhatHoldsTheDevice) {
  fake_cuda::script().Capacity = 3 << 20;
  void *Weights = nullptr, *Activations = nullptr, *Big = nullptr;
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&Weights, 2 << 20, "/src/model.cu", 10),
            cudaSuccess);
  ASSERT_EQ(
      gpuguard::rt::cudaMalloc(&Activations, 512 << 10, "/src/model.cu", 11),
      cudaSuccess);
  Lines.clear();
  EXPECT_EQ(gpuguard::rt::cudaMalloc(&Big, 1 << 20, "/src/model.cu", 30),
            cudaErrorMemoryAllocation);
  ASSERT_EQ(Lines.size(), 4u);
  EXPECT_EQ(Lines[0],
            "/src/model.cu:30:0: runtime error: 'cudaMalloc' of 1048576 "
            "bytes (1.0 MiB) failed: out of memory (the device has 524288 "
            "bytes (512.0 KiB) free of 3145728 bytes (3.0 MiB)) "
            "[out-of-memory]");
  EXPECT_EQ(Lines[1], "  live through the CUDA wrappers: 2 allocation(s), "
                      "2621440 bytes (2.5 MiB); the largest:");
  EXPECT_EQ(Lines[2], "    2097152 bytes (2.0 MiB) in 1 allocation(s) by "
                      "cudaMalloc at /src/model.cu:10");
  EXPECT_EQ(Lines[3], "    524288 bytes (512.0 KiB) in 1 allocation(s) by "
                      "cudaMalloc at /src/model.cu:11");
  EXPECT_EQ(detail::totals().Errors, 1u);
  // The program still sees the error, and nothing was registered.
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  EXPECT_EQ(detail::liveAllocations().size(), 2u);
}

TEST_F(CudaHostTest, AMissingDeviceNamesTheCountAndTheRank) {
  fake_cuda::script().DeviceCount = 2;
  for (const char *Name :
       {"CUDA_VISIBLE_DEVICES", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"})
    unsetenv(Name);
  setenv("LOCAL_RANK", "1", 1);
  setenv("RANK", "7", 1);
  EXPECT_EQ(gpuguard::rt::cudaSetDevice(1, "/src/train.cu", 41), cudaSuccess);
  EXPECT_TRUE(Lines.empty());
  // The global rank where the local one was meant.
  EXPECT_EQ(gpuguard::rt::cudaSetDevice(7, "/src/train.cu", 42),
            cudaErrorInvalidDevice);
  unsetenv("LOCAL_RANK");
  unsetenv("RANK");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/train.cu:42:0: runtime error: 'cudaSetDevice' "
                      "names device 7 and this process sees 2 GPU(s) "
                      "(LOCAL_RANK=1; RANK=7) "
                      "[cuda-unvalidated-device-ordinal]");
  EXPECT_EQ(fake_cuda::script().CurrentDevice, 1);
  // Without a driver the count is unknown, and nothing is said.
  Lines.clear();
  fake_cuda::script().Everything = cudaErrorNoDevice;
  EXPECT_EQ(gpuguard::rt::cudaSetDevice(0, "/src/train.cu", 43),
            cudaErrorNoDevice);
  EXPECT_TRUE(Lines.empty());
}

TEST_F(CudaHostTest, AModuleWithNoImageForTheGpuIsSaidBeforeItsLaunch) {
  // The second module was built for other GPUs: its state cannot be copied.
  fake_cuda::script().MissingSymbolError = cudaErrorNoKernelImageForDevice;
  void *P = nullptr;
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&P, 256, "/src/k.cu", 3), cudaSuccess);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0],
            "gpuguard: this program's kernels cannot run on this GPU "
            "(cudaErrorNoKernelImageForDevice: no kernel image is available "
            "for execution on the device; GPU 0 is sm_90 and the program has "
            "neither SASS for it nor PTX older than it: rebuild with -gencode "
            "arch=compute_90,code=sm_90 ('gpuguard doctor <program>' lists "
            "what it has))");
  // Once: later pushes do not say it again, and the program's own error
  // state is untouched.
  void *Q = nullptr;
  ASSERT_EQ(gpuguard::rt::cudaMalloc(&Q, 256, "/src/k.cu", 4), cudaSuccess);
  (void)beforeLaunch();
  EXPECT_EQ(Lines.size(), 1u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(CudaHostTest, ADriverForAnOlderMajorVersionIsSaidOnce) {
  EXPECT_EQ(detail::driverMismatchNotice(12020, 13000),
            "gpuguard: the CUDA driver supports CUDA 12.2 and this program's "
            "CUDA runtime is 13.0: every CUDA call will fail with "
            "cudaErrorInsufficientDriver; install a driver for CUDA 13 or "
            "newer ('gpuguard doctor <program>' says more)");
  // Minor version compatibility: a 12.2 driver runs a 12.8 runtime.
  EXPECT_EQ(detail::driverMismatchNotice(12020, 12080), "");
  EXPECT_EQ(detail::driverMismatchNotice(13000, 12080), "");
  // No driver at all: the first call that fails says so.
  EXPECT_EQ(detail::driverMismatchNotice(0, 13000), "");
}

TEST_F(CudaHostTest, LiveAllocationGroupsAreCapped) {
  std::vector<detail::LiveAllocation> Live;
  for (unsigned Line = 1; Line <= 7; ++Line)
    Live.push_back({0x1000ull * Line, 16ull * Line,
                    detail::AllocationOrigin{"cudaMalloc", "/src/a.cu", Line}});
  Live.push_back({0x9000, 8, detail::AllocationOrigin{}});
  std::vector<std::string> Lines = detail::describeLiveAllocations(Live, 3);
  ASSERT_EQ(Lines.size(), 4u);
  EXPECT_EQ(Lines[0], "112 bytes in 1 allocation(s) by cudaMalloc at "
                      "/src/a.cu:7");
  EXPECT_EQ(Lines[3], "... and 5 more line(s)");
  Lines = detail::describeLiveAllocations({Live.back()}, 3);
  EXPECT_EQ(Lines,
            std::vector<std::string>{"8 bytes in 1 allocation(s) (made outside "
                                     "instrumented code)"});
}

} // namespace

namespace {

TEST_F(CudaHostTest, MachineErrorsAreExplained) {
  fake_cuda::script().Launch = cudaErrorNoKernelImageForDevice;
  checkLaunch(FillLaunch);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0],
            "/src/k.cu:9:5: runtime error: kernel launch 'fill' failed "
            "(cudaErrorNoKernelImageForDevice: no kernel image is available "
            "for execution on the device; GPU 0 is sm_90 and the program has "
            "neither SASS for it nor PTX older than it: rebuild with "
            "-gencode arch=compute_90,code=sm_90 ('gpuguard doctor "
            "<program>' lists what it has)) in main [cuda-unchecked-launch]");
  // The explanation's own queries leave the program's error alone.
  EXPECT_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);

  fake_cuda::script().DriverVersion = 12020;
  EXPECT_EQ(checkApi(cudaErrorInsufficientDriver, MallocSite),
            cudaErrorInsufficientDriver);
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_NE(Lines[1].find("(cudaErrorInsufficientDriver: CUDA driver version "
                          "is insufficient for CUDA runtime version; the "
                          "driver supports CUDA 12.2 and the program's "
                          "runtime is 13.0: install a driver for CUDA 13)"),
            std::string::npos)
      << Lines[1];
}

} // namespace
