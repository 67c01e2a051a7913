// Histogram equalisation of an 8-bit image: histogram, then a lookup table
// from the cumulative histogram, then the table applied to every pixel. A
// constant image has an empty denominator and keeps its values.
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

__global__ void histogram(const unsigned char *img, int n, unsigned *hist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[img[i]], 1u);
}

// One block of 256 threads, one per grey level.
__global__ void buildLut(const unsigned *hist, unsigned char *lut) {
  __shared__ unsigned cdf[256];
  __shared__ unsigned cdfMin;
  const int b = threadIdx.x;
  cdf[b] = hist[b];
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    const unsigned add = b >= offset ? cdf[b - offset] : 0u;
    __syncthreads();
    cdf[b] += add;
    __syncthreads();
  }
  if (b == 0) {
    unsigned m = 0;
    for (int k = 0; k < 256 && m == 0; ++k)
      m = cdf[k];
    cdfMin = m;
  }
  __syncthreads();
  // In a constant image every pixel has the same level: cdf[255] == cdfMin.
  const unsigned denom = cdf[255] - cdfMin;
  const unsigned num = cdf[b] > cdfMin ? cdf[b] - cdfMin : 0u;
  lut[b] = (unsigned char)(num * 255ull / denom); // BUG: cuda-div-by-zero
}

__global__ void applyLut(const unsigned char *lut, unsigned char *img, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    img[i] = lut[img[i]];
}

int main() {
  const int width = 640, height = 480, n = width * height;
  std::vector<unsigned char> img(n);
  for (int i = 0; i < n; ++i)
    img[i] = static_cast<unsigned char>(100 + (i % width) / 16); // low contrast

  unsigned char *d_img, *d_lut;
  unsigned *d_hist;
  CUDA_CHECK(cudaMalloc(&d_img, n));
  CUDA_CHECK(cudaMalloc(&d_lut, 256));
  CUDA_CHECK(cudaMalloc(&d_hist, 256 * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hist, 0, 256 * sizeof(unsigned)));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  histogram<<<blocks, threads>>>(d_img, n, d_hist);
  CUDA_CHECK(cudaGetLastError());
  buildLut<<<1, 256>>>(d_hist, d_lut);
  CUDA_CHECK(cudaGetLastError());
  applyLut<<<blocks, threads>>>(d_lut, d_img, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(img.data(), d_img, n, cudaMemcpyDeviceToHost));
  printf("equalised: first %d, last %d\n", img[0], img[n - 1]);
  CUDA_CHECK(cudaFree(d_img));
  CUDA_CHECK(cudaFree(d_lut));
  CUDA_CHECK(cudaFree(d_hist));
  return 0;
}
