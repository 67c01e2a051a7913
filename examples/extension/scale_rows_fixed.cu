// scale_rows_bug.cu written correctly: the inputs are checked where PyTorch
// hands them over, the kernel runs on the input's GPU and on PyTorch's
// current stream, and a launch failure is reported by the op.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

__global__ void scaleRowsKernel(float *Out, const float *In,
                                const float *Factors, int64_t Rows,
                                int64_t Cols) {
  int64_t I = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (I < Rows * Cols)
    Out[I] = In[I] * Factors[I / Cols];
}

at::Tensor scaleRows(const at::Tensor &Input, const at::Tensor &Factors) {
  TORCH_CHECK(Input.is_cuda() && Factors.device() == Input.device(),
              "scale_rows: x and factors must be on one CUDA device");
  TORCH_CHECK(Input.dim() == 2 && Factors.dim() == 1 &&
                  Factors.size(0) == Input.size(0),
              "scale_rows: expected x [rows, cols] and factors [rows]");
  const c10::cuda::OptionalCUDAGuard DeviceGuard(at::device_of(Input));
  at::Tensor In = Input.contiguous();
  at::Tensor Scales = Factors.contiguous();
  auto Output = at::empty_like(In);
  int64_t Rows = In.size(0), Cols = In.size(1);
  int64_t Threads = 256, Blocks = (Rows * Cols + Threads - 1) / Threads;
  scaleRowsKernel<<<Blocks, Threads, 0, c10::cuda::getCurrentCUDAStream()>>>(
      Output.data_ptr<float>(), In.data_ptr<float>(), Scales.data_ptr<float>(),
      Rows, Cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return Output;
}

TORCH_LIBRARY(scale_rows_fixed, m) {
  m.def("scale_rows(Tensor x, Tensor factors) -> Tensor");
}
TORCH_LIBRARY_IMPL(scale_rows_fixed, CUDA, m) {
  m.impl("scale_rows", &scaleRows);
}
