// The dtype encoders against paths written independently of them: the CPU's own half-precision
// conversions for fp16 (F16C on x86-64, FCVT on aarch64), and an integer round-to-nearest-even on
// float32 bits for bf16 (this machine has no AVX512-BF16). Exhaustive over the 16-bit patterns,
// every midpoint between neighbours, and a dense sweep of float32 inputs.
#include <gtest/gtest.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <bit>
#include <cmath>
#include <cstdint>

#include "core/dtype.h"

namespace aclnn_check {
namespace {

#if defined(__x86_64__)
__attribute__((target("f16c"))) float HardwareDecode(uint16_t bits) { return _cvtsh_ss(bits); }
__attribute__((target("f16c"))) uint16_t HardwareEncode(float value) {
  const __m128i packed = _mm_cvtps_ph(_mm_set_ss(value), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return static_cast<uint16_t>(_mm_cvtsi128_si32(packed) & 0xFFFF);
}

// CPUID rather than __builtin_cpu_supports: clang 14 does not know the "f16c" feature name there.
bool HaveHardwareHalf() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}
#elif defined(__aarch64__)
// __fp16 converts with FCVT, part of every ARMv8-A CPU, rounding to nearest even.
float HardwareDecode(uint16_t bits) { return static_cast<float>(std::bit_cast<__fp16>(bits)); }
uint16_t HardwareEncode(float value) { return std::bit_cast<uint16_t>(static_cast<__fp16>(value)); }
bool HaveHardwareHalf() { return true; }
#else
float HardwareDecode(uint16_t) { return 0; }
uint16_t HardwareEncode(float) { return 0; }
bool HaveHardwareHalf() { return false; }
#endif

// bf16 from float32 bits: add 0x7FFF plus the lowest kept bit, then drop the low half.
uint16_t IntegerBFloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

bool SameHalf(uint16_t a, uint16_t b) {
  const bool a_nan = (a & 0x7C00) == 0x7C00 && (a & 0x3FF);
  const bool b_nan = (b & 0x7C00) == 0x7C00 && (b & 0x3FF);
  return (a_nan && b_nan) || a == b;
}

bool SameBFloat16(uint16_t a, uint16_t b) {
  const bool a_nan = (a & 0x7F80) == 0x7F80 && (a & 0x7F);
  const bool b_nan = (b & 0x7F80) == 0x7F80 && (b & 0x7F);
  return (a_nan && b_nan) || a == b;
}

TEST(HalfAgainstHardware, DecodeEveryPattern) {
  if (!HaveHardwareHalf()) GTEST_SKIP() << "no half-precision conversion instructions known here";
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double ours = DecodeHalf(static_cast<uint16_t>(bits));
    const double theirs = HardwareDecode(static_cast<uint16_t>(bits));
    if (std::isnan(theirs)) {
      EXPECT_TRUE(std::isnan(ours)) << bits;
    } else {
      EXPECT_EQ(std::bit_cast<uint64_t>(ours), std::bit_cast<uint64_t>(theirs)) << bits;
    }
  }
}

TEST(HalfAgainstHardware, EncodeEveryMidpointAndNeighbour) {
  if (!HaveHardwareHalf()) GTEST_SKIP() << "no half-precision conversion instructions known here";
  for (uint32_t bits = 0; bits < 0x7C00; ++bits) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const float low = HardwareDecode(static_cast<uint16_t>(bits | sign));
      const float high = HardwareDecode(static_cast<uint16_t>((bits + 1) | sign));
      const float midpoint = (low + high) / 2;  // exact in float32
      for (float probe : {low, midpoint, std::nextafter(midpoint, 0.0f),
                          std::nextafter(midpoint, midpoint * 2)}) {
        ASSERT_EQ(EncodeHalf(probe), HardwareEncode(probe)) << "probe " << probe;
      }
    }
  }
}

TEST(HalfAgainstHardware, EncodeDenseFloatSweep) {
  if (!HaveHardwareHalf()) GTEST_SKIP() << "no half-precision conversion instructions known here";
  // Every 251st float32 pattern: all exponents, signs, NaNs and infinities.
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 251) {
    const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    ASSERT_TRUE(SameHalf(EncodeHalf(value), HardwareEncode(value))) << "bits " << bits;
  }
}

TEST(BFloat16AgainstIntegerRounding, EncodeEveryMidpointAndNeighbour) {
  for (uint32_t bits = 0; bits < 0x7F80; ++bits) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const uint32_t low_bits = (bits | sign) << 16;
      const float low = std::bit_cast<float>(low_bits);
      const float midpoint = std::bit_cast<float>(low_bits | 0x8000);  // exactly halfway
      for (float probe : {low, midpoint, std::nextafter(midpoint, 0.0f),
                          std::nextafter(midpoint, midpoint * 2)}) {
        ASSERT_EQ(EncodeBFloat16(probe), IntegerBFloat16(probe)) << "probe " << probe;
      }
    }
  }
}

TEST(BFloat16AgainstIntegerRounding, DecodeEveryPatternAndDenseSweep) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double ours = DecodeBFloat16(static_cast<uint16_t>(bits));
    const float theirs = std::bit_cast<float>(bits << 16);
    if (std::isnan(theirs)) {
      EXPECT_TRUE(std::isnan(ours)) << bits;
    } else {
      EXPECT_EQ(ours, static_cast<double>(theirs)) << bits;
    }
  }
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 251) {
    const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    ASSERT_TRUE(SameBFloat16(EncodeBFloat16(value), IntegerBFloat16(value))) << "bits " << bits;
  }
}

}  // namespace
}  // namespace aclnn_check
