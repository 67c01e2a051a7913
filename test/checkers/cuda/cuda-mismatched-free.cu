// RUN: %check_gpuguard %s cuda-mismatched-free %t -- -- %cuda_mock_flags

#include <cuda_runtime.h>

void keep(float *Pointer);
extern "C" void *malloc(size_t Size);
extern "C" void free(void *Pointer);

void deviceFreedOnTheHost(int N) {
  float *D;
  cudaMalloc(&D, N * sizeof(float));
  free(D);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'D' holds device memory from 'cudaMalloc', which 'free' does not release; use 'cudaFree' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  // CHECK-FIXES:  cudaFree(D);
}

void pinnedFreedAsDevice(int N) {
  float *Staging;
  cudaMallocHost(&Staging, N * sizeof(float));
  cudaFree(Staging);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'Staging' holds pinned host memory from 'cudaMallocHost', which 'cudaFree' does not release; use 'cudaFreeHost' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  // CHECK-FIXES:  cudaFreeHost(Staging);
}

void deviceFreedAsPinned(int N) {
  float *D;
  cudaMallocManaged(&D, N * sizeof(float));
  cudaFreeHost(D);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'D' holds device memory from 'cudaMallocManaged', which 'cudaFreeHost' does not release; use 'cudaFree' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  // CHECK-FIXES:  cudaFree(D);
}

void hostHeapFreedAsDevice(int N) {
  float *H = (float *)malloc(N * sizeof(float));
  cudaFree(H);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'H' holds host heap memory from 'malloc', which 'cudaFree' does not release; use 'free' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:23: note: allocated here
  // CHECK-FIXES:  free(H);
}

// delete[] of device memory: the fix is more than a rename, so none is
// offered.
void deviceDeleted(int N) {
  float *D;
  cudaMalloc(&D, N * sizeof(float));
  delete[] D;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'D' holds device memory from 'cudaMalloc', which 'delete[]' does not release; use 'cudaFree' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: allocated here
  // CHECK-FIXES:  delete[] D;
}

void newArrayFreedAsDevice(int N) {
  float *H = new float[N];
  cudaFree(H);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'H' holds host heap memory from 'new[]', which 'cudaFree' does not release; use 'delete[]' [cuda-mismatched-free]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: allocated here
  // CHECK-FIXES:  cudaFree(H);
}

// ---- Negatives ----

// Each release on the side of the test that made its allocation.
void onOnePath(int N, bool Pinned) {
  float *Buffer;
  if (Pinned)
    cudaMallocHost(&Buffer, N * sizeof(float));
  else
    cudaMalloc(&Buffer, N * sizeof(float));
  if (Pinned)
    cudaFreeHost(Buffer);
  else
    cudaFree(Buffer);
}

struct Options {
  bool Pinned;
};
void onOnePathByMember(int N, const Options &Config) {
  float *Buffer;
  if (!Config.Pinned)
    cudaMalloc(&Buffer, N * sizeof(float));
  else
    cudaMallocHost(&Buffer, N * sizeof(float));
  if (Config.Pinned)
    cudaFreeHost(Buffer);
  else
    cudaFree(Buffer);
}

void matched(int N, cudaExtent Extent) {
  float *D, *Staging, *Pitched;
  size_t Pitch;
  cudaPitchedPtr Volume;
  cudaMalloc(&D, N * sizeof(float));
  cudaMallocHost(&Staging, N * sizeof(float));
  cudaHostAlloc(&Staging, N * sizeof(float), cudaHostAllocDefault);
  cudaMallocPitch(&Pitched, &Pitch, N, N);
  cudaMalloc3D(&Volume, Extent);
  float *H = (float *)malloc(N);
  float *Array = new float[N];
  cudaFree(D);
  cudaFreeHost(Staging);
  cudaFree(Pitched);
  cudaFree(Volume.ptr);
  free(H);
  delete[] Array;
}

// Whatever the pointer holds once it escapes is not followed.
void escaped(int N) {
  float *D;
  cudaMalloc(&D, N * sizeof(float));
  keep(D);
  free(D);
}
