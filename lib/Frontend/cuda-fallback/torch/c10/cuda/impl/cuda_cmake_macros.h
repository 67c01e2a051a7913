// Stands in for the header LibTorch's CMake build generates for c10/cuda,
// which LibTorch packages built without CUDA (Debian's libtorch-dev) leave
// out although they ship c10/cuda's other headers. gpuguard adds it to the
// search path of CUDA sources, and of C++ sources that include CUDA
// headers, only when LibTorch's own copy is missing.
// Parsing needs no macro from it: C10_CUDA_BUILD_SHARED_LIBS only chooses
// dllexport/dllimport attributes.
#pragma once
