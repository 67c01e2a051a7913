// RUN: %check_gpuguard %s torch-default-stream-launch %t -- -- %cuda_mock_flags -std=c++17 -isystem %inputs/torch

#include <cuda_runtime.h>
#include <torch/torch.h>

__global__ void scaleKernel(float *Out, const float *In, int N);

torch::Tensor noStream(torch::Tensor Input) {
  const at::cuda::OptionalCUDAGuard Guard(at::device_of(Input));
  auto Output = torch::empty_like(Input);
  scaleKernel<<<1, 256>>>(Output.data_ptr<float>(), Input.data_ptr<float>(),
                          256);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: kernel 'scaleKernel' on the memory of 'Output' runs on the default stream, not on PyTorch's current stream: it is not ordered with the work PyTorch queued on 'Output' [torch-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: pass 'at::cuda::getCurrentCUDAStream()' as the launch's stream, the fourth value between '<<<' and '>>>'
  return Output;
}

void zeroStream(torch::Tensor Input) {
  scaleKernel<<<1, 256, 0, 0>>>(Input.data_ptr<float>(),
                                Input.data_ptr<float>(), 1);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: kernel 'scaleKernel' on the memory of 'Input' runs on the default stream, not on PyTorch's current stream: it is not ordered with the work PyTorch queued on 'Input' [torch-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: pass 'at::cuda::getCurrentCUDAStream()' as the launch's stream, the fourth value between '<<<' and '>>>'
}

// ---- Negatives ----

void currentStream(torch::Tensor Input) {
  auto Stream = at::cuda::getCurrentCUDAStream();
  scaleKernel<<<1, 256, 0, Stream>>>(Input.data_ptr<float>(),
                                     Input.data_ptr<float>(), 1);
  scaleKernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      Input.data_ptr<float>(), Input.data_ptr<float>(), 1);
}

void ownStream(torch::Tensor Input, cudaStream_t Stream) {
  scaleKernel<<<1, 256, 0, Stream>>>(Input.data_ptr<float>(),
                                     Input.data_ptr<float>(), 1);
}

// Not a tensor's memory.
void plainMemory(float *Out, const float *In) {
  scaleKernel<<<1, 256>>>(Out, In, 256);
}
