// A program with one kernel, built by doctor.test with chosen -gencode sets.
__global__ void scale(float *Data) { Data[threadIdx.x] *= 2.0f; }

int main() {
  float *Data = nullptr;
  if (cudaMalloc(&Data, 32 * sizeof(float)) != cudaSuccess)
    return 1;
  scale<<<1, 32>>>(Data);
  // A missing kernel image fails the launch, not the synchronisation.
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
