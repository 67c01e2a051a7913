// RUN: %check_gpuguard %s torch-div-by-zero %t -- -- %torch_mock_flags

// TODO: positives with their expectations next to them, and every negative
// (idiomatic code that must stay silent) in this same file. This line fails
// the test until then:
// CHECK-MESSAGES: warning: {{.*}} [torch-div-by-zero]
