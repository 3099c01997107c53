// The project's one SplitMix64 and one FNV-1a. Input generation (the counter-based generator keyed
// by seed, point id and tensor) and the precision re-check (its fresh seeds and bootstrap) depend
// on their exact numbers: a test point's data must be the same on every machine and in every
// release, so neither may change.
#pragma once

#include <cstdint>
#include <string_view>

namespace aclnn_check {

inline constexpr uint64_t kSplitMix64Increment = 0x9E3779B97F4A7C15ull;

// SplitMix64's output function alone (a bijective mix of 64 bits).
constexpr uint64_t SplitMix64Finalize(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The output of a SplitMix64 generator whose state was `state` before the step.
constexpr uint64_t SplitMix64(uint64_t state) {
  return SplitMix64Finalize(state + kSplitMix64Increment);
}

inline constexpr uint64_t kFnv1aOffsetBasis = 0xCBF29CE484222325ull;

// 64-bit FNV-1a of `bytes`, continuing from `hash` (start from kFnv1aOffsetBasis).
constexpr uint64_t Fnv1a(std::string_view bytes, uint64_t hash = kFnv1aOffsetBasis) {
  for (char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
  return hash;
}

}  // namespace aclnn_check
