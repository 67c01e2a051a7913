// A PyTorch operator in CUDA, built as a shared library with CMake (see
// CMakeLists.txt) and loaded with torch.ops.load_library: scales each row of
// a matrix by its own factor.
//
//   out = torch.ops.scale_rows_bug.scale_rows(x, factors)  # x: [rows, cols]
//
// It works in every test on a one-GPU machine with fresh, contiguous CUDA
// tensors, and fails elsewhere:
//   - x on cuda:1 runs the kernel on cuda:0 (no device guard): an illegal
//     memory access, on multi-GPU hosts only;
//   - the kernel runs on the default stream, unordered with PyTorch's
//     current stream: it may read x before the op that wrote it finishes;
//   - x.t() (non-contiguous) is read out of order, silently;
//   - factors on the CPU (factors is not checked at all) hands the kernel a
//     host pointer: an illegal memory access.
#include <ATen/ATen.h>
#include <torch/library.h>

__global__ void scaleRowsKernel(float *Out, const float *In,
                                const float *Factors, int64_t Rows,
                                int64_t Cols) {
  int64_t I = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (I < Rows * Cols)
    Out[I] = In[I] * Factors[I / Cols];
}

at::Tensor scaleRows(const at::Tensor &Input, const at::Tensor &Factors) {
  TORCH_CHECK(Input.dim() == 2 && Factors.dim() == 1 &&
                  Factors.size(0) == Input.size(0),
              "scale_rows: expected x [rows, cols] and factors [rows]");
  auto Output = at::empty_like(Input);
  int64_t Rows = Input.size(0), Cols = Input.size(1);
  int64_t Threads = 256, Blocks = (Rows * Cols + Threads - 1) / Threads;
  // BUG: no device guard, the default stream, and neither tensor checked to
  // be a contiguous CUDA tensor.
  scaleRowsKernel<<<Blocks, Threads>>>(Output.data_ptr<float>(),
                                       Input.data_ptr<float>(),
                                       Factors.data_ptr<float>(), Rows, Cols);
  return Output;
}

TORCH_LIBRARY(scale_rows_bug, m) {
  m.def("scale_rows(Tensor x, Tensor factors) -> Tensor");
}
TORCH_LIBRARY_IMPL(scale_rows_bug, CUDA, m) {
  m.impl("scale_rows", &scaleRows);
}
