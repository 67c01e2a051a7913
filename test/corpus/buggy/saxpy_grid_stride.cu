// saxpy: y = a * x + y with a grid-stride loop; the grid is sized from the
// number of multiprocessors, not from n.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

static void checkCuda(cudaError_t result, const char *what, const char *file,
                      int line) {
  if (result != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what,
            cudaGetErrorString(result));
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(call) checkCuda((call), #call, __FILE__, __LINE__)

__global__ void saxpy(int n, float a, const float *x, float *y) {
  // `i <= n` also runs i == n, one element past the end of x and y.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i]; // BUG: cuda-unchecked-index
}

int main() {
  const int n = (1 << 22) + 17;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);

  int device = 0, sms = 0;
  checkCudaErrors(cudaGetDevice(&device));
  checkCudaErrors(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));

  float *d_x = nullptr, *d_y = nullptr;
  checkCudaErrors(cudaMalloc(&d_x, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_y, n * sizeof(float)));
  checkCudaErrors(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(
      cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  saxpy<<<32 * sms, 256>>>(n, 3.0f, d_x, d_y);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());

  checkCudaErrors(
      cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  float maxError = 0.0f;
  for (int i = 0; i < n; ++i)
    maxError = fmaxf(maxError, fabsf(y[i] - 5.0f));
  printf("saxpy: max error %g\n", maxError);

  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  return maxError == 0.0f ? EXIT_SUCCESS : EXIT_FAILURE;
}
