// A copy instrumented by another gpuguard, whose site table has another
// layout, is not read: the runtime says so in one line naming the file and
// both versions, and the copy's checks still run, reporting their sites as
// unknown. A table of this runtime's version beside it works as usual.
//
// RUN: %clangxx -std=c++17 -Wall -Wextra -Werror -I%runtime_include %s %runtime_lib -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: gpuguard: ignoring the site table of /src/old.cu: it was instrumented for site-table ABI version [[OTHER:[0-9]+]], this runtime has version [[CURRENT:[0-9]+]]; instrument it again with the gpuguard of this runtime
// CHECK-NOT: ignoring the site table of /src/new.cu
// CHECK: <unknown site 0x1d#0>: runtime error: check failed (9, 8)
// CHECK: /src/new.cu:3:9: runtime error: index 'i' out of bounds (index 9, bound 8) in fresh [cuda-unchecked-index]
// CHECK: done 0

#include "gpuguard/rt.h"
#include <cstdio>

static const ::gpuguard::rt::SiteInfo OldSites[] = {
    {"/src/old.cu", 12, 7, "stale", "cuda-unchecked-index", 1, -1, "idx"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    OldRegistrar(0x01dULL, OldSites, 1, GPUGUARD_SITE_TABLE_ABI_VERSION + 1);

static const ::gpuguard::rt::SiteInfo NewSites[] = {
    {"/src/new.cu", 3, 9, "fresh", "cuda-unchecked-index", 1, -1, "i"},
};
static const ::gpuguard::rt::SiteTableRegistrar
    NewRegistrar(0x2eeULL, NewSites, 1, GPUGUARD_SITE_TABLE_ABI_VERSION);

int main() {
  int Sum = gpuguard::rt::checkIndex(9, 8, {0x01dULL, 0});
  Sum += gpuguard::rt::checkIndex(9, 8, {0x2eeULL, 0});
  std::fprintf(stderr, "done %d\n", Sum);
  return 0;
}
