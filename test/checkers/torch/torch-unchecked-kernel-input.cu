// RUN: %check_gpuguard %s torch-unchecked-kernel-input %t -- -- %cuda_mock_flags -std=c++17 -isystem %inputs/torch

#include <cuda_runtime.h>
#include <torch/extension.h>
#include <torch/library.h>

__global__ void scaleKernel(float *Out, const float *In, int N);
__global__ void rowsKernel(at::PackedTensorAccessor32<float, 2> In);
__global__ void stridedKernel(float *Out, const float *In, int64_t Stride);
torch::Tensor checkedOp(torch::Tensor Input);
void guarded(torch::Tensor Input);

// The extension tutorial's shape, bound below without its CHECK_INPUT.
torch::Tensor scaleForward(torch::Tensor Input) {
  auto Output = torch::empty_like(Input);
  int N = Input.numel();
  scaleKernel<<<(N + 255) / 256, 256>>>(Output.data_ptr<float>(),
                                        Input.data_ptr<float>(), N);
  // CHECK-NOTES: :[[@LINE-1]]:47: warning: 'Input' reaches kernel 'scaleKernel' with no check that it is a contiguous CUDA tensor: a CPU tensor's memory faults on the GPU and a transposed or sliced one is read out of order [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+32]]:3: note: 'scaleForward' is registered here, and its callers may pass any tensor as 'Input': check it first, e.g. 'TORCH_CHECK(Input.is_cuda() && Input.is_contiguous(), "Input must be a contiguous CUDA tensor")'
  return Output;
}

// An accessor carries the strides: only the device is unchecked.
void rowsForward(const at::Tensor &Rows) {
  rowsKernel<<<1, 256>>>(Rows.packed_accessor32<float, 2>());
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: 'Rows' reaches kernel 'rowsKernel' with no check that it is a CUDA tensor: a CPU tensor's memory faults on the GPU [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+25]]:3: note: 'rowsForward' is registered here, and its callers may pass any tensor as 'Rows': check it first, e.g. 'TORCH_CHECK(Rows.is_cuda(), "Rows must be a CUDA tensor")'
}

// Checked for the device only, through a helper's parameter.
static void launchScale(torch::Tensor &Data, int N) {
  scaleKernel<<<1, 256>>>(Data.data_ptr<float>(), Data.data_ptr<float>(), N);
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'Data' reaches kernel 'scaleKernel' with no check that it is contiguous: a transposed or sliced tensor is read out of order [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+19]]:3: note: 'deviceCheckedOnly' is registered here, and its callers may pass any tensor as 'Values': check it first, e.g. 'TORCH_CHECK(Values.is_contiguous(), "Values must be contiguous")'
}
void deviceCheckedOnly(torch::Tensor Values) {
  TORCH_CHECK(Values.is_cuda(), "Values must be a CUDA tensor");
  launchScale(Values, 256);
}

// The launch inside a dispatch lambda, the tensor captured.
#define DISPATCH_FLOAT(...) [&] { __VA_ARGS__ }()
void dispatched(torch::Tensor Weights) {
  DISPATCH_FLOAT(scaleKernel<<<1, 256>>>(Weights.data_ptr<float>(),
                                         Weights.data_ptr<float>(), 1););
  // CHECK-NOTES: :[[@LINE-2]]:50: warning: 'Weights' reaches kernel 'scaleKernel' with no check that it is a contiguous CUDA tensor: a CPU tensor's memory faults on the GPU and a transposed or sliced one is read out of order [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+8]]:3: note: 'dispatched' is registered here, and its callers may pass any tensor as 'Weights': check it first, e.g. 'TORCH_CHECK(Weights.is_cuda() && Weights.is_contiguous(), "Weights must be a contiguous CUDA tensor")'
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_forward", &scaleForward, "scale");
  m.def("rows_forward", &rowsForward);
  m.def("device_checked_only", &deviceCheckedOnly);
  m.def("guarded", &guarded);
  m.def("dispatched", &dispatched);
  m.def("lambda", [](torch::Tensor Lambda) {
    scaleKernel<<<1, 1>>>(Lambda.data_ptr<float>(), nullptr, 1);
    // CHECK-NOTES: :[[@LINE-1]]:34: warning: 'Lambda' reaches kernel 'scaleKernel' with no check that it is a contiguous CUDA tensor: a CPU tensor's memory faults on the GPU and a transposed or sliced one is read out of order [torch-unchecked-kernel-input]
    // CHECK-NOTES: :[[@LINE-3]]:3: note: the lambda is registered here, and its callers may pass any tensor as 'Lambda': check it first, e.g. 'TORCH_CHECK(Lambda.is_cuda() && Lambda.is_contiguous(), "Lambda must be a contiguous CUDA tensor")'
  });
}

// ---- Operators registered with torch::Library ----

// Under the CUDA dispatch key with one tensor, the tensor is a CUDA one;
// its layout is still unchecked.
torch::Tensor cudaOnly(const torch::Tensor &Only) {
  scaleKernel<<<1, 256>>>(Only.data_ptr<float>(), Only.data_ptr<float>(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'Only' reaches kernel 'scaleKernel' with no check that it is contiguous: a transposed or sliced tensor is read out of order [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+16]]:3: note: 'cudaOnly' is registered here, and its callers may pass any tensor as 'Only': check it first, e.g. 'TORCH_CHECK(Only.is_contiguous(), "Only must be contiguous")'
  return Only;
}
// With two tensors, the other may be the CUDA one.
torch::Tensor cudaPair(const torch::Tensor &Left, const torch::Tensor &Right) {
  rowsKernel<<<1, 256>>>(Right.packed_accessor32<float, 2>());
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'Right' reaches kernel 'rowsKernel' with no check that it is a CUDA tensor: a CPU tensor's memory faults on the GPU [torch-unchecked-kernel-input]
  // CHECK-NOTES: :[[@LINE+10]]:3: note: 'cudaPair' is registered here, and its callers may pass any tensor as 'Right': check it first, e.g. 'TORCH_CHECK(Right.is_cuda(), "Right must be a CUDA tensor")'
  return Left;
}

TORCH_LIBRARY(gg, m) {
  m.def("cuda_only(Tensor x) -> Tensor");
  m.def("checked_op", &checkedOp);
}
TORCH_LIBRARY_IMPL(gg, CUDA, m) {
  m.impl("cuda_only", TORCH_FN(cudaOnly));
  m.impl("cuda_pair", &cudaPair);
}

// ---- Negatives ----

// The tutorial's checks, through its macros.
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
torch::Tensor checkedOp(torch::Tensor Input) {
  CHECK_INPUT(Input);
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
  return Input;
}

// A device guard on the tensor, and a contiguous copy.
void guarded(torch::Tensor Input) {
  const at::cuda::OptionalCUDAGuard Guard(at::device_of(Input));
  scaleKernel<<<1, 256>>>(Input.contiguous().data_ptr<float>(), nullptr, 1);
}

// The kernel takes the stride: it does not assume a contiguous tensor.
void strided(torch::Tensor Input) {
  TORCH_CHECK(Input.is_cuda());
  stridedKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(),
                            Input.stride(0));
}

// Validated by the project's own function: not followed.
void validate(const torch::Tensor &T);
void validated(torch::Tensor Input) {
  validate(Input);
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), nullptr, 1);
}

// Replaced before the launch.
void replaced(torch::Tensor Input) {
  Input = Input.contiguous().cuda();
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), nullptr, 1);
}

// A tensor made here, on the input's device, is the function's own.
void localTensor(torch::Tensor Input) {
  TORCH_CHECK(Input.is_cuda() && Input.is_contiguous());
  auto Scratch = torch::empty_like(Input);
  scaleKernel<<<1, 256>>>(Scratch.data_ptr<float>(), Input.data_ptr<float>(), 1);
}

// Not registered here, and called by nobody here: its caller's business.
void launchedFromElsewhere(torch::Tensor Input) {
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), nullptr, 1);
}

// Checked after the launch is too late, but the check before the call is
// what counts: here, the caller checks first.
static void innerLaunch(torch::Tensor Inner) {
  scaleKernel<<<1, 256>>>(Inner.data_ptr<float>(), nullptr, 1);
}
void checksThenCalls(torch::Tensor Outer) {
  TORCH_CHECK(Outer.is_cuda(), "cuda");
  TORCH_CHECK(Outer.is_contiguous(), "contiguous");
  innerLaunch(Outer);
}

PYBIND11_MODULE(second_extension, m) {
  m.def("strided", &strided);
  m.def("validated", &validated);
  m.def("replaced", &replaced);
  m.def("local_tensor", &localTensor);
  m.def("checks_then_calls", &checksThenCalls);
}
