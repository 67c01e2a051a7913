// torch-unchecked-kernel-input's runtime twin: the tensor a kernel receives
// is captured in the launch, and checked there to be a CUDA tensor on the
// current device (contiguous too, when the kernel indexes it flat). Flagged
// mode keeps the findings' sites; --instrument=all checks every tensor a
// kernel receives, with the stride-taking and contiguous ones checked for
// the device only.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gpuguard instrument --quiet --checks='-*,torch-unchecked-kernel-input' -o %t/flagged %t/ext.cu -- %cuda_mock_flags %torch_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines < %t/flagged%t/ext.cu
// RUN: %gpuguard instrument --quiet --instrument=all --checks='-*,torch-unchecked-kernel-input' -o %t/all %t/ext.cu -- %cuda_mock_flags %torch_mock_flags > /dev/null 2>&1
// RUN: FileCheck %s --match-full-lines --check-prefix=ALL < %t/all%t/ext.cu

// The table is named in host functions, which nvcc's device pass parses as
// well: only its registration is the host pass's.
// CHECK:      #include <gpuguard/torch.h>
// CHECK-NEXT: static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
// CHECK-NEXT: {{ *}}{"{{.*}}ext.cu", 7, 25, "forward", "torch-unchecked-kernel-input", 34, -1, "out"},
// CHECK-NEXT: {{ *}}{"{{.*}}ext.cu", 7, 47, "forward", "torch-unchecked-kernel-input", 34, -1, "in"},
// CHECK-NEXT: };
// CHECK-NEXT: #ifndef __CUDA_ARCH__
// CHECK-NEXT: static const ::gpuguard::rt::SiteTableRegistrar gpuguard_registrar_(
// CHECK:      scale<<<1, 256>>>(::gpuguard::rt::torch::operand(gpuguard_sites_[0], 0, 1, out).data_ptr<float>(), ::gpuguard::rt::torch::operand(gpuguard_sites_[1], 0, 1, in).data_ptr<float>(), 1);
// CHECK:      scale<<<1, 256>>>(out.data_ptr<float>(), in.data_ptr<float>(), in.stride(0));

// ALL:      {{ *}}{"{{.*}}ext.cu", 7, 25, "forward", "torch-unchecked-kernel-input", 34, -1, "out"},
// ALL-NEXT: {{ *}}{"{{.*}}ext.cu", 7, 47, "forward", "torch-unchecked-kernel-input", 34, -1, "in"},
// ALL-NEXT: {{ *}}{"{{.*}}ext.cu", 11, 25, "strided", "torch-unchecked-kernel-input", 34, -1, "out"},
// ALL-NEXT: {{ *}}{"{{.*}}ext.cu", 11, 47, "strided", "torch-unchecked-kernel-input", 33, -1, "in"},
// ALL-NEXT: };
// ALL:      scale<<<1, 256>>>(::gpuguard::rt::torch::operand(gpuguard_sites_[2], 0, 1, out).data_ptr<float>(), ::gpuguard::rt::torch::operand(gpuguard_sites_[3], 0, 1, in).data_ptr<float>(), in.stride(0));

//--- ext.cu
#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void scale(float *out, const float *in, long stride);

void forward(at::Tensor out, at::Tensor in) {
  scale<<<1, 256>>>(out.data_ptr<float>(), in.data_ptr<float>(), 1);
}
void strided(at::Tensor out, at::Tensor in) {
  TORCH_CHECK(out.is_cuda() && in.is_cuda() && out.is_contiguous());
  scale<<<1, 256>>>(out.data_ptr<float>(), in.data_ptr<float>(), in.stride(0));
}
PYBIND11_MODULE(ext, m) {
  m.def("forward", &forward);
  m.def("strided", &strided);
}
