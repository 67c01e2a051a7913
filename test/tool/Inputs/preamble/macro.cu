// Macros after its #include line: parsed with the file, not precompiled.
#include <cuda_runtime.h>
#define THREADS 128
#define INDEX(b, t) ((b) * THREADS + (t))

__global__ void shift(float *data, int n) {
  int i = INDEX(blockIdx.x, threadIdx.x);
  data[i] += 1.0f;
}

void launch(float *data, int n) {
  shift<<<(n + THREADS - 1) / THREADS, THREADS>>>(data, n);
}
