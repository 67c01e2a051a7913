// In CUDA files, host code that takes a tensor's data pointer registers the
// tensor's storage with the runtime (in every copy, flagged or not), so that
// the pointer checks of kernels know LibTorch's memory; every launch first
// brings the device's registry up to date. Through a pointer or inside a
// macro the call is left as it is, and plain C++ files get neither. With
// --instrument=all, torch-unchecked-kernel-input also checks each tensor the
// kernel receives.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gpuguard instrument --quiet -o %t/flagged %t/ext.cu -- %cuda_mock_flags %torch_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines < %t/flagged%t/ext.cu
// RUN: %gpuguard instrument --quiet --instrument=all -o %t/all %t/ext.cu -- %cuda_mock_flags %torch_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefix=ALL < %t/all%t/ext.cu
// RUN: %gpuguard instrument --quiet -o %t/host %t/host.cpp -- %torch_mock_flags > /dev/null 2>&1
// RUN: not grep -e tensorMemory -e beforeLaunch %t/host%t/host.cpp
// RUN: grep -c 'a.data_ptr<float>()' %t/host%t/host.cpp

//--- ext.cu
#include <cuda_runtime.h>
#include <torch/torch.h>

#define DATA(t) t.data_ptr<float>()

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

void launchScale(at::Tensor &out, const at::Tensor &in, int n) {
  scale<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), in.data_ptr<float>(), n);
// CHECK:  (::gpuguard::rt::beforeLaunch(), scale<<<(n + 255) / 256, 256>>>(::gpuguard::rt::tensorMemory(out).data_ptr<float>(), ::gpuguard::rt::tensorMemory(in).data_ptr<float>(), n));
// ALL:  (::gpuguard::rt::beforeLaunch(), (scale<<<(n + 255) / 256, 256>>>(::gpuguard::rt::torch::operand(gpuguard_sites_[0], 0, 1, ::gpuguard::rt::tensorMemory(out)).data_ptr<float>(), ::gpuguard::rt::torch::operand(gpuguard_sites_[1], 0, 1, ::gpuguard::rt::tensorMemory(in)).data_ptr<float>(), n), ::gpuguard::rt::checkLaunch(::gpuguard::rt::SiteRef{0x{{[0-9a-f]+}}ULL, 2})));
  if (cudaGetLastError() != cudaSuccess)
    return;
  float *raw = out.data_ptr<float>();
// CHECK:  float *raw = ::gpuguard::rt::tensorMemory(out).data_ptr<float>();
  const at::Tensor *p = &in;
  const float *viaPointer = p->data_ptr<float>();
// CHECK:  const float *viaPointer = p->data_ptr<float>();
  float *inMacro = DATA(out);
// CHECK:  float *inMacro = DATA(out);
  (void)raw, (void)viaPointer, (void)inMacro;
}

//--- host.cpp
#include <torch/torch.h>

float *first(const at::Tensor &a) { return a.data_ptr<float>(); }
