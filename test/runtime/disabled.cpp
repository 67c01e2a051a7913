// GPUGUARD_RT_DISABLE: every check is an identity, nothing is recorded, and
// nothing of the runtime library is needed: the program links without it.
//
// RUN: %clangxx -std=c++17 -O2 -DGPUGUARD_RT_DISABLE -I%runtime_include %s -o %t
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not="runtime error" --implicit-check-not=SUMMARY
// RUN: %if gxx %{ %gxx -std=c++17 -O2 -DGPUGUARD_RT_DISABLE -I%runtime_include %s -o %t.gcc %}
// RUN: %if gxx %{ %t.gcc 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not="runtime error" %}
//
// The checks compile to nothing: each function is its own argument.
// RUN: %clangxx -std=c++17 -O2 -DGPUGUARD_RT_DISABLE -I%runtime_include %s -S -o - \
// RUN:   -fno-asynchronous-unwind-tables -masm=att --target=x86_64-linux-gnu \
// RUN:   | FileCheck %s --check-prefix=ASM
//
// Enabled, the same functions do call into the runtime (so the ASM check
// above can tell the difference).
// RUN: %clangxx -std=c++17 -O2 -I%runtime_include %s -S -o - \
// RUN:   -fno-asynchronous-unwind-tables -masm=att --target=x86_64-linux-gnu \
// RUN:   | FileCheck %s --check-prefix=ENABLED

#include <gpuguard/rt.h>

#include <cmath>
#include <cstdio>

using gpuguard::rt::SiteRef;

static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/a.cu", 1, 1, "k", "cuda-unchecked-index", 1, -1, "i"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0x1ULL, gpuguard_sites_, 1,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);

extern "C" int index_check(int I, int N) {
  return gpuguard::rt::checkIndex(I, N, SiteRef{1, 0});
}
extern "C" long pointer_check(const float *P, long I) {
  return gpuguard::rt::checkPointerIndex(P, I, SiteRef{1, 0});
}
extern "C" int divisor_check(int D) {
  return gpuguard::rt::checkDivisor(D, SiteRef{1, 0});
}
extern "C" double finite_check(double X) {
  return gpuguard::rt::checkFinite(X, SiteRef{1, 0});
}

int main(int Argc, char **) {
  volatile int Big = 100 + Argc;
  float Buffer[4] = {};
  std::printf("index %d\n", index_check(Big, 4));
  std::printf("pointer %ld\n", pointer_check(Buffer, Big));
  std::printf("divisor %d\n", divisor_check(Big - Big));
  std::printf("finite %g\n", finite_check(std::nan("")));
  return 0;
}

// OUT: index 101
// OUT: pointer 101
// OUT: divisor 0
// OUT: finite nan

// ASM-LABEL: index_check:
// ASM-NEXT: # %bb.0:
// ASM-NEXT: movl %edi, %eax
// ASM-NEXT: retq
// ASM-LABEL: pointer_check:
// ASM-NEXT: # %bb.0:
// ASM-NEXT: movq %rsi, %rax
// ASM-NEXT: retq
// ASM-LABEL: divisor_check:
// ASM-NEXT: # %bb.0:
// ASM-NEXT: movl %edi, %eax
// ASM-NEXT: retq
// ASM-LABEL: finite_check:
// ASM-NEXT: # %bb.0:
// ASM-NEXT: retq
// ASM-NOT: gpuguard{{.*}}Registrar

// ENABLED-LABEL: index_check:
// ENABLED: submitRecord
// ENABLED-LABEL: pointer_check:
// ENABLED: findAllocation
// ENABLED-LABEL: divisor_check:
// ENABLED: submitRecord
// ENABLED-LABEL: finite_check:
// ENABLED: submitRecord
