// FloatBits (core/float_bits.h) against core/dtype.h, which defines rounding, spacing and order:
// every fp16 and bf16 encoding, and random fp32/fp64 values across the exponent range.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "core/float_bits.h"

namespace aclnn_check {
namespace {

// Values around every encoding of a 16-bit dtype: the value, its midpoints with both neighbours
// (ties) and points just off them.
template <DType kDType>
void CompareAllSixteenBitEncodings() {
  using F = FloatBits<kDType>;
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const uint16_t encoding = static_cast<uint16_t>(bits);
    std::byte raw[2];
    std::memcpy(raw, &encoding, 2);
    const double value = DecodeElement(raw, kDType);
    if (std::isnan(value)) continue;
    ASSERT_EQ(std::bit_cast<uint64_t>(F::Decode(raw)), std::bit_cast<uint64_t>(value)) << bits;
    ASSERT_EQ(F::Ordered(value), OrderedIndex(value, kDType)) << bits;
    if (!std::isfinite(value)) continue;
    ASSERT_EQ(F::Ulp(value), Ulp(value, kDType)) << bits;
    const double up = NextUp(value, kDType);
    const double mid = std::isfinite(up) ? value + (up - value) / 2 : value;
    for (double probe : {value, mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY)}) {
      ASSERT_EQ(std::bit_cast<uint64_t>(F::Round(probe)), std::bit_cast<uint64_t>(RoundTo(probe, kDType)))
          << bits << " " << probe;
      ASSERT_EQ(F::Ulp(probe), Ulp(probe, kDType)) << probe;
    }
  }
}

TEST(FloatBits, MatchesDTypeOnEveryHalfEncoding) { CompareAllSixteenBitEncodings<DType::kFloat16>(); }
TEST(FloatBits, MatchesDTypeOnEveryBFloat16Encoding) { CompareAllSixteenBitEncodings<DType::kBFloat16>(); }

template <DType kDType>
void CompareRandomValues() {
  using F = FloatBits<kDType>;
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> exponent(-1074, 1023);
  std::uniform_real_distribution<double> significand(1, 2);
  for (int n = 0; n < 200000; ++n) {
    const double value = (n % 2 ? -1 : 1) * std::ldexp(significand(random), exponent(random));
    const double rounded = RoundTo(value, kDType);
    ASSERT_EQ(std::bit_cast<uint64_t>(F::Round(value)), std::bit_cast<uint64_t>(rounded)) << value;
    if (std::isfinite(value)) {
      ASSERT_EQ(F::Ulp(value), Ulp(value, kDType)) << value;
    }
    ASSERT_EQ(F::Ordered(rounded), OrderedIndex(rounded, kDType)) << rounded;
    std::byte raw[8];
    EncodeElement(raw, kDType, rounded);
    ASSERT_EQ(std::bit_cast<uint64_t>(F::Decode(raw)), std::bit_cast<uint64_t>(rounded));
    std::byte encoded[8];
    F::Encode(encoded, value);
    ASSERT_EQ(std::memcmp(encoded, raw, F::kBytes), 0) << value;
  }
}

TEST(FloatBits, MatchesDTypeOnRandomFloat32) { CompareRandomValues<DType::kFloat32>(); }
TEST(FloatBits, MatchesDTypeOnRandomFloat64) { CompareRandomValues<DType::kFloat64>(); }
TEST(FloatBits, MatchesDTypeOnRandomHalfAndBFloat16) {
  CompareRandomValues<DType::kFloat16>();
  CompareRandomValues<DType::kBFloat16>();
}

}  // namespace
}  // namespace aclnn_check
