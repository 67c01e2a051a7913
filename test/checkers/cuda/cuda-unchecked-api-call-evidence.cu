// The default profile reports an unchecked error only where the program
// shows it is lost: a path to the end of `main` with no check, a kernel that
// runs on what a failed setup call left, or a launch a checked
// synchronisation cannot see rejected. Errors a later check still reads,
// and functions whose callers are out of sight, are the strict profile's
// (STRICT lines); DEFAULT lines are notes only the default profile adds.
// RUN: %check_gpuguard --check-suffixes=,DEFAULT %s cuda-unchecked-api-call %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-api-call %t.strict -- --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags
//
// A file that checks no error anywhere has chosen not to: nothing is
// reported by default.
// RUN: %check_gpuguard --check-suffix=NONE %s cuda-unchecked-api-call %t.none -- -- %cuda_mock_flags -DNO_CHECKS

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      __builtin_trap();                                                        \
  } while (0)

__global__ void scale(float *d, int n) {}

#ifndef NO_CHECKS

// ---- Errors read by a later check ------------------------------------------

// A failed call leaves its error as the thread's last error: the check a
// line later reads it (the cudaCheckError() idiom).
void droppedThenLastErrorChecked(cudaStream_t *stream) {
  cudaStreamCreate(stream);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaStreamCreate' is discarded [cuda-unchecked-api-call]
  CUDA_CHECK(cudaGetLastError());
}

// A kernel runs on what a failed copy left: reported even though a check
// follows the launch.
void droppedCopyBeforeALaunch(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemcpy' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  scale<<<1, 256>>>(d, n);
  // CHECK-NOTES-DEFAULT: :[[@LINE-1]]:3: note: 'scale' is launched here before the error is checked
  CUDA_CHECK(cudaGetLastError());
}

// ---- Checked synchronisations ----------------------------------------------

// A checked synchronisation reports the kernel's faults: checked. A launch
// the driver rejects for its configuration only cudaGetLastError() reports;
// the strict profile asks for that.
void launchThenCheckedSync(float *d, int n) {
  scale<<<64, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:14: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  CUDA_CHECK(cudaDeviceSynchronize());
}

int launchesFromMain(float *d, const float *h, int n, int threads);
int checksInHelpersAndLoops(float *h, float *d, int n, int steps);
int handledStatuses(float *d, const float *h, int n);
int dropsInHelpers(float *d, int n);

int main(int argc, char **argv) {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
  dropsInHelpers(d, argc);
  launchesFromMain(d, nullptr, 1024, argc);
  checksInHelpersAndLoops(nullptr, d, 1024, argc);
  handledStatuses(d, nullptr, 1024);
  // Profiler control changes only what a profiler records.
  cudaProfilerStop();
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaProfilerStop' is discarded [cuda-unchecked-api-call]
  // An unchecked synchronisation: the launch's errors are lost.
  scale<<<4, 128>>>(d, argc);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+4]]:3: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  // CHECK-NOTES-DEFAULT: :[[@LINE+4]]:3: note: the function returns here with the launch unchecked
  // CHECK-NOTES: :[[@LINE+2]]:3: warning: the 'cudaError_t' result of 'cudaDeviceSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  // CHECK-NOTES-DEFAULT: :[[@LINE+2]]:3: note: the function returns here with the error unchecked
  cudaDeviceSynchronize();
  return 0;
}

// ---- Thin launchers --------------------------------------------------------

// Called by launchesFromMain, which checks: checked.
void launchForACheckingCaller(float *d, int n) { scale<<<4, 256>>>(d, n); }
// CHECK-NOTES-STRICT: :[[@LINE-1]]:50: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
// CHECK-NOTES-STRICT: :[[@LINE-2]]:75: note: the function returns here with the launch unchecked

// Called by launchesFromMain, which returns to main without a check, and
// main returns: the error is lost.
void launchForAnUncheckingCaller(float *d, int n) { scale<<<4, 256>>>(d, n); }
// CHECK-NOTES: :[[@LINE-1]]:53: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
// CHECK-NOTES: :[[@LINE-2]]:78: note: the function returns here with the launch unchecked
// CHECK-NOTES-DEFAULT: :[[@LINE+10]]:3: note: 'launchForAnUncheckingCaller' is called here, and no caller checks the error before 'main' returns

// No caller in this file: whoever calls it, elsewhere, decides.
void launchForCallersElsewhere(float *d, int n) { scale<<<4, 256>>>(d, n); }
// CHECK-NOTES-STRICT: :[[@LINE-1]]:51: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
// CHECK-NOTES-STRICT: :[[@LINE-2]]:76: note: the function returns here with the launch unchecked

int launchesFromMain(float *d, const float *h, int n, int threads) {
  launchForACheckingCaller(d, n);
  CUDA_CHECK(cudaGetLastError());
  launchForAnUncheckingCaller(d, n);
  return 0;
}

// ---- Checks in helpers and in loops that always run ------------------------

void checkLastError() { CUDA_CHECK(cudaGetLastError()); }
// The getLastCudaError() idiom: a helper around a helper that reads it.
void reportStepFailure(const char *step) { checkLastError(); }
void copyBack(float *h, const float *d, int n) {
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
}
void saveResults(float *h, const float *d, int n) { copyBack(h, d, n); }

// Four helpers deep the check lies past what is searched, so this launch is
// taken as unchecked, while reportStepFailure called directly below checks:
// what a helper does is answered for the depth it is reached at, whichever
// call is met first.
void stepHop3(const char *step) { reportStepFailure(step); }
void stepHop2(const char *step) { stepHop3(step); }
void stepHop1(const char *step) { stepHop2(step); }
void launchThenCheckedTooDeep(float *d, int n) {
  scale<<<4, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+2]]:1: note: the function returns here with the launch unchecked
  stepHop1("deep");
}

// Read two helpers deep: checked.
void clearedThenCheckedTwoDeep(float *d, int n) {
  cudaMemset(d, 0, n * sizeof(float));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemset' is discarded [cuda-unchecked-api-call]
  reportStepFailure("clear");
}

// A checked copy two helpers deep reports the kernel's faults; the result
// the synchronisation before it returned is still dropped.
void launchThenResultsSaved(float *h, float *d, int n) {
  scale<<<4, 256>>>(d, n);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:3: note: the kernel's errors surface here instead, in the result of 'cudaDeviceSynchronize'
  cudaDeviceSynchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaDeviceSynchronize' is discarded; it waits for the device and reports the faults of earlier kernels [cuda-unchecked-api-call]
  // CHECK-NOTES-DEFAULT: :[[@LINE+3]]:1: note: the function returns here with the error unchecked
  // CHECK-NOTES-DEFAULT: :[[@LINE+30]]:3: note: 'launchThenResultsSaved' is called here, and no caller checks the error before 'main' returns
  saveResults(h, d, n);
}

// A loop that always runs checks what is pending before it in its first
// iteration, before its launch.
void clearedThenCheckedInALoop(float *d, int n) {
  cudaMemset(d, 0, n * sizeof(float));
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemset' is discarded [cuda-unchecked-api-call]
  for (int step = 0; step < 100; ++step) {
    reportStepFailure("step");
    scale<<<4, 256>>>(d, n);
    CUDA_CHECK(cudaGetLastError());
  }
}

// A loop that may not run checks nothing before it.
void clearedThenMaybeChecked(float *d, int n, int steps) {
  cudaMemset(d, 0, n * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemset' is discarded [cuda-unchecked-api-call]
  // CHECK-NOTES-DEFAULT: :[[@LINE+4]]:1: note: the function returns here with the error unchecked
  // CHECK-NOTES-DEFAULT: :[[@LINE+8]]:3: note: 'clearedThenMaybeChecked' is called here, and no caller checks the error before 'main' returns
  for (int step = 0; step < steps; ++step)
    reportStepFailure("step");
}

int checksInHelpersAndLoops(float *h, float *d, int n, int steps) {
  clearedThenCheckedTwoDeep(d, n);
  clearedThenCheckedInALoop(d, n);
  clearedThenMaybeChecked(d, n, steps);
  launchThenResultsSaved(h, d, n);
  return 0;
}

// ---- Status handlers -------------------------------------------------------

// A handler returns the status it was given (the checkCuda of NVIDIA's blog
// samples, which checks only in debug builds): the status went to it, and
// what it hands back is no new one. A wrapper that makes a call of its own
// returns a status of its own.
inline cudaError_t checkCuda(cudaError_t result) {
#ifdef DEBUG
  if (result != cudaSuccess)
    __builtin_trap();
#endif
  return result;
}
cudaError_t clearAll(float *d, int n) {
  return cudaMemset(d, 0, n * sizeof(float));
}

int handledStatuses(float *d, const float *h, int n) {
  checkCuda(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<1, 256>>>(d, n);
  checkCuda(cudaGetLastError());
  clearAll(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'clearAll' is discarded [cuda-unchecked-api-call]
  // CHECK-NOTES-DEFAULT: :[[@LINE+2]]:3: note: the function returns here with the error unchecked
  // CHECK-NOTES-DEFAULT: :[[@LINE-139]]:3: note: 'handledStatuses' is called here, and no caller checks the error before 'main' returns
  return 0;
}

// ---- Helpers that drop a status -------------------------------------------

// A status the helper drops: the caller's checked synchronisation reports
// the faults of kernels, not that the allocation failed.
void allocateQuietly(float **d, int n) { cudaMalloc(d, n * sizeof(float)); }
// CHECK-NOTES: :[[@LINE-1]]:42: warning: the 'cudaError_t' result of 'cudaMalloc' is discarded [cuda-unchecked-api-call]
// CHECK-NOTES-DEFAULT: :[[@LINE-2]]:76: note: the function returns here with the error unchecked
// CHECK-NOTES-DEFAULT: :[[@LINE+34]]:3: note: 'allocateQuietly' is called here, and no caller checks the error before 'main' returns

// A launch the helper leaves: the checked synchronisation reports its
// faults.
void launchQuietly(float *d, int n) { scale<<<4, 256>>>(d, n); }
// CHECK-NOTES-STRICT: :[[@LINE-1]]:39: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
// CHECK-NOTES-STRICT: :[[@LINE-2]]:64: note: the function returns here with the launch unchecked

// Both in one helper: the checked synchronisation after its call reports
// the launch's faults, not the dropped status.
void fillQuietlyThenLaunch(float *d, int n) {
  cudaMemset(d, 0, n * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaMemset' is discarded [cuda-unchecked-api-call]
  scale<<<4, 256>>>(d, n);
  // CHECK-NOTES-DEFAULT: :[[@LINE-1]]:3: note: 'scale' is launched here before the error is checked
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: warning: the launch of 'scale' is not checked with cudaGetLastError() or cudaPeekAtLastError() on every path [cuda-unchecked-api-call]
  // CHECK-NOTES-STRICT: :[[@LINE+1]]:1: note: the function returns here with the launch unchecked
}

// A readiness query whose answer is dropped flushes the queue (the WDDM
// idiom); its usual answer, cudaErrorNotReady, is no error.
void flushThenTime(cudaEvent_t start, cudaEvent_t stop, cudaStream_t s) {
  CUDA_CHECK(cudaEventRecord(start));
  cudaEventQuery(start);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaEventQuery' is discarded [cuda-unchecked-api-call]
  cudaStreamQuery(s);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cudaError_t' result of 'cudaStreamQuery' is discarded [cuda-unchecked-api-call]
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
}

int dropsInHelpers(float *d, int n) {
  flushThenTime(nullptr, nullptr, nullptr);
  float *e = nullptr;
  allocateQuietly(&e, n);
  launchQuietly(d, n);
  fillQuietlyThenLaunch(d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
}

#else

// ---- A file that checks nothing --------------------------------------------

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  // CHECK-NOTES-NONE-NOT: warning:
  scale<<<4, 256>>>(d, 1024);
  cudaDeviceSynchronize();
  return 0;
}

#endif
