// The hot-path forms of dtype's rounding, spacing and ordering for one floating dtype known at
// compile time, for loops over millions of elements (the checker, the input generator). Inline and
// bit-identical to the functions of core/dtype.h, whose bit-level EncodeHalf/DecodeHalf and
// EncodeBFloat16/DecodeBFloat16 stay the definition: tests compare the two on every fp16/bf16
// encoding, its ties and their neighbours, and on random fp32/fp64 values. RoundTo itself takes
// Round for fp16 and bf16: its encode-decode round trip was a fifth of a large NSA point's run.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/dtype.h"

namespace aclnn_check {

template <DType kDType>
struct FloatBits {
  static_assert(kDType == DType::kFloat32 || kDType == DType::kFloat16 ||
                kDType == DType::kBFloat16 || kDType == DType::kFloat64);
  static constexpr int kPrecision = kDType == DType::kFloat32   ? 24
                                    : kDType == DType::kFloat16 ? 11
                                    : kDType == DType::kBFloat16 ? 8
                                                                 : 53;
  static constexpr int kMinExponent = kDType == DType::kFloat16 ? -14
                                      : kDType == DType::kFloat64 ? -1022
                                                                  : -126;
  static constexpr int kMaxExponent = kDType == DType::kFloat16 ? 15
                                      : kDType == DType::kFloat64 ? 1023
                                                                  : 127;
  static constexpr size_t kBytes = kDType == DType::kFloat32 ? 4 : kDType == DType::kFloat64 ? 8 : 2;

  // RoundTo(value, kDType): for fp16 and bf16 one round-to-nearest-even of the double's own
  // significand, without an encoding (NaN, rare, takes the definition's path for its payload).
  static double Round(double value) {
    if constexpr (kDType == DType::kFloat32) return static_cast<float>(value);
    if constexpr (kDType == DType::kFloat64) return value;
    if constexpr (kDType == DType::kFloat16 || kDType == DType::kBFloat16) {
      constexpr uint64_t kSign = uint64_t{1} << 63;
      constexpr uint64_t kInfinity = uint64_t{0x7FF} << 52;
      constexpr uint64_t kSmallestNormal = static_cast<uint64_t>(kMinExponent + 1023) << 52;
      constexpr uint64_t kOverflow = static_cast<uint64_t>(kMaxExponent + 1 + 1023) << 52;
      constexpr int kDropped = 53 - kPrecision;  // low significand bits a normal value loses
      const uint64_t bits = std::bit_cast<uint64_t>(value);
      const uint64_t sign = bits & kSign;
      const uint64_t magnitude = bits & ~kSign;
      if (magnitude >= kInfinity) {
        return magnitude == kInfinity ? value : DefinitionRound(value);
      }
      if (magnitude >= kSmallestNormal) {
        // Ties to even: add just under half a unit, plus one where the kept part is odd; a carry
        // out of the significand moves to the next binade by itself.
        uint64_t rounded =
            magnitude + ((uint64_t{1} << (kDropped - 1)) - 1) + ((magnitude >> kDropped) & 1);
        rounded &= ~((uint64_t{1} << kDropped) - 1);
        return std::bit_cast<double>(sign | (rounded >= kOverflow ? kInfinity : rounded));
      }
      // Below the smallest normal the spacing is fixed: count it in units (exact, a power of two
      // scales) and round the count to an integer by adding and removing 2^52.
      constexpr double kUnit =
          std::bit_cast<double>(static_cast<uint64_t>(kMinExponent - kPrecision + 1 + 1023) << 52);
      constexpr double kPerUnit = 1.0 / kUnit;
      const double units = (std::bit_cast<double>(magnitude) * kPerUnit + 0x1p52) - 0x1p52;
      return std::bit_cast<double>(sign | std::bit_cast<uint64_t>(units * kUnit));
    }
  }

  // Ulp(value, kDType) for a finite value.
  static double Ulp(double value) {
    int exponent = static_cast<int>((std::bit_cast<uint64_t>(value) >> 52) & 0x7FF) - 1023;
    exponent = exponent < kMinExponent ? kMinExponent : exponent > kMaxExponent ? kMaxExponent : exponent;
    const int ulp_exponent = exponent - kPrecision + 1;
    if constexpr (kDType == DType::kFloat64) {
      if (ulp_exponent < -1022) return aclnn_check::Ulp(value, DType::kFloat64);
    }
    return std::bit_cast<double>(static_cast<uint64_t>(ulp_exponent + 1023) << 52);
  }

  // 1 / Ulp(value) for a finite value, exact (a power of two): a division by Ulp becomes a
  // product with the same result. Not for float64, whose smallest spacing has no finite inverse.
  static double InverseUlp(double value) requires(kDType != DType::kFloat64) {
    int exponent = static_cast<int>((std::bit_cast<uint64_t>(value) >> 52) & 0x7FF) - 1023;
    exponent = exponent < kMinExponent   ? kMinExponent
               : exponent > kMaxExponent ? kMaxExponent
                                         : exponent;
    const int ulp_exponent = exponent - kPrecision + 1;
    return std::bit_cast<double>(static_cast<uint64_t>(1023 - ulp_exponent) << 52);
  }

  // OrderedIndex(value, kDType) for a value representable in kDType (infinities included), read
  // off the double's own bits instead of an encoding.
  static int64_t Ordered(double value) {
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    const bool negative = bits >> 63;
    uint64_t magnitude;
    if constexpr (kDType == DType::kFloat64) {
      magnitude = bits & ~(uint64_t{1} << 63);
    } else {
      constexpr int kFractionBits = kPrecision - 1;
      const int biased = static_cast<int>((bits >> 52) & 0x7FF);
      const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
      const int exponent = biased - 1023;
      if (biased == 0) {
        magnitude = 0;  // a double subnormal representable in kDType is a zero
      } else if (biased == 0x7FF) {
        magnitude = static_cast<uint64_t>(kMaxExponent - kMinExponent + 2) << kFractionBits;
      } else if (exponent >= kMinExponent) {
        magnitude = (static_cast<uint64_t>(exponent - kMinExponent + 1) << kFractionBits) |
                    (fraction >> (52 - kFractionBits));
      } else {  // subnormal in kDType: the count of its smallest steps
        magnitude = (fraction | (uint64_t{1} << 52)) >> (52 - kFractionBits + kMinExponent - exponent);
      }
    }
    const int64_t index = static_cast<int64_t>(magnitude);
    return negative ? -index : index;
  }

  // DecodeElement(address, kDType).
  static double Decode(const std::byte* address) {
    if constexpr (kDType == DType::kFloat32) {
      float value;
      std::memcpy(&value, address, sizeof value);
      return value;
    } else if constexpr (kDType == DType::kFloat64) {
      double value;
      std::memcpy(&value, address, sizeof value);
      return value;
    } else {
      uint16_t bits;
      std::memcpy(&bits, address, sizeof bits);
      if constexpr (kDType == DType::kBFloat16) {
        // bf16 is the high half of binary32, so widening is exact.
        return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
      }
      const uint64_t sign = static_cast<uint64_t>(bits >> 15) << 63;
      const uint32_t exponent = (bits >> 10) & 0x1F;
      const uint32_t fraction = bits & 0x3FF;
      if (exponent == 0x1F) return DecodeHalf(bits);  // inf and NaN
      if (exponent == 0) {  // subnormal: fraction * 2^-24, exact
        return std::bit_cast<double>(sign | std::bit_cast<uint64_t>(fraction * 0x1p-24));
      }
      return std::bit_cast<double>(sign | (static_cast<uint64_t>(exponent - 15 + 1023) << 52) |
                                   (static_cast<uint64_t>(fraction) << 42));
    }
  }

  // EncodeElement(address, kDType, value) for a value already rounded to kDType: the rounding
  // is not done again.
  static void EncodeRounded(std::byte* address, double value) {
    if constexpr (kDType == DType::kFloat16 || kDType == DType::kBFloat16) {
      const uint16_t bits = Bits16OfRounded(value, value);
      std::memcpy(address, &bits, sizeof bits);
    } else {
      Encode(address, value);
    }
  }

  // EncodeElement(address, kDType, value).
  static void Encode(std::byte* address, double value) {
    if constexpr (kDType == DType::kFloat32) {
      const float narrow = static_cast<float>(value);
      std::memcpy(address, &narrow, sizeof narrow);
    } else if constexpr (kDType == DType::kFloat64) {
      std::memcpy(address, &value, sizeof value);
    } else {
      const uint16_t bits = Bits16(value);
      std::memcpy(address, &bits, sizeof bits);
    }
  }

 private:
  // The definition's rounding (core/dtype.cc), for NaN.
  static double DefinitionRound(double value) {
    return kDType == DType::kFloat16 ? DecodeHalf(EncodeHalf(value))
                                     : DecodeBFloat16(EncodeBFloat16(value));
  }

  // The 16-bit encoding of value rounded: Round, then the rounded value's fields moved exactly.
  static uint16_t Bits16(double value) { return Bits16OfRounded(Round(value), value); }

  // The 16-bit encoding of rounded, a value of kDType (rounded from value, whose NaN payload the
  // definition keeps the top of).
  static uint16_t Bits16OfRounded(double rounded, double value) {
    if (rounded != rounded) {  // NaN: the definition keeps the top of the payload
      return kDType == DType::kFloat16 ? EncodeHalf(value) : EncodeBFloat16(value);
    }
    if constexpr (kDType == DType::kBFloat16) {
      // A bf16 value is a binary32 value whose low 16 bits are zero.
      return static_cast<uint16_t>(std::bit_cast<uint32_t>(static_cast<float>(rounded)) >> 16);
    } else {
      const uint64_t bits = std::bit_cast<uint64_t>(rounded);
      const uint16_t sign = static_cast<uint16_t>((bits >> 63) << 15);
      const int biased = static_cast<int>((bits >> 52) & 0x7FF);
      if (biased == 0x7FF) return sign | 0x7C00;
      if (biased - 1023 >= kMinExponent) {
        return sign | static_cast<uint16_t>((biased - 1023 + 15) << 10) |
               static_cast<uint16_t>((bits >> 42) & 0x3FF);
      }
      const double magnitude = std::bit_cast<double>(bits & ~(uint64_t{1} << 63));
      return sign | static_cast<uint16_t>(magnitude * 0x1p24);  // subnormal: a whole count of 2^-24
    }
  }
};

// Calls body.template operator()<kDType>() with the floating dtype as a compile-time constant;
// false for a dtype that is not floating.
template <class Body>
bool DispatchFloating(DType dtype, Body&& body) {
  switch (dtype) {
    case DType::kFloat32:
      body.template operator()<DType::kFloat32>();
      return true;
    case DType::kFloat16:
      body.template operator()<DType::kFloat16>();
      return true;
    case DType::kBFloat16:
      body.template operator()<DType::kBFloat16>();
      return true;
    case DType::kFloat64:
      body.template operator()<DType::kFloat64>();
      return true;
    default:
      return false;
  }
}

// DispatchFloating for the dtypes narrower than double (float32, float16, bfloat16): the ones
// with a rounding to do; false for float64 and the others.
template <class Body>
bool DispatchNarrowFloating(DType dtype, Body&& body) {
  if (dtype == DType::kFloat64) return false;
  return DispatchFloating(dtype, [&]<DType kDType>() {
    if constexpr (kDType != DType::kFloat64) body.template operator()<kDType>();
  });
}

}  // namespace aclnn_check
