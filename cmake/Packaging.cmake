# A Debian package of everything `cmake --install` installs, under /usr:
#
#   cpack -G DEB --config <build dir>/CPackConfig.cmake -B <output dir>
#
# gives <output dir>/gpuguard_<version>_<arch>.deb.

set(CPACK_PACKAGE_NAME gpuguard)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static checker for CUDA kernels and LibTorch C++ code")
# The package's long description (the summary is its first line), in lines
# short enough for `apt show`.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "gpuguard finds the causes of 'CUDA error: device-side assert triggered'"
  "before the code runs: unguarded thread indexes, zero divisors, unchecked"
  "CUDA API calls, out-of-range embedding ids and labels, in-place writes to"
  "tensors that autograd saved, and tensors on different devices. It is"
  "built on Clang and clang-tidy, reads .clang-tidy files and compile"
  "databases, and ships a clang-tidy plugin and a runtime-check library for"
  "instrumented builds.")
set(GPUGUARD_PACKAGE_CONTACT "gpuguard maintainers <gpuguard@example.invalid>"
  CACHE STRING "Maintainer of the packages cpack builds: 'Name <email>'")
set(CPACK_PACKAGE_CONTACT "${GPUGUARD_PACKAGE_CONTACT}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The binary and the plugin lose their symbol tables, as in any Debian
# package; CMake strips nothing else, so the static archives stay linkable.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the binary loads (ldd: libclang-cpp, libLLVM, libfmt, libcurl and
# hiredis for the shared result cache, and the C++ runtime), and the Clang resource directory it parses with
# (GPUGUARD_CLANG_RESOURCE_DIR: stddef.h and the CUDA wrapper headers),
# which Debian ships in libclang-common-N-dev. Package names carry the
# library's major version, so they follow the versions built against.
# hiredis's package names carry major.minor (libhiredis0.14).
string(REGEX MATCH "^[0-9]+\\.[0-9]+" HiredisSeries "${Hiredis_VERSION}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libclang-cpp${LLVM_VERSION_MAJOR}"
  "libllvm${LLVM_VERSION_MAJOR}"
  "libclang-common-${LLVM_VERSION_MAJOR}-dev"
  "libfmt${fmt_VERSION_MAJOR}"
  "libcurl4"
  "libhiredis${HiredisSeries}"
  "libstdc++6"
  "libgcc-s1"
  "libc6")
list(JOIN CPACK_DEBIAN_PACKAGE_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# The plugin needs clang-tidy; LibTorch files are parsed with LibTorch's
# headers; the CUDA toolkit's headers replace the bundled ones.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
  "clang-tidy-${LLVM_VERSION_MAJOR}, libtorch-dev, nvidia-cuda-toolkit")

include(CPack)
