// The strict profile: every launch and status with no check on a path out of
// its function. The default profile, which also asks for evidence, is
// cuda-unchecked-api-call-evidence.cu; here it reports only the two unmarked
// lines.
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-api-call %t.strict -- --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffix=OPTIONS %s cuda-unchecked-api-call %t.options -- --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true, cuda-unchecked-api-call.AllowVoidCast: false, cuda-unchecked-api-call.CheckedFunctions: 'checkKernel;KERNEL_CHECK;myproj::verifyLaunch', cuda-unchecked-api-call.CheckedReturnTypes: 'cudaError_t;cublasStatus_t', cuda-unchecked-api-call.RequireCheckBeforeReturn: false, cuda-unchecked-api-call.CheckTeardownResults: true}}" -- %cuda_mock_flags -DOPTIONS

#include <cuda_runtime.h>

extern "C" int printf(const char *Format, ...);
extern "C" void exit(int Status) __attribute__((noreturn));

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("%s\n", cudaGetErrorString(err_));                                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// checkCudaErrors, as in the CUDA samples: the status is an argument.
void check(cudaError_t Result, const char *Call, const char *File, int Line);
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

// C10_CUDA_CHECK and C10_CUDA_KERNEL_LAUNCH_CHECK, as in PyTorch.
namespace c10::cuda {
void c10_cuda_check_implementation(int Error, const char *File, int Line);
} // namespace c10::cuda
#define C10_CUDA_CHECK(EXPR)                                                   \
  do {                                                                         \
    const cudaError_t __err = EXPR;                                            \
    c10::cuda::c10_cuda_check_implementation(static_cast<int>(__err),          \
                                             __FILE__, __LINE__);              \
  } while (0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())

void report(cudaError_t Error);

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] *= 2.0f;
}

template <class T> __global__ void fill(T *out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

#ifndef OPTIONS

// ---- Dropped results -------------------------------------------------------

void droppedResults(float *d, const float *h, size_t bytes) {
  cudaMalloc(&d, bytes);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  cudaMemset(d, 0, bytes);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemset' is discarded [cuda-unchecked-api-call]
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemcpy' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  // A release's own failure is seldom checked, and a kernel fault it would
  // surface is the launch's finding: left out unless CheckTeardownResults.
  cudaFree(d);
}

// ---- Checked results -------------------------------------------------------

cudaError_t checkedResults(float *d, const float *h, size_t bytes,
                           cudaStream_t s) {
  CUDA_CHECK(cudaMalloc(&d, bytes));
  checkCudaErrors(cudaMemset(d, 0, bytes));
  C10_CUDA_CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
  if (cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
    return cudaErrorUnknown;
  cudaError_t err = cudaStreamSynchronize(s);
  err = cudaDeviceSynchronize();
  report(err);
  report(cudaFree(d));
  bool failed = cudaFree(d) != cudaSuccess;
  switch (cudaStreamSynchronize(s)) {
  case cudaSuccess:
    break;
  default:
    failed = true;
  }
  if (failed)
    return cudaErrorUnknown;
  return cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
}

// A cast to void says that the result is dropped on purpose.
void deliberatelyDropped(float *d) {
  (void)cudaFree(d);
  static_cast<void>(cudaMalloc(&d, 4));
}

// ---- Where a value is dropped ----------------------------------------------

void droppedForms(float *d, bool c, int k) {
  if (c)
    cudaMalloc(&d, 4);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  cudaMalloc(&d, 4), cudaMalloc(&d, 8);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:22: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  cudaError_t err = (cudaMalloc(&d, 4), cudaMalloc(&d, 8));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:22: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  c ? cudaMalloc(&d, 4) : cudaMalloc(&d, 8);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:7: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:27: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  err = c ? cudaMalloc(&d, 4) : cudaMalloc(&d, 8);
  (int)cudaMalloc(&d, 4);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:8: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  err = (cudaError_t)(int)cudaMalloc(&d, 4);
  for (int i = 0; i < k; cudaMalloc(&d, 4), ++i)
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:26: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
    ;
  while (cudaMalloc(&d, 4) != cudaSuccess)
    ;
  switch (k) {
  case 0:
    cudaMalloc(&d, 4);
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
    break;
  }
  ({ cudaMalloc(&d, 4); });
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:6: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  err = ({ cudaMalloc(&d, 4); });
  (void)sizeof(cudaMalloc(&d, 4));
  report(err);
}

// ---- Calls recognised by their return type ---------------------------------

// The driver API, as cuda.h declares it.
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef unsigned long long CUdeviceptr;
extern "C" CUresult cuMemAlloc(CUdeviceptr *Ptr, size_t Bytes);
extern "C" CUresult cuCtxSynchronize(void);

cudaError_t launchScale(float *out, int n);
struct DeviceBuffer {
  cudaError_t release();
};

void byReturnType(DeviceBuffer &buffer, float *out, int n) {
  launchScale(out, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'launchScale' is discarded [cuda-unchecked-api-call]
  buffer.release();
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'release' is discarded [cuda-unchecked-api-call]
  cudaError_t (*freeFn)(void *) = cudaFree;
  freeFn(out);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'freeFn' is discarded [cuda-unchecked-api-call]
  CUdeviceptr ptr;
  cuMemAlloc(&ptr, 4);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'CUresult' result of 'cuMemAlloc' is discarded [cuda-unchecked-api-call]
  cuCtxSynchronize();
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'CUresult' result of 'cuCtxSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  if (launchScale(out, n) != cudaSuccess || buffer.release() != cudaSuccess ||
      freeFn(out) != cudaSuccess || cuMemAlloc(&ptr, 4) != CUDA_SUCCESS ||
      cuCtxSynchronize() != CUDA_SUCCESS)
    return;
  cudaGetErrorString(cudaSuccess);
}

// Templates are checked once, as written.
template <class T> void templated(T *d, size_t n) {
  cudaMalloc(&d, n * sizeof(T));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  CUDA_CHECK(cudaFree(d));
}
template void templated<float>(float *, size_t);
template void templated<int>(int *, size_t);

// A status handler returns the status it was given (the checkCuda of
// NVIDIA's blog samples, which checks only in debug builds): what it hands
// back is no new status, also where a template's call is still dependent.
inline cudaError_t checkCuda(cudaError_t result) {
#ifdef DEBUG
  if (result != cudaSuccess)
    exit(1);
#endif
  return result;
}
template <class T> void handled(T *d, size_t n) {
  checkCuda(cudaMemset(d, 0, n * sizeof(T)));
  checkCuda(cudaDeviceSynchronize());
}
template void handled<float>(float *, size_t);

// ---- Device code -----------------------------------------------------------

__device__ cudaError_t deviceStatus();

__device__ void deviceCode() {
  deviceStatus();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'deviceStatus' is discarded [cuda-unchecked-api-call]
  if (deviceStatus() != cudaSuccess)
    return;
}

__global__ void kernelCallingTheRuntime(int *flags) {
  cudaGetLastError();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaGetLastError' is discarded, so the launch error it reports is lost [cuda-unchecked-api-call]
  flags[0] = cudaPeekAtLastError() != cudaSuccess;
}

__host__ __device__ void bothSides(float *d) {
  cudaMalloc((void **)&d, 4);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  if (cudaFree(d) != cudaSuccess)
    return;
}

// ---- Kernel launches -------------------------------------------------------

void launchThenDroppedSync(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: the 'cudaError_t' result of 'cudaDeviceSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
}

void launchThenCheckedSync(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  CUDA_CHECK(cudaDeviceSynchronize());
}

void launchChecked(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

// A visible helper that reads the last error is a check.
static void checkLastLaunch(const char *Kernel) {
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("%s: %s\n", Kernel, cudaGetErrorString(err));
    exit(1);
  }
}

static cudaError_t lastLaunchError() { return cudaGetLastError(); }

void launchCheckForms(float *d, int n, cudaStream_t s) {
  scale<<<1, 256, 0, s>>>(d, n);
  if (cudaPeekAtLastError() != cudaSuccess)
    return;
  scale<<<1, 256>>>(d, n);
  checkCudaErrors(cudaGetLastError());
  scale<<<1, 256>>>(d, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  scale<<<1, 256>>>(d, n);
  cudaError_t err = cudaGetLastError();
  report(err);
  fill<<<1, 256>>>(d, 0.0f, n);
  checkLastLaunch("fill");
  fill<<<1, 256>>>(d, 1.0f, n);
  if (lastLaunchError() != cudaSuccess)
    return;
  CUDA_CHECK(cudaStreamSynchronize(s));
}

// A check after a synchronisation still sees what the synchronisation
// surfaced: a failed call leaves its error as the thread's last error.
void launchSyncThenChecked(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkLastLaunch("scale");
  scale<<<1, 256>>>(d, n);
  cudaStreamSynchronize(0);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaStreamSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  CUDA_CHECK(cudaGetLastError());
}

void launchSyncThenCheckedOnOneBranch(float *d, int n, bool debug) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  if (debug)
    checkLastLaunch("scale");
}

// A path that ends the process after a synchronisation is not followed, as
// any path into a call that never returns: here a check macro's own exit.
void launchSyncThenExit(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaFree(d));
  exit(0);
}

void launchThenDroppedHelperResult(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  lastLaunchError();
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: the 'cudaError_t' result of 'lastLaunchError' is discarded [cuda-unchecked-api-call]
}

cudaError_t launchReturningItsError(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  return cudaGetLastError();
}

void launchAtTheEnd(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:1: note: the function returns here with the launch unchecked
}

void launchInAFunctionTryBlock(float *d, int n) try {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
} catch (...) {
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:1: note: the function returns here with the launch unchecked
}

void launchWithAnEarlyReturn(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  if (n == 0)
    return;
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: note: the function returns here with the launch unchecked
  CUDA_CHECK(cudaGetLastError());
}

// Paths that end the process or throw are not followed.
void launchWithAFatalExit(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  if (n < 0)
    exit(1);
  if (!d)
    throw n;
  CUDA_CHECK(cudaGetLastError());
}

void launchCheckedOnOneBranch(float *d, int n, bool debug) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  if (debug)
    CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
}

void launchCheckedOnBothBranches(float *d, int n, bool verbose) {
  scale<<<1, 256>>>(d, n);
  if (verbose) {
    cudaError_t err = cudaGetLastError();
    printf("scale: %s\n", cudaGetErrorString(err));
  } else {
    CUDA_CHECK(cudaPeekAtLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void launchesInALoop(float **d, int batches, int n) {
  for (int b = 0; b < batches; ++b) {
    scale<<<1, 256>>>(d[b], n);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void launchesInALoopCheckedAfterIt(float **d, int batches, int n) {
  for (int b = 0; b < batches; ++b)
    scale<<<1, 256>>>(d[b], n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The check after the synchronisation in the same iteration sees the launch's
// error: it stays the last error until read.
void launchAndSyncInALoop(float **d, int batches, int n, cudaStream_t s) {
  for (int b = 0; b < batches; ++b) {
    scale<<<1, 256, 0, s>>>(d[b], n);
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaGetLastError());
  }
}

void launchAndSyncInALoopCheckedOnce(float **d, int batches, int n,
                                     cudaStream_t s) {
  for (int b = 0; b < batches; ++b) {
    scale<<<1, 256, 0, s>>>(d[b], n);
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
    CUDA_CHECK(cudaStreamSynchronize(s));
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:16: note: the kernel's errors surface here instead, in the result of 'cudaStreamSynchronize'
    if (b == 0)
      CUDA_CHECK(cudaGetLastError());
  }
}

// Reported once, where the error surfaces first.
void launchBeforeSeveralSyncs(float *d, float *h, int n) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaMemcpy'
  CUDA_CHECK(cudaDeviceSynchronize());
}

void launchThenEventSync(float *d, int n, cudaStream_t s, cudaEvent_t done) {
  scale<<<1, 256, 0, s>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  CUDA_CHECK(cudaEventRecord(done, s));
  CUDA_CHECK(cudaEventSynchronize(done));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaEventSynchronize'
}

// Asynchronous copies and event records do not wait for the kernel.
void launchThenAsyncWork(float *d, float *h, int n, cudaStream_t s,
                         cudaEvent_t done) {
  scale<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                             s));
  CUDA_CHECK(cudaEventRecord(done, s));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventSynchronize(done));
}

// A dropped cudaGetLastError() clears the launch's error and checks nothing.
void launchThenDroppedCheck(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  cudaGetLastError();
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: the 'cudaError_t' result of 'cudaGetLastError' is discarded, so the launch error it reports is lost [cuda-unchecked-api-call]
}

// ... unless it is dropped on purpose.
void launchThenDeliberatelyDroppedCheck(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  (void)cudaGetLastError();
  CUDA_CHECK(cudaDeviceSynchronize());
}

void launchInALambda(float *d, int n) {
  auto run = [&] {
    scale<<<1, 256>>>(d, n);
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
    // CHECK-NOTES-STRICT: :[[@LINE+1]]:3: note: the function returns here with the launch unchecked
  };
  auto runChecked = [&] {
    scale<<<1, 256>>>(d, n);
    CUDA_CHECK(cudaGetLastError());
  };
  run();
  runChecked();
}

template <class T> void launchTemplated(T *d, int n) {
  fill<<<1, 256>>>(d, T(), n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'fill' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:1: note: the function returns here with the launch unchecked
}
template void launchTemplated<float>(float *, int);

// ---- Suppression -----------------------------------------------------------

void suppressed(float *d, int n) {
  cudaFree(d); // NOLINT(cuda-unchecked-api-call)
  // NOLINTNEXTLINE(cuda-unchecked-api-call)
  scale<<<1, 256>>>(d, n);
}

#else // OPTIONS

// ---- AllowVoidCast: false --------------------------------------------------

// ---- CheckTeardownResults: true --------------------------------------------

void teardown(float *d) {
  cudaFree(d);
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaFree' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
}

void voidCasts(float *d, int n) {
  (void)cudaFree(d);
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:9: warning: the 'cudaError_t' result of 'cudaFree' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  static_cast<void>(cudaMalloc(&d, 4));
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:21: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
  scale<<<1, 256>>>(d, n);
  (void)cudaGetLastError();
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-OPTIONS: :[[@LINE-3]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-OPTIONS: :[[@LINE-2]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  // CHECK-NOTES-OPTIONS: :[[@LINE-4]]:9: warning: the 'cudaError_t' result of 'cudaGetLastError' is discarded, so the launch error it reports is lost [cuda-unchecked-api-call]
}

// ---- CheckedFunctions: checkKernel;KERNEL_CHECK;myproj::verifyLaunch -------

void checkKernel(const char *Kernel);
void reportLaunch(int Line);
#define KERNEL_CHECK() reportLaunch(__LINE__)
namespace myproj {
void verifyLaunch();
} // namespace myproj
namespace other {
void verifyLaunch();
} // namespace other

void listedChecks(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  checkKernel("scale");
  scale<<<1, 256>>>(d, n);
  KERNEL_CHECK();
  scale<<<1, 256>>>(d, n);
  myproj::verifyLaunch();
  // The macro is listed, not the function it calls.
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  reportLaunch(__LINE__);
  other::verifyLaunch();
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
}

// ---- RequireCheckBeforeReturn: false ---------------------------------------

void launcherLeavesTheCheckToItsCaller(float *d, int n) {
  scale<<<1, 256>>>(d, n);
}

void launcherThatSynchronises(float *d, int n) {
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  CUDA_CHECK(cudaDeviceSynchronize());
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
}

// ---- CheckedReturnTypes: cudaError_t;cublasStatus_t ------------------------

typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
typedef struct cublasContext *cublasHandle_t;
cublasStatus_t cublasCreate(cublasHandle_t *Handle);
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
extern "C" CUresult cuCtxSynchronize(void);

void otherStatusTypes() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  // CHECK-NOTES-OPTIONS: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasCreate' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return;
  cuCtxSynchronize();
}

#endif // OPTIONS
