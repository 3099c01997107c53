# Cross build for aarch64 Linux on a Debian 12 x86-64 host (tools/cross-aarch64 sets it up;
# README.md, "aarch64"). The libraries come from Debian's multiarch :arm64 packages under
# /usr/lib/aarch64-linux-gnu, except HDF5's development files, whose :arm64 package conflicts with
# the amd64 one and is unpacked into ACLNN_CHECK_HDF5_SYSROOT instead.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# gtest_discover_tests and ctest run the test programs under qemu-user. QEMU_LD_PREFIX=/ and not
# `-L /usr/aarch64-linux-gnu`: with -L, children forked by the isolating runner hang under qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR env QEMU_LD_PREFIX=/ qemu-aarch64)

set(ACLNN_CHECK_HDF5_SYSROOT "" CACHE PATH
    "Where libhdf5-dev:arm64 was unpacked (dpkg -x); tools/cross-aarch64 fills it")
if(ACLNN_CHECK_HDF5_SYSROOT)
  # FindHDF5 would ask the host's h5cc, which names the amd64 files; point it at the unpacked ones.
  set(HDF5_C_COMPILER_EXECUTABLE "" CACHE FILEPATH "" FORCE)
  set(HDF5_C_INCLUDE_DIR ${ACLNN_CHECK_HDF5_SYSROOT}/usr/include/hdf5/serial CACHE PATH "")
  # The library itself is libhdf5-103-1:arm64's, which installs beside the amd64 one.
  set(HDF5_hdf5_LIBRARY_RELEASE /usr/lib/aarch64-linux-gnu/libhdf5_serial.so.103 CACHE FILEPATH "")
endif()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
