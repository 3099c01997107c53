// FloatBits (core/float_bits.h) against core/dtype.h, which defines spacing and order, and against
// definitions of rounding independent of both: every fp16 and bf16 encoding, and random fp32/fp64
// values across the exponent range. For fp16
// and bf16 the definition is the bit-level EncodeHalf/DecodeHalf and EncodeBFloat16/DecodeBFloat16
// (RoundTo, EncodeElement and DecodeElement take FloatBits' forms), so those are compared too.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "core/float_bits.h"

namespace aclnn_check {
namespace {

// Round to nearest even from first principles: the value's quantum at its exponent (the smallest
// normal's below it), the nearest multiple of it with ties to even (std::nearbyint in the default
// rounding mode), and infinity from 2^(max_exponent + 1) on. Written without FloatBits or RoundTo,
// so that it can disagree with them.
double RoundToNearestEven(double value, int precision, int min_exponent, int max_exponent) {
  if (!std::isfinite(value) || value == 0) return value;
  const int exponent = std::max(std::ilogb(value), min_exponent);
  const double quantum = std::ldexp(1.0, exponent - precision + 1);
  const double rounded = std::nearbyint(value / quantum) * quantum;
  if (std::fabs(rounded) >= std::ldexp(1.0, max_exponent + 1)) return std::copysign(INFINITY, value);
  return rounded;
}

// The definitions a dtype's rounding is checked against, none of them RoundTo itself: for a 16-bit
// dtype the bit-level encoders of dtype.h; for float32 and float64 RoundToNearestEven.
template <DType kDType>
uint16_t DefinitionEncode(double value) {
  return kDType == DType::kFloat16 ? EncodeHalf(value) : EncodeBFloat16(value);
}
template <DType kDType>
double DefinitionDecode(uint16_t bits) {
  return kDType == DType::kFloat16 ? DecodeHalf(bits) : DecodeBFloat16(bits);
}
template <DType kDType>
double DefinitionRound(double value) {
  if constexpr (kDType == DType::kFloat16 || kDType == DType::kBFloat16) {
    return DefinitionDecode<kDType>(DefinitionEncode<kDType>(value));
  } else if constexpr (kDType == DType::kFloat32) {
    return RoundToNearestEven(value, 24, -126, 127);
  } else {
    return RoundToNearestEven(value, 53, -1022, 1023);
  }
}

// Round, Encode, RoundTo and EncodeElement of one value against the definition, bit for bit.
template <DType kDType>
void ExpectRoundsAsTheDefinition(double value) {
  using F = FloatBits<kDType>;
  const double rounded = DefinitionRound<kDType>(value);
  ASSERT_EQ(std::bit_cast<uint64_t>(F::Round(value)), std::bit_cast<uint64_t>(rounded)) << value;
  ASSERT_EQ(std::bit_cast<uint64_t>(RoundTo(value, kDType)), std::bit_cast<uint64_t>(rounded))
      << value;
  if constexpr (kDType == DType::kFloat16 || kDType == DType::kBFloat16) {
    const uint16_t definition = DefinitionEncode<kDType>(value);
    std::byte encoded[2], element[2];
    F::Encode(encoded, value);
    EncodeElement(element, kDType, value);
    ASSERT_EQ(std::memcmp(encoded, &definition, 2), 0) << value;
    ASSERT_EQ(std::memcmp(element, &definition, 2), 0) << value;
  }
}

// Values around every encoding of a 16-bit dtype: the value, its midpoints with both neighbours
// (ties) and points just off them.
template <DType kDType>
void CompareAllSixteenBitEncodings() {
  using F = FloatBits<kDType>;
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const uint16_t encoding = static_cast<uint16_t>(bits);
    std::byte raw[2];
    std::memcpy(raw, &encoding, 2);
    const double value = DefinitionDecode<kDType>(encoding);
    ASSERT_EQ(std::bit_cast<uint64_t>(F::Decode(raw)), std::bit_cast<uint64_t>(value)) << bits;
    ASSERT_EQ(std::bit_cast<uint64_t>(DecodeElement(raw, kDType)), std::bit_cast<uint64_t>(value))
        << bits;
    ExpectRoundsAsTheDefinition<kDType>(value);  // NaN: the payload the definition keeps
    std::byte encoded[2], again[2];              // a NaN need not come back as its own encoding
    EncodeElement(encoded, kDType, value);
    F::EncodeRounded(again, value);
    ASSERT_EQ(std::memcmp(again, encoded, 2), 0) << bits;
    if (std::isnan(value)) continue;
    ASSERT_EQ(F::Ordered(value), OrderedIndex(value, kDType)) << bits;
    if (!std::isfinite(value)) continue;
    ASSERT_EQ(F::Ulp(value), Ulp(value, kDType)) << bits;
    const double up = NextUp(value, kDType);
    const double mid = std::isfinite(up) ? value + (up - value) / 2 : value;
    for (double probe : {value, mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY)}) {
      ExpectRoundsAsTheDefinition<kDType>(probe);
      ASSERT_EQ(F::Ulp(probe), Ulp(probe, kDType)) << probe;
      ASSERT_EQ(F::InverseUlp(probe), 1 / Ulp(probe, kDType)) << probe;
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
    ExpectRoundsAsTheDefinition<kDType>(value);
    const double rounded = DefinitionRound<kDType>(value);
    if (std::isfinite(value)) {
      ASSERT_EQ(F::Ulp(value), Ulp(value, kDType)) << value;
      if constexpr (kDType != DType::kFloat64) {
        ASSERT_EQ(F::InverseUlp(value), 1 / Ulp(value, kDType)) << value;
      }
    }
    ASSERT_EQ(F::Ordered(rounded), OrderedIndex(rounded, kDType)) << rounded;
    std::byte raw[8];
    EncodeElement(raw, kDType, rounded);
    ASSERT_EQ(std::bit_cast<uint64_t>(F::Decode(raw)), std::bit_cast<uint64_t>(rounded));
    std::byte encoded[8];
    F::Encode(encoded, value);
    ASSERT_EQ(std::memcmp(encoded, raw, F::kBytes), 0) << value;
    F::EncodeRounded(encoded, rounded);
    ASSERT_EQ(std::memcmp(encoded, raw, F::kBytes), 0) << rounded;
  }
}

TEST(FloatBits, MatchesDTypeOnRandomFloat32) { CompareRandomValues<DType::kFloat32>(); }
TEST(FloatBits, MatchesDTypeOnRandomFloat64) { CompareRandomValues<DType::kFloat64>(); }
TEST(FloatBits, MatchesDTypeOnRandomHalfAndBFloat16) {
  CompareRandomValues<DType::kFloat16>();
  CompareRandomValues<DType::kBFloat16>();
}

// The edges of the fast rounding: overflow to infinity at the largest finite value's tie, the
// smallest normal and subnormal and their ties, double subnormals, NaNs with payloads and signs.
TEST(FloatBits, RoundsTheEdgesOfHalfAndBFloat16AsTheDefinition) {
  const double nan_payload = std::bit_cast<double>(uint64_t{0x7FF4000000000123});
  for (double magnitude :
       {0.0, 65504.0, 65519.99, 65520.0, 65536.0, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.0000000000001p-25,
        0x1.8p-24, 0x1p-126, 0x1p-133, 0x1p-134, 0x1.8p-133, 0x1.fep127, 0x1.ffp127, 0x1p128,
        0x1p-1074, 0x1p-1030, 1e300, double{INFINITY}, double{NAN}, nan_payload}) {
    for (double value : {magnitude, -magnitude}) {
      ExpectRoundsAsTheDefinition<DType::kFloat16>(value);
      ExpectRoundsAsTheDefinition<DType::kBFloat16>(value);
    }
  }
}

}  // namespace
}  // namespace aclnn_check
