// Histogram of float samples into nbins equal bins over [lo, hi]. NaN and
// infinite samples are skipped before the float-to-int conversion, and the
// bin is clamped, so samples at hi or outside the range land in an end bin.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void histogramFloat(const float *x, int n, float lo, float hi,
                               int nbins, unsigned *hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    const float v = x[i];
    // hi == lo divides by zero. NaN samples, and samples outside [lo, hi) (hi
    // itself among them), give a bin outside [0, nbins).
    const float t = (v - lo) / (hi - lo); // BUG: cuda-div-by-zero (known miss: a floating-point difference of two parameters)
    const int bin = static_cast<int>(t * nbins);
    atomicAdd(&hist[bin], 1u); // BUG: cuda-unchecked-index
  }
}

int main() {
  const int n = 1000000, nbins = 64;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = sinf(0.01f * i) * 3.0f;
  x[17] = NAN; // a sensor dropout
  const float lo = -2.0f, hi = 2.0f;

  float *d_x;
  unsigned *d_hist;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_hist, nbins * sizeof(unsigned)));
  CUDA_CHECK(
      cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hist, 0, nbins * sizeof(unsigned)));

  histogramFloat<<<128, 256>>>(d_x, n, lo, hi, nbins, d_hist);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> hist(nbins);
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, nbins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  unsigned total = 0;
  for (unsigned c : hist)
    total += c;
  printf("histogram: %u samples binned (one NaN skipped)\n", total);
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_hist));
  return 0;
}
