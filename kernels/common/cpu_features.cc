#include "common/cpu_features.h"

namespace aclnn_check::simd {
namespace {

bool CpuHasAvx512Bf16() {
#if defined(__x86_64__) || defined(__i386__)
  // Dynamic initialisation may run before libgcc's own constructor has read cpuid.
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

}  // namespace

namespace detail {
bool avx512_bf16_enabled = CpuHasAvx512Bf16();
}  // namespace detail

void EnableAvx512Bf16(bool enabled) { detail::avx512_bf16_enabled = enabled && CpuHasAvx512Bf16(); }

}  // namespace aclnn_check::simd
