// The dtype module against hand-computed values: every rounding tie, overflow, subnormals, ULPs.
#include "core/dtype.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double P2(int e) { return std::ldexp(1.0, e); }

TEST(HalfEncoding, KnownPatterns) {
  EXPECT_EQ(EncodeHalf(0.0), 0x0000);
  EXPECT_EQ(EncodeHalf(-0.0), 0x8000);
  EXPECT_EQ(EncodeHalf(1.0), 0x3C00);
  EXPECT_EQ(EncodeHalf(-2.0), 0xC000);
  EXPECT_EQ(EncodeHalf(65504.0), 0x7BFF);
  EXPECT_EQ(EncodeHalf(P2(-14)), 0x0400);  // smallest normal
  EXPECT_EQ(EncodeHalf(P2(-24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(EncodeHalf(kInf), 0x7C00);
  EXPECT_EQ(EncodeHalf(-kInf), 0xFC00);
}

TEST(HalfEncoding, TiesRoundToEven) {
  // Between 1 and 1 + 2^-10 (even significand 1.0): ties go down.
  EXPECT_EQ(EncodeHalf(1.0 + P2(-11)), 0x3C00);
  // Between 1 + 2^-10 (odd) and 1 + 2^-9 (even): ties go up.
  EXPECT_EQ(EncodeHalf(1.0 + 3 * P2(-11)), 0x3C02);
  // Just above and below a tie.
  EXPECT_EQ(EncodeHalf(1.0 + P2(-11) + P2(-40)), 0x3C01);
  EXPECT_EQ(EncodeHalf(1.0 + 3 * P2(-11) - P2(-40)), 0x3C01);
  // A double above a tie that float32 would round onto the tie: one rounding from double.
  EXPECT_EQ(EncodeHalf(1.0 + P2(-11) + P2(-30)), 0x3C01);
  // Negative ties mirror positive ones.
  EXPECT_EQ(EncodeHalf(-(1.0 + P2(-11))), 0xBC00);
  EXPECT_EQ(EncodeHalf(-(1.0 + 3 * P2(-11))), 0xBC02);
  // Subnormal ties: half the smallest subnormal goes to 0, 1.5 units to 2 units.
  EXPECT_EQ(EncodeHalf(P2(-25)), 0x0000);
  EXPECT_EQ(EncodeHalf(3 * P2(-25)), 0x0002);
  EXPECT_EQ(EncodeHalf(P2(-25) + P2(-60)), 0x0001);
  EXPECT_EQ(EncodeHalf(-P2(-25)), 0x8000);
  // The largest subnormal plus half a unit is a tie between 0x03FF (odd) and 0x0400: up.
  EXPECT_EQ(EncodeHalf(P2(-14) - P2(-25)), 0x0400);
  // Rounding up into the next binade.
  EXPECT_EQ(EncodeHalf(2.0 - P2(-12)), 0x4000);
}

TEST(HalfEncoding, OverflowAndNaN) {
  // 65520 is the tie between 65504 (odd significand) and 65536: rounds to infinity.
  EXPECT_EQ(EncodeHalf(65520.0), 0x7C00);
  EXPECT_EQ(EncodeHalf(std::nextafter(65520.0, 0.0)), 0x7BFF);
  EXPECT_EQ(EncodeHalf(-65520.0), 0xFC00);
  EXPECT_EQ(EncodeHalf(1e300), 0x7C00);
  const uint16_t nan = EncodeHalf(kNaN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
  EXPECT_TRUE(std::isnan(DecodeHalf(nan)));
  EXPECT_TRUE(std::isnan(DecodeHalf(EncodeHalf(-kNaN))));
}

TEST(BFloat16Encoding, TiesOverflowAndNaN) {
  EXPECT_EQ(EncodeBFloat16(1.0), 0x3F80);
  EXPECT_EQ(EncodeBFloat16(1.0 + P2(-8)), 0x3F80);             // tie, even below
  EXPECT_EQ(EncodeBFloat16(1.0 + 3 * P2(-8)), 0x3F82);         // tie, even above
  EXPECT_EQ(EncodeBFloat16(1.0 + P2(-8) + P2(-30)), 0x3F81);   // above the tie
  EXPECT_EQ(EncodeBFloat16(P2(-133)), 0x0001);                 // smallest subnormal
  EXPECT_EQ(EncodeBFloat16(P2(-134)), 0x0000);                 // its half: tie to even 0
  EXPECT_EQ(EncodeBFloat16(3 * P2(-134)), 0x0002);
  const double largest = LargestFinite(DType::kBFloat16);
  EXPECT_EQ(EncodeBFloat16(largest), 0x7F7F);
  EXPECT_EQ(EncodeBFloat16(largest + Ulp(largest, DType::kBFloat16) / 2), 0x7F80);
  EXPECT_EQ(EncodeBFloat16(-kInf), 0xFF80);
  EXPECT_TRUE(std::isnan(DecodeBFloat16(EncodeBFloat16(kNaN))));
}

TEST(HalfEncoding, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double value = DecodeHalf(static_cast<uint16_t>(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(DecodeHalf(EncodeHalf(value)))) << bits;
    } else {
      EXPECT_EQ(EncodeHalf(value), bits) << bits;
    }
  }
}

TEST(BFloat16Encoding, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double value = DecodeBFloat16(static_cast<uint16_t>(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(DecodeBFloat16(EncodeBFloat16(value)))) << bits;
    } else {
      EXPECT_EQ(EncodeBFloat16(value), bits) << bits;
    }
  }
}

TEST(RoundTo, EveryFloatDTypeAndIntegers) {
  EXPECT_EQ(RoundTo(1.0 + P2(-30), DType::kFloat32), 1.0);
  EXPECT_EQ(RoundTo(1.0 + P2(-24) + P2(-40), DType::kFloat32), 1.0 + P2(-23));
  EXPECT_EQ(RoundTo(1.0 + P2(-11) + P2(-40), DType::kFloat16), 1.0 + P2(-10));
  EXPECT_EQ(RoundTo(3.7, DType::kInt32), 3.0);
  EXPECT_EQ(RoundTo(-300.0, DType::kInt8), -128.0);
  EXPECT_EQ(RoundTo(2.0, DType::kBool), 1.0);
}

// A span is rounded as each of its values alone: the float dtypes' fast rounding and the others'.
TEST(RoundTo, ASpanRoundsEachValueAsRoundToDoes) {
  const std::vector<double> values = {0.0,    -0.0,    1.0 + P2(-30), 1.0 + P2(-11) + P2(-40),
                                      -3.7,   65520.0, P2(-25),       1e300,
                                      -300.0, kInf,    -kInf,         kNaN};
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64,
                      DType::kInt8, DType::kInt32, DType::kUInt8, DType::kBool}) {
    std::vector<double> rounded(values.size() + 1, 42.0);
    RoundTo(values, dtype, rounded);
    for (size_t i = 0; i < values.size(); ++i) {
      const double want = RoundTo(values[i], dtype);
      EXPECT_EQ(std::bit_cast<uint64_t>(rounded[i]), std::bit_cast<uint64_t>(want))
          << DTypeName(dtype) << " " << values[i];
    }
    EXPECT_EQ(rounded.back(), 42.0) << "wrote past the values";
  }
}

TEST(Ulp, SpacingAtKnownValues) {
  EXPECT_EQ(Ulp(1.0, DType::kFloat16), P2(-10));
  EXPECT_EQ(Ulp(1.0, DType::kBFloat16), P2(-7));
  EXPECT_EQ(Ulp(1.0, DType::kFloat32), P2(-23));
  EXPECT_EQ(Ulp(0.75, DType::kFloat16), P2(-11));
  EXPECT_EQ(Ulp(-1.5, DType::kFloat16), P2(-10));
  EXPECT_EQ(Ulp(0.0, DType::kFloat16), P2(-24));
  EXPECT_EQ(Ulp(P2(-20), DType::kFloat16), P2(-24));  // subnormal range
  EXPECT_EQ(Ulp(65504.0, DType::kFloat16), 32.0);
  EXPECT_EQ(Ulp(1e9, DType::kFloat16), 32.0);         // beyond the range: top binade
  EXPECT_EQ(Ulp(0.0, DType::kBFloat16), P2(-133));
  EXPECT_TRUE(std::isnan(Ulp(kInf, DType::kFloat32)));
  EXPECT_EQ(UnitRoundoff(DType::kFloat32), P2(-24));
  EXPECT_EQ(SmallestNormal(DType::kFloat32), P2(-126));
  EXPECT_EQ(LargestFinite(DType::kFloat16), 65504.0);
}

TEST(UlpDistance, OrderedLine) {
  EXPECT_EQ(UlpDistance(0.0, -0.0, DType::kFloat16), 0u);
  EXPECT_EQ(UlpDistance(1.0, 1.0 + P2(-10), DType::kFloat16), 1u);
  EXPECT_EQ(UlpDistance(-P2(-24), P2(-24), DType::kFloat16), 2u);
  EXPECT_EQ(UlpDistance(65504.0, kInf, DType::kFloat16), 1u);
  EXPECT_EQ(UlpDistance(1.0, 2.0, DType::kBFloat16), 128u);
  EXPECT_EQ(UlpDistance(1.0, 2.0, DType::kFloat32), uint64_t{1} << 23);
  EXPECT_EQ(UlpDistance(kNaN, 1.0, DType::kFloat32), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(UlpDistance(kNaN, kNaN, DType::kFloat32), 0u);
}

TEST(NextUpDown, Boundaries) {
  EXPECT_EQ(NextUp(1.0, DType::kFloat16), 1.0 + P2(-10));
  EXPECT_EQ(NextDown(1.0, DType::kFloat16), 1.0 - P2(-11));
  EXPECT_EQ(NextUp(3.0, DType::kBFloat16), 3.0 + P2(-6));
  EXPECT_EQ(NextUp(-0.0, DType::kFloat16), P2(-24));
  EXPECT_EQ(NextUp(0.0, DType::kFloat16), P2(-24));
  EXPECT_EQ(NextDown(0.0, DType::kFloat16), -P2(-24));
  EXPECT_EQ(NextUp(65504.0, DType::kFloat16), kInf);
  EXPECT_EQ(NextUp(kInf, DType::kFloat16), kInf);
  EXPECT_EQ(NextDown(-kInf, DType::kFloat16), -kInf);
  EXPECT_EQ(NextDown(-65504.0, DType::kFloat16), -kInf);
  EXPECT_EQ(NextUp(1.0, DType::kFloat32), static_cast<double>(std::nextafterf(1.0f, 2.0f)));
}

TEST(NextUpDown, EveryHalfPatternStepsToItsNeighbour) {
  for (uint32_t bits = 0; bits < 0x7C00; ++bits) {  // +0 .. largest finite
    const double value = DecodeHalf(static_cast<uint16_t>(bits));
    EXPECT_EQ(NextUp(value, DType::kFloat16), DecodeHalf(static_cast<uint16_t>(bits + 1)));
    if (bits > 0) {
      EXPECT_EQ(NextDown(value, DType::kFloat16), DecodeHalf(static_cast<uint16_t>(bits - 1)));
      EXPECT_EQ(NextDown(-value, DType::kFloat16),
                DecodeHalf(static_cast<uint16_t>((bits + 1) | 0x8000)));
    }
  }
}

TEST(DTypeNames, ParseAndAcl) {
  for (DType dtype : AllDTypes()) {
    EXPECT_EQ(ParseDType(DTypeName(dtype)), dtype);
    EXPECT_EQ(FromAclDataType(ToAclDataType(dtype)), dtype);
  }
  EXPECT_EQ(ParseDType("bf16"), DType::kBFloat16);
  EXPECT_EQ(ToAclDataType(DType::kBFloat16), ACL_BF16);
  EXPECT_EQ(ToAclDataType(DType::kFloat16), ACL_FLOAT16);
  EXPECT_FALSE(ParseDType("float8"));
}

}  // namespace
}  // namespace aclnn_check
