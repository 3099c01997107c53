# The cuda provider (libaclnn_cuda.so): the aclnn C interface over CUDA, with the kernels of
# kernels/<op>/cuda_kernel.cu. Built only where CMake finds a CUDA compiler; the rest of the
# project neither needs nor notices it. Sets ACLNN_CHECK_CUDA_PROVIDER for the tests.
option(ACLNN_CHECK_CUDA "Build the cuda provider where a CUDA compiler is found" ON)
set(ACLNN_CHECK_CUDA_PROVIDER OFF)
if(NOT ACLNN_CHECK_CUDA)
  message(STATUS "cuda provider: skipped (ACLNN_CHECK_CUDA=OFF)")
  return()
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "cuda provider: skipped (no CUDA compiler found)")
  return()
endif()
# Hopper (sm_90) only by default, to keep the compile short; e.g. -DCMAKE_CUDA_ARCHITECTURES="80;90".
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
# CMake 3.25 knows no C++20 flag for nvcc; nvcc 12 and later take -std=c++20.
set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION -std=c++20)
set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION -std=c++20)
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_EXTENSIONS OFF)
set(ACLNN_CHECK_CUDA_PROVIDER ON)

aclnn_collect_cuda_kernels()
add_library(aclnn_cuda SHARED
  providers/cuda/backend.cc
  providers/cuda/events.cc
  providers/cuda/runtime.cc
  providers/cuda/contexts.cc
  kernels/cuda/cuda_column_sum.cu
  kernels/cuda/cuda_launch.cu
  ${ACLNN_CUDA_KERNEL_SOURCES})
target_include_directories(aclnn_cuda PRIVATE ${CMAKE_SOURCE_DIR}/kernels)
target_link_libraries(aclnn_cuda PRIVATE aclnn_provider_runtime CUDA::cudart_static)
target_link_options(aclnn_cuda PRIVATE ${provider_link_options})
# Every multiply and add rounded on its own, as in the cpu kernels (kernel.cc) that define the
# results; the kernels are memory-bound, so contraction would buy nothing.
set(cuda_options --fmad=false -Xcompiler=-Wall,-Wextra)
if(ACLNN_CHECK_WERROR)
  list(APPEND cuda_options -Werror=all-warnings -Xcompiler=-Werror)
endif()
target_compile_options(aclnn_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${cuda_options}>)
add_dependencies(aclnn-check aclnn_cuda)
message(STATUS "cuda provider: on (${CMAKE_CUDA_COMPILER}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
