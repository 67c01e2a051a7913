// 7-point Laplacian of a 3-D field on a 3-D grid of blocks. Each of the
// three dimensions is bounded to the interior before any neighbour is read.
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

__global__ void laplacian3d(const float *u, float *out, int nx, int ny, int nz,
                            float invH2) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || x >= nx - 1 || y < 1 || y >= ny - 1 || z < 1 || z >= nz - 1)
    return;

  const size_t sy = nx;
  const size_t sz = static_cast<size_t>(nx) * ny;
  const size_t c = z * sz + y * sy + x;
  const float xm = u[c - 1], xp = u[c + 1];
  const float ym = u[c - sy], yp = u[c + sy];
  const float zm = u[c - sz], zp = u[c + sz];
  const float sum = xm + xp + ym + yp + zm + zp;
  out[c] = invH2 * (sum - 6.0f * u[c]);
}

int main() {
  const int nx = 70, ny = 45, nz = 33;
  const size_t count = static_cast<size_t>(nx) * ny * nz;
  std::vector<float> h(count);
  for (size_t i = 0; i < count; ++i)
    h[i] = static_cast<float>(i % nx); // linear in x: Laplacian is zero

  float *d_u, *d_out;
  CUDA_CHECK(cudaMalloc(&d_u, count * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, count * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_out, 0, count * sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_u, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));

  const dim3 block(16, 8, 4);
  const dim3 grid((nx + 15) / 16, (ny + 7) / 8, (nz + 3) / 4);
  laplacian3d<<<grid, block>>>(d_u, d_out, nx, ny, nz, 1.0f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(h.data(), d_out, count * sizeof(float),
                        cudaMemcpyDeviceToHost));
  float maxAbs = 0.0f;
  for (float v : h)
    maxAbs = fmaxf(maxAbs, fabsf(v));
  printf("laplacian3d: max |out| = %g\n", maxAbs);
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
