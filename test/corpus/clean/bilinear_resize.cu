// Bilinear image resize with half-pixel centres (align_corners = false). The
// source coordinates are computed in float and clamped to the image before
// they become integer indexes; the right and bottom neighbours are clamped
// too, which replicates the border.
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

__global__ void resizeBilinear(const float *src, int sw, int sh, float *dst,
                               int dw, int dh, float scaleX, float scaleY) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh)
    return;
  const float fx = fmaxf((x + 0.5f) * scaleX - 0.5f, 0.0f);
  const float fy = fmaxf((y + 0.5f) * scaleY - 0.5f, 0.0f);
  const int x0 = min(static_cast<int>(fx), sw - 1);
  const int y0 = min(static_cast<int>(fy), sh - 1);
  const int x1 = min(x0 + 1, sw - 1);
  const int y1 = min(y0 + 1, sh - 1);
  const float ax = fx - x0, ay = fy - y0;
  const float top = src[y0 * sw + x0] * (1.0f - ax) + src[y0 * sw + x1] * ax;
  const float bot = src[y1 * sw + x0] * (1.0f - ax) + src[y1 * sw + x1] * ax;
  dst[y * dw + x] = top * (1.0f - ay) + bot * ay;
}

int main() {
  const int sw = 640, sh = 480, dw = 1023, dh = 767;
  std::vector<float> src(sw * sh);
  for (int i = 0; i < sw * sh; ++i)
    src[i] = static_cast<float>(i % sw);

  float *d_src, *d_dst;
  CUDA_CHECK(cudaMalloc(&d_src, src.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_dst, dw * dh * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_src, src.data(), src.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const float scaleX = static_cast<float>(sw) / dw;
  const float scaleY = static_cast<float>(sh) / dh;
  const dim3 block(16, 16);
  const dim3 grid((dw + 15) / 16, (dh + 15) / 16);
  resizeBilinear<<<grid, block>>>(d_src, sw, sh, d_dst, dw, dh, scaleX, scaleY);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> dst(dw * dh);
  CUDA_CHECK(cudaMemcpy(dst.data(), d_dst, dst.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("resize: dst[0][last] = %.2f\n", dst[dw - 1]);
  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_dst));
  return 0;
}
