#include "scale.cuh"

__global__ void scaleKernel(float *Data, int N, float Factor) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Data[I] *= Factor;
}

void scaleOnDevice(float *Data, int N, float Factor) {
  scaleKernel<<<(N + 255) / 256, 256>>>(Data, N, Factor);
}
