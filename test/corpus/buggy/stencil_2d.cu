// One Jacobi sweep of the 2-D Laplace equation with a 5-point stencil. Only
// interior points are updated; the boundary of unew is copied from u once.
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

__global__ void jacobiStep(const float *u, float *unew, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  // `y <= ny - 1` admits the bottom row, whose south neighbour is past the
  // end of the grid.
  if (x > 0 && x < nx - 1 && y > 0 && y <= ny - 1) {
    const int idx = y * nx + x;
    const float west = u[idx - 1];
    const float east = u[idx + 1];
    const float north = u[idx - nx];
    const float south = u[idx + nx]; // BUG: cuda-unchecked-index (known miss: offset by a row stride)
    unew[idx] = 0.25f * (west + east + north + south);
  }
}

int main() {
  const int nx = 514, ny = 300;
  std::vector<float> h(nx * ny, 0.0f);
  for (int x = 0; x < nx; ++x)
    h[x] = 1.0f; // hot top edge

  float *d_u, *d_unew;
  CUDA_CHECK(cudaMalloc(&d_u, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_unew, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_u, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_unew, d_u, h.size() * sizeof(float),
                        cudaMemcpyDeviceToDevice));

  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  for (int iter = 0; iter < 100; ++iter) {
    jacobiStep<<<grid, block>>>(d_u, d_unew, nx, ny);
    CUDA_CHECK(cudaGetLastError());
    float *tmp = d_u;
    d_u = d_unew;
    d_unew = tmp;
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(h.data(), d_u, h.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("jacobi: u[1][nx/2] = %f\n", h[nx + nx / 2]);
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_unew));
  return 0;
}
