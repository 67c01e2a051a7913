// 3x3 box blur of a single-channel image with zero padding. The bounds check
// lives in the helpers: inImage() is the predicate, and pixelOrZero() reads a
// pixel only when it is inside the image.
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

__device__ __forceinline__ bool inImage(int x, int y, int w, int h) {
  return x >= 0 && x < w && y >= 0 && y < h;
}

__device__ __forceinline__ float pixelOrZero(const float *img, int x, int y,
                                             int w, int h) {
  return inImage(x, y, w, h) ? img[y * w + x] : 0.0f;
}

__global__ void boxBlur3x3(const float *src, float *dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += pixelOrZero(src, x + dx, y + dy, w, h);
  if (inImage(x, y, w, h))
    dst[y * w + x] = sum / 9.0f;
}

int main() {
  const int w = 1921, h = 1081;
  std::vector<float> img(w * h, 9.0f);

  float *d_src, *d_dst;
  CUDA_CHECK(cudaMalloc(&d_src, img.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_dst, img.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_src, img.data(), img.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  boxBlur3x3<<<grid, block>>>(d_src, d_dst, w, h);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(img.data(), d_dst, img.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("blur: corner %.0f (4 of 9 taps), inside %.0f\n", img[0], img[w + 1]);
  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_dst));
  return 0;
}
