#include "cpu/cpu_kernel.h"

namespace aclnn_check {

const CpuKernel* FindCpuKernel(std::string_view folder) {
  for (const CpuKernel& kernel : CpuKernels()) {
    if (kernel.folder == folder) return &kernel;
  }
  return nullptr;
}

}  // namespace aclnn_check
