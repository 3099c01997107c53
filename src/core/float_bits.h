// The hot-path forms of dtype's rounding, spacing and ordering for one floating dtype known at
// compile time, for loops over millions of elements (the checker, the input generator). Inline and
// bit-identical to the functions of core/dtype.h, which stay the definition: tests compare the two
// on every fp16/bf16 encoding and on random fp32/fp64 values.
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

  // RoundTo(value, kDType).
  static double Round(double value) {
    if constexpr (kDType == DType::kFloat32) return static_cast<float>(value);
    if constexpr (kDType == DType::kFloat16) return DecodeHalf(EncodeHalf(value));
    if constexpr (kDType == DType::kBFloat16) return DecodeBFloat16(EncodeBFloat16(value));
    return value;
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
      return DecodeHalf(bits);
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
      const uint16_t bits = kDType == DType::kFloat16 ? EncodeHalf(value) : EncodeBFloat16(value);
      std::memcpy(address, &bits, sizeof bits);
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

}  // namespace aclnn_check
