// What the SIMD kernels choose by beyond their Highway target, decided once per process from the
// CPU: instructions (Highway 1.0 has no target with AVX512-BF16, so the AVX-512 targets ask here
// before they use its float32 to bfloat16 conversion) and the last-level cache's size.
#pragma once

#include <cstdint>

namespace aclnn_check::simd {

namespace detail {
extern bool avx512_bf16_enabled;
}  // namespace detail

// True on a CPU with AVX512-BF16 (Zen 4 and later, Cooper Lake, Sapphire Rapids) unless a test
// has turned it off. Inline: the hot loops ask once per stored vector.
inline bool Avx512Bf16Enabled() { return detail::avx512_bf16_enabled; }

// Tests only: false makes the AVX-512 targets round to bfloat16 without the instruction, as on
// every other CPU; true restores what the CPU offers (never more).
void EnableAvx512Bf16(bool enabled);

// The size in bytes of the largest cache a core reaches (Linux's sysfs; 32 MiB where the system
// does not say).
uint64_t LastLevelCacheBytes();

namespace detail {
extern uint64_t stream_outputs_above;  // 0: the last-level cache's size
}  // namespace detail

// Whether a call that moves `bytes` in all should write its outputs past the caches. Above the
// last-level cache they would not stay there for the next operator anyway, and a streamed store
// skips the read for ownership of every output line: Hardswish and Logit at 16 Mi elements ran
// 20-30 % faster (Zen 4 EPYC, 1 and 2 threads), and so did LayerNormBackward's float32 rows.
// Within the cache streaming loses (1 MiB float32 tensors: 17 % slower). SwiGlu, which computes
// long per vector, measured slower with it at any size and does not ask.
inline bool StreamOutputs(uint64_t bytes) {
  return bytes > (detail::stream_outputs_above ? detail::stream_outputs_above
                                               : LastLevelCacheBytes());
}

// Tests only: calls that move more than `bytes` stream their outputs, so that small calls take
// the streamed path; 0 restores the last-level cache's size.
void StreamOutputsAbove(uint64_t bytes);

}  // namespace aclnn_check::simd
