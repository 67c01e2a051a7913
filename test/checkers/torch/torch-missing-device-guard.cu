// RUN: %check_gpuguard %s torch-missing-device-guard %t -- -- %cuda_mock_flags -std=c++17 -isystem %inputs/torch

#include <cuda_runtime.h>
#include <torch/torch.h>

__global__ void scaleKernel(float *Out, const float *In, int N);
__global__ void accessorKernel(at::PackedTensorAccessor32<float, 2> In);

// The extension tutorial's shape: the tensors come from Python, on any GPU.
torch::Tensor scaleForward(torch::Tensor Input) {
  auto Output = torch::empty_like(Input);
  int N = Input.numel();
  scaleKernel<<<(N + 255) / 256, 256>>>(Output.data_ptr<float>(),
                                        Input.data_ptr<float>(), N);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: kernel 'scaleKernel' is launched on the memory of 'Output' with no device guard: on a host with several GPUs it runs on the current device, not on 'Output''s [torch-missing-device-guard]
  // CHECK-NOTES: :[[@LINE-6]]:49: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Output));'
  return Output;
}

void accessorForward(const at::Tensor &Input) {
  accessorKernel<<<1, 256>>>(Input.packed_accessor32<float, 2>());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'accessorKernel' is launched on the memory of 'Input' with no device guard: on a host with several GPUs it runs on the current device, not on 'Input''s [torch-missing-device-guard]
  // CHECK-NOTES: :[[@LINE-3]]:47: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Input));'
}

// The deprecated spelling of the accessor, as the extension tutorial's
// lltm writes it.
void deprecatedAccessorForward(const at::Tensor &Input) {
  accessorKernel<<<1, 256>>>(Input.packed_accessor<float, 2>());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'accessorKernel' is launched on the memory of 'Input' with no device guard: on a host with several GPUs it runs on the current device, not on 'Input''s [torch-missing-device-guard]
  // CHECK-NOTES: :[[@LINE-3]]:57: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Input));'
}

// A helper called from one guarded and one unguarded function.
static void launchHelper(torch::Tensor &Data) {
  scaleKernel<<<1, 256>>>(Data.data<float>(), Data.data<float>(), 256);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'scaleKernel' is launched on the memory of 'Data' with no device guard: on a host with several GPUs it runs on the current device, not on 'Data''s [torch-missing-device-guard]
  // CHECK-NOTES: :[[@LINE-3]]:47: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Data));'
}
void guardedCaller(torch::Tensor Data) {
  const at::cuda::OptionalCUDAGuard Guard(at::device_of(Data));
  launchHelper(Data);
}
void unguardedCaller(torch::Tensor Data) { launchHelper(Data); }

// A launch in a lambda, as `AT_DISPATCH_*` writes it, runs in the helper
// that writes the lambda: its callers' guards count, and here none has one.
static void dispatchedUnguarded(torch::Tensor &Data) {
  [&] {
    scaleKernel<<<1, 256>>>(Data.data_ptr<float>(), Data.data_ptr<float>(), 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: kernel 'scaleKernel' is launched on the memory of 'Data' with no device guard: on a host with several GPUs it runs on the current device, not on 'Data''s [torch-missing-device-guard]
    // CHECK-NOTES: :[[@LINE-4]]:54: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Data));'
  }();
}
void plainCaller(torch::Tensor Data) { dispatchedUnguarded(Data); }

// ---- Negatives ----

torch::Tensor guarded(torch::Tensor Input) {
  const at::cuda::OptionalCUDAGuard DeviceGuard(at::device_of(Input));
  auto Output = torch::empty_like(Input);
  scaleKernel<<<1, 256>>>(Output.data_ptr<float>(), Input.data_ptr<float>(),
                          256);
  return Output;
}

void guardedByC10(torch::Tensor Input) {
  c10::cuda::CUDAGuard Guard(Input.device());
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
}

void guardedBySetDevice(torch::Tensor Input) {
  cudaSetDevice(Input.device().index());
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
}

// A template's launch, whose kernel stays unresolved until instantiation
// (apex's multi_tensor_apply): named all the same.
template <typename Op>
__global__ void applyKernel(float *out, const float *in, Op op) {}
template <typename Op> void launchApply(torch::Tensor Input, Op op) {
  applyKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(),
                          op);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: kernel 'applyKernel' is launched on the memory of 'Input' with no device guard: on a host with several GPUs it runs on the current device, not on 'Input''s [torch-missing-device-guard]
  // CHECK-NOTES: :[[@LINE-4]]:69: note: make the tensor's device current first, e.g. 'const at::cuda::OptionalCUDAGuard device_guard(device_of(Input));'
}
template void launchApply<int>(torch::Tensor, int);

// PyTorch 2's switches, as pytorch_cluster's radius() uses them.
void guardedByMaybeSetDevice(torch::Tensor Input) {
  c10::cuda::MaybeSetDevice(Input.device().index());
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
}
void guardedByExchangeDevice(torch::Tensor Input) {
  c10::cuda::ExchangeDevice(Input.device().index());
  scaleKernel<<<1, 256>>>(Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
}

// A helper whose every caller here makes the device current.
static void onlyGuardedCallers(torch::Tensor &Data) {
  scaleKernel<<<1, 256>>>(Data.data_ptr<float>(), Data.data_ptr<float>(), 1);
}
void firstCaller(torch::Tensor Data) {
  at::cuda::CUDAGuard Guard(Data.device());
  onlyGuardedCallers(Data);
}

// The same, with the guard in the only caller, or before the lambda.
static void dispatchedHelper(torch::Tensor &Data) {
  [&] {
    scaleKernel<<<1, 256>>>(Data.data_ptr<float>(), Data.data_ptr<float>(), 1);
  }();
}
void dispatchingCaller(torch::Tensor Data) {
  at::cuda::CUDAGuard Guard(Data.device());
  dispatchedHelper(Data);
}
void guardedBeforeLambda(torch::Tensor Data) {
  at::cuda::CUDAGuard Guard(Data.device());
  [&] {
    scaleKernel<<<1, 256>>>(Data.data_ptr<float>(), Data.data_ptr<float>(), 1);
  }();
}

// Plain CUDA memory, not a tensor's: the program chose its device itself.
void plainMemory(float *Out, const float *In) {
  scaleKernel<<<1, 256>>>(Out, In, 256);
}
