// Instructions that the SIMD kernels use beyond what their Highway target guarantees, decided
// once per process from the CPU. Highway 1.0 has no target with AVX512-BF16, so the AVX-512
// targets ask here before they use its float32 to bfloat16 conversion.
#pragma once

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

}  // namespace aclnn_check::simd
