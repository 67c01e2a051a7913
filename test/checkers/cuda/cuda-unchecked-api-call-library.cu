// The statuses of CUDA's libraries (cuBLAS here; cuFFT, cuRAND, cuSPARSE,
// cuSOLVER, NVRTC, nvJPEG, NPP, cuDNN and NCCL alike) are returned only:
// none becomes the last CUDA error, so a dropped one is lost at once and a
// later cudaGetLastError() does not read it. Reported by default where the
// file checks that status elsewhere; a file that never checks it has chosen
// not to (NONE), and the strict profile reports every drop.
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffixes=,STRICT %s cuda-unchecked-api-call %t.strict -- --config="{CheckOptions: {cuda-unchecked-api-call.Strict: true}}" -- %cuda_mock_flags
// RUN: %check_gpuguard --check-suffix=NONE %s cuda-unchecked-api-call %t.none -- -- %cuda_mock_flags -DNO_CUBLAS_CHECKS
// CHECK-NOTES-NONE-NOT: warning:

#include <cublas_v2.h>

void abort();
extern "C" int printf(const char *format, ...);

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      abort();                                                                 \
  } while (0)

void gemm(cublasHandle_t handle, const float *a, const float *b, float *c,
          int n) {
  const float one = 1.0f, zero = 0.0f;
#ifndef NO_CUBLAS_CHECKS
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a,
                           n, b, n, &zero, c, n));
#else
  (void)cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b,
                    n, &zero, c, n);
#endif
}

int main() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasCreate' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  // A later check of the last CUDA error does not see a cuBLAS failure.
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  cublasSetStream(handle, stream);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasSetStream' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  // A deliberate discard, and a status read.
  (void)cublasSetStream(handle, 0);
#ifndef NO_CUBLAS_CHECKS
  cublasStatus_t status = cublasSetStream(handle, stream);
  if (status != CUBLAS_STATUS_SUCCESS)
    return 1;
#endif
  // A failure leaves `version` at 0, which the next statement tests: the
  // outcome is checked through the output. Not when the output starts
  // unset, or when the test comes later.
  int version = 0;
  cublasGetVersion(handle, &version);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasGetVersion' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  if (version == 0)
    return 1;
  // Printed as it stands, then tested: the same.
  int printed = 0;
  cublasGetVersion(handle, &printed);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasGetVersion' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  printf("cuBLAS %d.%d\n", printed / 10000, printed / 100 % 100);
  if (printed < 11000)
    return 1;
  int unset;
  cublasGetVersion(handle, &unset);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasGetVersion' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  if (unset == 0)
    return 1;
  int later = 0;
  cublasGetVersion(handle, &later);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasGetVersion' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  cublasSetStream(handle, stream);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasSetStream' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  if (later == 0)
    return 1;
  float *d = nullptr;
  gemm(handle, d, d, d, 16);
  // A release's failure is about the release: teardown results are an
  // option (CheckTeardownResults).
  cublasDestroy(handle);
  return 0;
}
