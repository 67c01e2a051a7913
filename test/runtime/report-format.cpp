// The runtime's reports as a program sees them: every check compiled as
// host C++ (with Clang and with GCC), one report per site, the summary, and
// each GPUGUARD_OPTIONS entry. A device check that runs on the host names
// its function, not a kernel, block and thread.
//
// RUN: %clangxx -std=c++17 -Wall -Wextra -Werror -I%runtime_include %s %runtime_lib -o %t
// RUN: %t 2>&1 | FileCheck %s --check-prefixes=REPORT,SUMMARY --implicit-check-not="runtime error"
//
// Built by GCC, the same.
// RUN: %if gxx %{ %gxx -std=c++17 -Wall -Wextra -Werror -I%runtime_include %s %runtime_lib -o %t.gcc %}
// RUN: %if gxx %{ %t.gcc 2>&1 | FileCheck %s --check-prefixes=REPORT,SUMMARY --implicit-check-not="runtime error" %}
//
// halt_on_error=1: the first report, then abort; no summary.
// RUN: env GPUGUARD_OPTIONS=halt_on_error=1 not --crash %t > %t.halt 2>&1
// RUN: FileCheck %s --check-prefix=HALT --implicit-check-not="runtime error" --implicit-check-not=SUMMARY < %t.halt
//
// max_reports=2: two reports, the rest counted.
// RUN: env GPUGUARD_OPTIONS=max_reports=2 %t 2>&1 | FileCheck %s --check-prefix=MAX --implicit-check-not="runtime error"
//
// print_summary=0: the reports only.
// RUN: env GPUGUARD_OPTIONS=print_summary=0 %t 2>&1 | FileCheck %s --check-prefix=REPORT --implicit-check-not=SUMMARY
//
// log_path: reports go to <log_path>.<pid>, nothing to stderr.
// RUN: rm -rf %t.logs && mkdir %t.logs
// RUN: env GPUGUARD_OPTIONS=log_path=%t.logs/rt %t > %t.stderr 2>&1
// RUN: FileCheck %s --check-prefix=DONE --implicit-check-not="runtime error" < %t.stderr
// RUN: cat %t.logs/rt.* | FileCheck %s --check-prefixes=REPORT,SUMMARY --implicit-check-not="runtime error"
//
// A bad option: one warning naming it; the others still apply.
// RUN: env GPUGUARD_OPTIONS=max_report=3:print_summary=0 %t 2>&1 | FileCheck %s --check-prefixes=BAD,REPORT --implicit-check-not=SUMMARY --implicit-check-not=gpuguard:

#include <gpuguard/report.h>
#include <gpuguard/rt.h>

#include <cmath>
#include <cstdio>

// What `gpuguard instrument` writes at the top of a copy.
static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {
    {"/src/model.cu", 12, 7, "scatter", "cuda-unchecked-index", 1, -1, "idx"},
    {"/src/model.cu", 20, 3, "scatter", "cuda-unchecked-index", 2, -1, "out"},
    {"/src/model.cu", 31, 15, "normalize", "cuda-div-by-zero", 3, -1, "count"},
    {"/src/model.cu", 40, 9, "bucketize", "cuda-nan-to-index", 4, -1, "x"},
    {"/src/train.cpp", 7, 5, "train", "torch-index-range", 21, -1, "ids"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    gpuguard_registrar_(0x5eedULL, gpuguard_sites_, 5,
                        GPUGUARD_SITE_TABLE_ABI_VERSION);

using gpuguard::rt::SiteRef;

int main() {
  int Sum = 0;
  // Three failures at one site: one report.
  for (int I = 8; I < 11; ++I)
    Sum += gpuguard::rt::checkIndex(I, 8, SiteRef{0x5eedULL, 0});
  static float Buffer[16];
  gpuguard::rt::detail::registerAllocation(Buffer, sizeof(Buffer));
  Sum += gpuguard::rt::checkPointerIndex(Buffer, 16, SiteRef{0x5eedULL, 1});
  Sum += gpuguard::rt::checkDivisor(0u, SiteRef{0x5eedULL, 2});
  Sum += static_cast<int>(
      gpuguard::rt::checkFinite(std::nan(""), SiteRef{0x5eedULL, 3}));
  gpuguard::rt::reportHost(gpuguard_sites_[4], "embedding index out of range",
                           "index 1000, num_embeddings 1000");
  // Safe values: 0 for the indices and the value, 1 for the divisor.
  std::fprintf(stderr, "done %d\n", Sum);
  return 0;
}

// BAD: gpuguard: ignoring GPUGUARD_OPTIONS entry 'max_report=3': unknown option

// REPORT: /src/model.cu:12:7: runtime error: index 'idx' out of bounds (index 8, bound 8) in scatter [cuda-unchecked-index]
// REPORT: /src/model.cu:20:3: runtime error: index 'out' outside its allocation (index 16, extent 16 elements) in scatter [cuda-unchecked-index]
// REPORT: /src/model.cu:31:15: runtime error: division by zero in 'count' (divisor 0) in normalize [cuda-div-by-zero]
// REPORT: /src/model.cu:40:9: runtime error: non-finite value 'x' before an integer cast (value nan) in bucketize [cuda-nan-to-index]
// REPORT: /src/train.cpp:7:5: runtime error: embedding index out of range (index 1000, num_embeddings 1000) in train [torch-index-range]
// DONE: done 1
// SUMMARY: SUMMARY: gpuguard: 7 runtime error(s) at 5 site(s){{$}}

// HALT: /src/model.cu:12:7: runtime error: index 'idx' out of bounds (index 8, bound 8)
// HALT-NOT: done

// MAX: /src/model.cu:12:7: runtime error: index 'idx'
// MAX: /src/model.cu:20:3: runtime error: index 'out'
// MAX: done 1
// MAX: {{SUMMARY}}: gpuguard: 7 runtime error(s) at 5 site(s); 3 site(s) not printed (max_reports=2)
