// Direct 2-D convolution (cross-correlation) of a CHW image with F filters of
// C x K x K, stride 1 and zero padding. One thread per output pixel and
// gridDim.z == F; taps that fall in the padding are skipped.
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

__global__ void conv2d(const float *in, const float *w, const float *bias,
                       float *out, int C, int H, int W, int K, int pad) {
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  const int f = blockIdx.z;
  const int OH = H + 2 * pad - K + 1;
  const int OW = W + 2 * pad - K + 1;
  if (ox >= OW || oy >= OH)
    return;

  float acc = bias[f];
  for (int c = 0; c < C; ++c) {
    for (int ky = 0; ky < K; ++ky) {
      // The padding taps are not skipped: at the border iy and ix are
      // negative or past the image, and in[] is read outside the channel.
      const int iy = oy + ky - pad;
      for (int kx = 0; kx < K; ++kx) {
        const int ix = ox + kx - pad;
        const float v = in[(c * H + iy) * W + ix]; // BUG: cuda-unchecked-index
        acc += v * w[((f * C + c) * K + ky) * K + kx];
      }
    }
  }
  out[(f * OH + oy) * OW + ox] = acc;
}

int main() {
  const int C = 3, H = 227, W = 227, F = 16, K = 5, pad = 2;
  const int OH = H + 2 * pad - K + 1, OW = W + 2 * pad - K + 1;
  std::vector<float> in(C * H * W, 1.0f), w(F * C * K * K, 0.1f), b(F, 0.0f);

  float *d_in, *d_w, *d_b, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_w, w.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, b.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, F * OH * OW * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_w, w.data(), w.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  const dim3 block(16, 16);
  const dim3 grid((OW + 15) / 16, (OH + 15) / 16, F);
  conv2d<<<grid, block>>>(d_in, d_w, d_b, d_out, C, H, W, K, pad);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> out(F * OH * OW);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("conv2d: corner %.2f (9 taps), centre %.2f (25 taps) x C\n", out[0],
         out[OW * (OH / 2) + OW / 2]);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_w));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
