// Data types, their encodings and their rounding: the only place in the project that converts
// between double and a tensor element type. fp16 is IEEE binary16, bf16 the high half of binary32;
// encoding rounds to nearest even, keeps NaN a NaN and overflows to infinity.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "acl/acl_base.h"

namespace aclnn_check {

enum class DType : uint8_t {
  kFloat32,
  kFloat16,
  kBFloat16,
  kFloat64,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kBool,
};

// Every dtype the project knows, in a fixed order (the order of the enum).
std::span<const DType> AllDTypes();
// The three floating types an operator may compute in.
std::span<const DType> ComputeDTypes();

std::string_view DTypeName(DType dtype);  // "float32", "float16", "bfloat16", ...
// Accepts the canonical names and CANN's short ones ("fp32", "fp16", "bf16").
std::optional<DType> ParseDType(std::string_view name);
size_t DTypeSize(DType dtype);
bool IsFloating(DType dtype);
aclDataType ToAclDataType(DType dtype);
std::optional<DType> FromAclDataType(aclDataType type);

// Format of one floating dtype: significand bits including the hidden one, exponent range.
struct FloatFormat {
  int precision;     // 24 for fp32, 11 for fp16, 8 for bf16, 53 for fp64
  int min_exponent;  // exponent of the smallest normal: -126, -14, -126, -1022
  int max_exponent;  // exponent of the largest finite: 127, 15, 127, 1023
  int storage_bits;  // 32, 16, 16, 64
};
const FloatFormat& FormatOf(DType floating_dtype);

// 16-bit encodings from and to double, with one rounding from double.
uint16_t EncodeHalf(double value);
double DecodeHalf(uint16_t bits);
uint16_t EncodeBFloat16(double value);
double DecodeBFloat16(uint16_t bits);

// Rounds value once to the nearest value of dtype (ties to even); integers saturate and
// truncate toward zero like a C cast of an in-range value, NaN becomes 0.
double RoundTo(double value, DType dtype);
// into[i] = RoundTo(values[i], dtype) for each i (into.size() >= values.size()), with the
// dtype's rounding chosen once rather than per element.
void RoundTo(std::span<const double> values, DType dtype, std::span<double> into);
// Reads or writes one element at address.
double DecodeElement(const void* address, DType dtype);
void EncodeElement(void* address, DType dtype, double value);

// The spacing of dtype's values at value: 2^(e - precision + 1) for |value| in [2^e, 2^(e+1)),
// the subnormal spacing below the smallest normal, the top binade's spacing beyond the largest
// finite. Infinite or NaN values give NaN.
double Ulp(double value, DType dtype);
// The unit roundoff of a compute dtype: 2^-precision (fp32: 2^-24).
double UnitRoundoff(DType dtype);
double SmallestNormal(DType dtype);
double LargestFinite(DType dtype);

// Position of a value of dtype on the ordered line of its encodings: +0 and -0 are both 0,
// adjacent representable values differ by 1. value must be representable in dtype and not NaN.
int64_t OrderedIndex(double value, DType dtype);
// Number of representable steps between a and b (both representable in dtype); NaN gives
// UINT64_MAX unless both are NaN (then 0).
uint64_t UlpDistance(double a, double b, DType dtype);
// The next representable value of dtype above / below value (value representable in dtype).
double NextUp(double value, DType dtype);
double NextDown(double value, DType dtype);

}  // namespace aclnn_check
