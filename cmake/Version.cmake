# gpuguard's version, shared by the whole build and by the runtime library
# built on its own (runtime/CMakeLists.txt).
set(GPUGUARD_VERSION 0.1.0)
