// out = alpha * in with 16-byte float4 loads and stores for the bulk, and a
// scalar loop for the last n % 4 elements. cudaMalloc returns pointers
// aligned well beyond 16 bytes.
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

__global__ void scaleVec4(const float *__restrict__ in, float *__restrict__ out,
                          float alpha, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  const int n4 = n / 4;
  const float4 *in4 = reinterpret_cast<const float4 *>(in);
  float4 *out4 = reinterpret_cast<float4 *>(out);
  for (int i = tid; i < n4; i += stride) {
    float4 v = in4[i];
    v.x *= alpha;
    v.y *= alpha;
    v.z *= alpha;
    v.w *= alpha;
    out4[i] = v;
  }
  // The tail: at most three elements after the last full float4.
  for (int i = 4 * n4 + tid; i < n; i += stride)
    out[i] = alpha * in[i];
}

int main() {
  const int n = 1000003; // n % 4 == 3
  std::vector<float> h(n, 2.0f);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(
      cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n / 4 + threads - 1) / threads;
  scaleVec4<<<blocks, threads>>>(d_in, d_out, 1.5f, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(
      cudaMemcpy(h.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (float v : h)
    errors += v != 3.0f;
  printf("scale_vec4: %d errors\n", errors);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
