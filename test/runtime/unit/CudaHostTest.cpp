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

#include <cstring>
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
const SiteTableRegistrar Registrar(Key, Sites, 4);

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
  ASSERT_EQ(Module.AllocationCount, 1u);
  EXPECT_EQ(Module.Allocations[0].Base, reinterpret_cast<std::uintptr_t>(A));
  EXPECT_TRUE(Lines.empty());
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

} // namespace
