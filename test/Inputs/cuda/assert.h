//===- assert.h - Mock assert for tests -------------------------*- C++ -*-===//
//
// Stands in for the C library's <assert.h> (and so <cassert>) in gpuguard's
// unit tests, next to the mock cuda_runtime.h: assert() must be callable from
// device code as well as host code, so __assert_fail is declared for both.
//
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TEST_MOCK_ASSERT_H
#define GPUGUARD_TEST_MOCK_ASSERT_H

extern "C" [[noreturn]] __attribute__((host, device)) void
__assert_fail(const char *Assertion, const char *File, unsigned Line,
              const char *Function);

#endif // GPUGUARD_TEST_MOCK_ASSERT_H

#ifndef assert
#ifdef NDEBUG
#define assert(Expr) ((void)0)
#else
#define assert(Expr)                                                           \
  ((Expr) ? (void)0                                                            \
          : __assert_fail(#Expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
#endif
