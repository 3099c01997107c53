#include "cpu/cpu_features.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>
#include <string_view>

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
uint64_t stream_outputs_above = 0;
}  // namespace detail

void StreamOutputsAbove(uint64_t bytes) { detail::stream_outputs_above = bytes; }

void EnableAvx512Bf16(bool enabled) { detail::avx512_bf16_enabled = enabled && CpuHasAvx512Bf16(); }

// The largest data or unified cache that Linux lists for CPU 0, from sysfs: the cache one core
// reaches (glibc's sysconf reports the whole socket's L3 on AMD EPYC: 320 MiB where a core's
// CCX has 32 MiB).
uint64_t LastLevelCacheBytes() {
  static const uint64_t bytes = [] {
    uint64_t largest = 0;
    for (int index = 0; index < 8; ++index) {
      const std::string folder =
          "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
      std::ifstream type_file(folder + "type"), size_file(folder + "size");
      std::string type, size;
      if (!(type_file >> type) || !(size_file >> size) || type == "Instruction") continue;
      uint64_t value = 0;
      const char* const end = size.data() + size.size();
      const auto [unit, error] = std::from_chars(size.data(), end, value);  // "32768K"
      if (error != std::errc()) continue;
      if (std::string_view(unit, end) == "K") value <<= 10;
      if (std::string_view(unit, end) == "M") value <<= 20;
      largest = std::max(largest, value);
    }
    return largest > 0 ? largest : uint64_t{32} << 20;
  }();
  return bytes;
}

}  // namespace aclnn_check::simd
