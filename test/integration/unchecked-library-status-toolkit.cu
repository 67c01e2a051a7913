// cuda-unchecked-api-call on the installed toolkit's library headers, where
// each status is spelled its own way: cuBLAS's typedef of an anonymous enum
// behind _v2 macros, cuFFT's `cufftResult` typedef of `enum cufftResult_t`,
// cuRAND's `curandStatus_t` typedef of `enum curandStatus`, cuSPARSE's and
// NCCL's typedefs. Each file-level habit of checking a status makes its
// drops findings; destroys are teardown.
// REQUIRES: cuda-toolkit
// RUN: %check_gpuguard %s cuda-unchecked-api-call %t -- --cuda-path=%cuda_path --
// RUN: %check_gpuguard --check-suffixes=,TEARDOWN %s cuda-unchecked-api-call %t.teardown -- --cuda-path=%cuda_path --config="{CheckOptions: {cuda-unchecked-api-call.CheckTeardownResults: true}}" --

#include <cstdlib>
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>
#include <nccl.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != 0)                                                           \
      abort();                                                                 \
  } while (0)

int main() {
  cublasHandle_t blas;
  CHECK(cublasCreate(&blas));
  cublasSetStream(blas, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasSetStream' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]

  cufftHandle plan;
  CHECK(cufftPlan1d(&plan, 1024, CUFFT_C2C, 1));
  cufftSetStream(plan, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cufftResult' result of 'cufftSetStream' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]

  curandGenerator_t generator;
  CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT));
  curandSetPseudoRandomGeneratorSeed(generator, 1234ULL);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'curandStatus_t' result of 'curandSetPseudoRandomGeneratorSeed' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]

  cusparseHandle_t sparse;
  CHECK(cusparseCreate(&sparse));
  cusparseSetStream(sparse, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'cusparseStatus_t' result of 'cusparseSetStream' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]

  ncclComm_t comm;
  int device = 0;
  CHECK(ncclCommInitAll(&comm, 1, &device));
  int rank;
  ncclCommUserRank(comm, &rank);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the 'ncclResult_t' result of 'ncclCommUserRank' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]

  cusparseDestroy(sparse);
  // CHECK-NOTES-TEARDOWN: :[[@LINE-1]]:3: warning: the 'cusparseStatus_t' result of 'cusparseDestroy' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  curandDestroyGenerator(generator);
  // CHECK-NOTES-TEARDOWN: :[[@LINE-1]]:3: warning: the 'curandStatus_t' result of 'curandDestroyGenerator' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  cufftDestroy(plan);
  // CHECK-NOTES-TEARDOWN: :[[@LINE-1]]:3: warning: the 'cufftResult' result of 'cufftDestroy' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  cublasDestroy(blas);
  // CHECK-NOTES-TEARDOWN: :[[@LINE-1]]:3: warning: the 'cublasStatus_t' result of 'cublasDestroy' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  ncclCommDestroy(comm);
  // CHECK-NOTES-TEARDOWN: :[[@LINE-1]]:3: warning: the 'ncclResult_t' result of 'ncclCommDestroy' is discarded; a library's status is not the last CUDA error, and no later check can read it [cuda-unchecked-api-call]
  return 0;
}
