// Distances of a point cloud to its centroid. The points are stored as xyz
// triples; small __device__ helpers read and write one point, and the kernels
// bound the point index before they call them.
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

__device__ __forceinline__ float3 loadPoint(const float *xyz, int i) {
  return make_float3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
}

__device__ __forceinline__ void storeDistance(float *dist, int i, float3 p,
                                              float3 c) {
  const float dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z;
  dist[i] = sqrtf(dx * dx + dy * dy + dz * dz);
}

__global__ void sumPoints(const float *xyz, int n, float *sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float3 p = loadPoint(xyz, i);
    atomicAdd(&sum[0], p.x);
    atomicAdd(&sum[1], p.y);
    atomicAdd(&sum[2], p.z);
  }
}

__global__ void distances(const float *xyz, int n, const float *sum,
                          float *dist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float inv = 1.0f / n; // n > 0: this thread exists only if i < n
  const float3 c = make_float3(sum[0] * inv, sum[1] * inv, sum[2] * inv);
  storeDistance(dist, i, loadPoint(xyz, i), c);
}

int main() {
  const int n = 100001;
  std::vector<float> xyz(3 * n);
  for (int i = 0; i < 3 * n; ++i)
    xyz[i] = static_cast<float>(i % 3); // every point is (0, 1, 2)

  float *d_xyz, *d_sum, *d_dist;
  CUDA_CHECK(cudaMalloc(&d_xyz, xyz.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sum, 3 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_dist, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_xyz, xyz.data(), xyz.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sum, 0, 3 * sizeof(float)));

  const int threads = 128, blocks = (n + threads - 1) / threads;
  sumPoints<<<blocks, threads>>>(d_xyz, n, d_sum);
  CUDA_CHECK(cudaGetLastError());
  distances<<<blocks, threads>>>(d_xyz, n, d_sum, d_dist);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  float d0 = -1.0f;
  CUDA_CHECK(cudaMemcpy(&d0, d_dist, sizeof(float), cudaMemcpyDeviceToHost));
  printf("distances: d[0] = %g (about 0)\n", d0);
  CUDA_CHECK(cudaFree(d_xyz));
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_dist));
  return 0;
}
