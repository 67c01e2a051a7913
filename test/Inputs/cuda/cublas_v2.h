//===- cublas_v2.h - Mock cuBLAS header for tests ---------------*- C++ -*-===//
//
// The few cuBLAS declarations gpuguard's tests use, spelled as the toolkit
// spells them: an anonymous enum behind the cublasStatus_t typedef, and
// macros that rename the API to its _v2 entry points.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_MOCK_CUBLAS_V2_H
#define GPUGUARD_TEST_MOCK_CUBLAS_V2_H

#include <cuda_runtime.h>

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
} cublasStatus_t;

typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;

struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
const char *cublasGetStatusString(cublasStatus_t status);

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasSgemm cublasSgemm_v2
#define cublasGetVersion cublasGetVersion_v2

#endif // GPUGUARD_TEST_MOCK_CUBLAS_V2_H
