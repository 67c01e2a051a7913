// REQUIRES: libtorch
// RUN: %check_gpuguard %s torch-unchecked-kernel-input %t -- -- %torch_cuda_flags

// An operator library as a CMake extension builds it, with LibTorch's own
// headers: TORCH_LIBRARY, TORCH_LIBRARY_IMPL under the CUDA key, TORCH_FN.
#include <ATen/ATen.h>
#include <torch/library.h>

__global__ void scaleKernel(float *Out, const float *In, float Factor,
                            int64_t N) {
  int64_t I = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * Factor;
}

// One tensor under the CUDA key: PyTorch dispatches only CUDA tensors here,
// in any layout.
at::Tensor scale(const at::Tensor &Input, double Factor) {
  auto Output = at::empty_like(Input);
  scaleKernel<<<1, 256>>>(Output.data_ptr<float>(), Input.data_ptr<float>(),
                          Factor, Input.numel());
  // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'Input' reaches kernel 'scaleKernel' with no check that it is contiguous: a transposed or sliced tensor is read out of order [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+33]]:3: note: 'scale' is registered here, and its callers may pass any tensor as 'Input': check it first, e.g. 'TORCH_CHECK(Input.is_contiguous(), "Input must be contiguous")'
  return Output;
}

// Two tensors: the CUDA key says only that one of them is a CUDA tensor.
at::Tensor scaleLike(const at::Tensor &Input, const at::Tensor &Like) {
  TORCH_CHECK(Input.is_contiguous(), "Input must be contiguous");
  auto Output = at::empty_like(Like);
  scaleKernel<<<1, 256>>>(Output.data_ptr<float>(), Input.data_ptr<float>(),
                          1.0f, Input.numel());
  // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'Input' reaches kernel 'scaleKernel' with no check that it is a CUDA tensor: a CPU tensor's memory faults on the GPU [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+23]]:3: note: 'scaleLike' is registered here, and its callers may pass any tensor as 'Input': check it first, e.g. 'TORCH_CHECK(Input.is_cuda(), "Input must be a CUDA tensor")'
  return Output;
}

// ---- Negatives ----

at::Tensor scaleChecked(const at::Tensor &Input, const at::Tensor &Like) {
  TORCH_CHECK(Input.is_cuda() && Like.device() == Input.device(),
              "Input and Like must be on one GPU");
  auto Contiguous = Input.contiguous();
  auto Output = at::empty_like(Contiguous);
  scaleKernel<<<1, 256>>>(Output.data_ptr<float>(),
                          Contiguous.data_ptr<float>(), 1.0f, Input.numel());
  return Output;
}

TORCH_LIBRARY(gpuguard_test, m) {
  m.def("scale(Tensor x, float f) -> Tensor");
  m.def("scale_like(Tensor x, Tensor like) -> Tensor");
  m.def("scale_checked(Tensor x, Tensor like) -> Tensor");
}
TORCH_LIBRARY_IMPL(gpuguard_test, CUDA, m) {
  m.impl("scale", &scale);
  m.impl("scale_like", TORCH_FN(scaleLike));
  m.impl("scale_checked", &scaleChecked);
}
