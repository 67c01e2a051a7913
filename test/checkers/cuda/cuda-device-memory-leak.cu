// RUN: %check_gpuguard %s cuda-device-memory-leak %t -- -- %cuda_mock_flags

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

// Returns the error to the caller, as library code does.
#define RETURN_IF_ERROR(call)                                                  \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess)                                                \
      return status_;                                                          \
  } while (0)

__global__ void scale(float *Data, int N);
struct Buffers {
  float *Device;
};
void keep(float *Pointer);

// The classic leak in error handling: the second allocation fails and the
// first is never released.
cudaError_t twoBuffers(int N) {
  float *A, *B;
  RETURN_IF_ERROR(cudaMalloc(&A, N * sizeof(float)));
  RETURN_IF_ERROR(cudaMalloc(&B, N * sizeof(float)));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: device memory allocated into 'A' by 'cudaMalloc' is leaked when the function returns here [cuda-device-memory-leak]
  // CHECK-NOTES: :22:7: note: expanded from macro 'RETURN_IF_ERROR'
  // CHECK-NOTES: :[[@LINE-4]]:19: note: allocated here; release it with 'cudaFree' on this path
  scale<<<(N + 255) / 256, 256>>>(A, N);
  cudaFree(A);
  cudaFree(B);
  return cudaSuccess;
}

// An early return for bad input after the allocation.
int earlyReturn(const float *Host, int N) {
  float *D = nullptr;
  CUDA_CHECK(cudaMalloc((void **)&D, N * sizeof(float)));
  if (N > 1 << 20)
    return -1;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: device memory allocated into 'D' by 'cudaMalloc' is leaked when the function returns here [cuda-device-memory-leak]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: allocated here; release it with 'cudaFree' on this path
  CUDA_CHECK(cudaMemcpy(D, Host, N * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(N + 255) / 256, 256>>>(D, N);
  CUDA_CHECK(cudaFree(D));
  return 0;
}

// Never freed at all, in a function that falls off its end.
void neverFreed(int N) {
  float *Scratch;
  cudaMallocManaged(&Scratch, N * sizeof(float));
  scale<<<1, 256>>>(Scratch, N);
  cudaDeviceSynchronize();
}
// CHECK-NOTES: :[[@LINE-1]]:1: warning: device memory allocated into 'Scratch' by 'cudaMallocManaged' is leaked when the function ends here [cuda-device-memory-leak]
// CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here; release it with 'cudaFree' on this path

// Pinned host memory leaks the same way.
void pinned(int N, bool Fast) {
  float *Staging;
  CUDA_CHECK(cudaMallocHost(&Staging, N * sizeof(float)));
  if (!Fast)
    return;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: pinned host memory allocated into 'Staging' by 'cudaMallocHost' is leaked when the function returns here [cuda-device-memory-leak]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: allocated here; release it with 'cudaFreeHost' on this path
  Staging[0] = 1.0f;
  CUDA_CHECK(cudaFreeHost(Staging));
}

// Allocated on every iteration, freed once after the loop.
void perIteration(int Steps, int N) {
  float *Temp = nullptr;
  for (int Step = 0; Step < Steps; ++Step) {
    CUDA_CHECK(cudaMalloc(&Temp, N * sizeof(float)));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'Temp' receives a new allocation on the next iteration while it still holds device memory from 'cudaMalloc', which is leaked [cuda-device-memory-leak]
    scale<<<1, 256>>>(Temp, N);
  }
  CUDA_CHECK(cudaFree(Temp));
}

// Allocated twice into one pointer.
void twice(int N) {
  float *P;
  CUDA_CHECK(cudaMalloc(&P, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&P, 2 * N * sizeof(float)));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'P' receives a new allocation while it still holds device memory from 'cudaMalloc', which is leaked [cuda-device-memory-leak]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: the previous allocation, never released with 'cudaFree'
  CUDA_CHECK(cudaFree(P));
}

// ---- Negatives ----

// Freed on every path, the error path included.
cudaError_t freedOnEveryPath(int N) {
  float *A, *B;
  RETURN_IF_ERROR(cudaMalloc(&A, N * sizeof(float)));
  cudaError_t Status = cudaMalloc(&B, N * sizeof(float));
  if (Status != cudaSuccess) {
    cudaFree(A);
    return Status;
  }
  scale<<<1, 256>>>(A, N);
  cudaFree(A);
  cudaFree(B);
  return cudaSuccess;
}

// A failed allocation holds nothing: returning on its failure is no leak.
cudaError_t failedAllocation(int N) {
  float *A;
  if (cudaMalloc(&A, N * sizeof(float)) != cudaSuccess)
    return cudaErrorMemoryAllocation;
  scale<<<1, 256>>>(A, N);
  return cudaFree(A);
}

int statusVariable(int N) {
  float *A;
  cudaError_t Error = cudaMalloc(&A, N * sizeof(float));
  if (Error)
    return 1;
  cudaFree(A);
  return 0;
}

// A null pointer holds nothing either.
void nullTest(int N) {
  float *A = nullptr;
  cudaMalloc(&A, N * sizeof(float));
  if (A == nullptr)
    return;
  cudaFree(A);
}

// Freed before the next allocation in the loop, or only allocated once.
void loopFreed(int Steps, int N) {
  float *Temp = nullptr;
  for (int Step = 0; Step < Steps; ++Step) {
    if (Temp)
      cudaFree(Temp);
    CUDA_CHECK(cudaMalloc(&Temp, N * sizeof(float)));
  }
  cudaFree(Temp);
  for (int Step = 0; Step < Steps; ++Step) {
    float *Inner;
    CUDA_CHECK(cudaMalloc(&Inner, N * sizeof(float)));
    scale<<<1, 256>>>(Inner, N);
    CUDA_CHECK(cudaFree(Inner));
  }
}

// Ownership passed on: returned, stored, handed to a function, captured.
float *returned(int N) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  return D;
}
void stored(Buffers &Out, int N) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  Out.Device = D;
}
void intoMember(Buffers &Out, int N) {
  CUDA_CHECK(cudaMalloc(&Out.Device, N * sizeof(float)));
}
void handedOver(int N) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  keep(D);
}
void outParameter(float **Out, int N) {
  CUDA_CHECK(cudaMalloc(Out, N * sizeof(float)));
}
// A reference names the caller's pointer, or one that outlives the call.
void referenceParameter(float *&Out, int N) {
  cudaMalloc((void **)&Out, N * sizeof(float));
}
void referenceToSlot(Buffers *All, int I, int N) {
  float *&Slot = All[I].Device;
  CUDA_CHECK(cudaMalloc(&Slot, N * sizeof(float)));
}
void captured(int N) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  auto Release = [&] { cudaFree(D); };
  Release();
}
void aliased(int N) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  float *Alias = D;
  cudaFree(Alias);
}

// Paths that end the process, or that a handler cleans up.
void exits(int N, bool Bad) {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(float)));
  if (Bad)
    exit(1);
  cudaFree(D);
}

// Memory held when main returns goes with the process.
int main() {
  float *D;
  CUDA_CHECK(cudaMalloc(&D, 1024));
  scale<<<1, 256>>>(D, 256);
  return 0;
}

// Used by CUDA calls and launches without giving up ownership, and freed.
void borrowed(const float *Host, int N) {
  float *D;
  size_t Pitch;
  CUDA_CHECK(cudaMallocPitch(&D, &Pitch, N * sizeof(float), N));
  CUDA_CHECK(cudaMemcpy(D + 1, Host, sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(&D[2], 0, sizeof(float)));
  scale<<<1, 256>>>(D, N);
  printf("%p\n", (void *)D);
  if (D == nullptr || sizeof(D) != 8)
    printf("unexpected\n");
  CUDA_CHECK(cudaFree(D));
}

// A cudaPitchedPtr is released through its ptr member.
void pitched3D(cudaExtent Extent) {
  cudaPitchedPtr Volume;
  CUDA_CHECK(cudaMalloc3D(&Volume, Extent));
  CUDA_CHECK(cudaMemset(Volume.ptr, 0, Volume.pitch * Extent.height));
  CUDA_CHECK(cudaFree(Volume.ptr));
}

// Allocated and freed under the same flag.
void sameFlag(int N, bool UseScratch) {
  float *Scratch = nullptr;
  if (UseScratch)
    CUDA_CHECK(cudaMalloc(&Scratch, N * sizeof(float)));
  scale<<<1, 256>>>(Scratch, N);
  if (UseScratch)
    CUDA_CHECK(cudaFree(Scratch));
}

// The flag changes in between: the allocation may outlive the test.
void flagChanged(int N, bool UseScratch) {
  float *Scratch = nullptr;
  if (UseScratch)
    CUDA_CHECK(cudaMalloc(&Scratch, N * sizeof(float)));
  UseScratch = N > 4;
  if (UseScratch)
    CUDA_CHECK(cudaFree(Scratch));
}
// CHECK-NOTES: :[[@LINE-1]]:1: warning: device memory allocated into 'Scratch' by 'cudaMalloc' is leaked when the function ends here [cuda-device-memory-leak]
// CHECK-NOTES: :[[@LINE-6]]:16: note: allocated here; release it with 'cudaFree' on this path
