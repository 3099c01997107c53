#include "core/dtype.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/float_bits.h"
#include "core/float_blocks.h"

namespace aclnn_check {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view short_name;
  size_t size;
  aclDataType acl;
};

constexpr std::array<DTypeInfo, 10> kInfo = {{
    {DType::kFloat32, "float32", "fp32", 4, ACL_FLOAT},
    {DType::kFloat16, "float16", "fp16", 2, ACL_FLOAT16},
    {DType::kBFloat16, "bfloat16", "bf16", 2, ACL_BF16},
    {DType::kFloat64, "float64", "fp64", 8, ACL_DOUBLE},
    {DType::kInt8, "int8", "i8", 1, ACL_INT8},
    {DType::kInt16, "int16", "i16", 2, ACL_INT16},
    {DType::kInt32, "int32", "i32", 4, ACL_INT32},
    {DType::kInt64, "int64", "i64", 8, ACL_INT64},
    {DType::kUInt8, "uint8", "u8", 1, ACL_UINT8},
    {DType::kBool, "bool", "bool", 1, ACL_BOOL},
}};

constexpr std::array<DType, 10> kAll = {DType::kFloat32, DType::kFloat16, DType::kBFloat16,
                                        DType::kFloat64, DType::kInt8,    DType::kInt16,
                                        DType::kInt32,   DType::kInt64,   DType::kUInt8,
                                        DType::kBool};
constexpr std::array<DType, 3> kCompute = {DType::kFloat16, DType::kBFloat16, DType::kFloat32};

const DTypeInfo& Info(DType dtype) { return kInfo[static_cast<size_t>(dtype)]; }

constexpr FloatFormat kFp32{24, -126, 127, 32};
constexpr FloatFormat kFp16{11, -14, 15, 16};
constexpr FloatFormat kBf16{8, -126, 127, 16};
constexpr FloatFormat kFp64{53, -1022, 1023, 64};

// Rounds a double to a binary format narrower than double with one round-to-nearest-even and
// returns its bit pattern (sign, biased exponent, fraction) in the low storage_bits bits. Works on
// the double's bits: the significand is shifted right with a round bit and a sticky bit.
uint64_t EncodeNarrow(double value, const FloatFormat& f) {
  const int fraction_bits = f.precision - 1;
  const int exponent_bits = f.storage_bits - 1 - fraction_bits;
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint64_t sign = (bits >> 63) << (f.storage_bits - 1);
  const uint64_t exponent_all_ones = (uint64_t{1} << exponent_bits) - 1;
  const int biased64 = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t fraction64 = bits & ((uint64_t{1} << 52) - 1);
  if (biased64 == 0x7FF) {
    if (fraction64 == 0) return sign | (exponent_all_ones << fraction_bits);  // infinity
    // Quiet NaN that keeps the top of the payload where it fits.
    const uint64_t payload = (fraction64 >> (52 - fraction_bits)) & ((uint64_t{1} << fraction_bits) - 1);
    return sign | (exponent_all_ones << fraction_bits) | (uint64_t{1} << (fraction_bits - 1)) | payload;
  }
  // value = significand * 2^(exponent - 52), significand < 2^53.
  const int exponent = biased64 == 0 ? -1022 : biased64 - 1023;
  const uint64_t significand = biased64 == 0 ? fraction64 : fraction64 | (uint64_t{1} << 52);
  if (significand == 0) return sign;
  // Units of the result: 2^(max(exponent, min_exponent) - fraction_bits).
  const int unit_exponent = std::max(exponent, f.min_exponent) - fraction_bits;
  const int shift = unit_exponent - (exponent - 52);  // >= 52 - fraction_bits > 0
  uint64_t units = 0;
  if (shift < 64) {
    units = significand >> shift;
    const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (remainder > half || (remainder == half && (units & 1))) ++units;
  }
  // units counts steps of the result's spacing; for a normal result it holds the hidden bit. A
  // carry into the next binade (or out of the subnormals) lands on the right encoding by itself.
  const int binade = std::max(exponent, f.min_exponent);
  uint64_t biased = static_cast<uint64_t>(binade - f.min_exponent + (exponent >= f.min_exponent ? 1 : 0));
  if (exponent >= f.min_exponent) {
    if (units >> (fraction_bits + 1)) {  // rounded up to 2^(fraction_bits + 1)
      units >>= 1;
      ++biased;
    }
    if (biased >= exponent_all_ones) return sign | (exponent_all_ones << fraction_bits);
    return sign | (biased << fraction_bits) | (units & ((uint64_t{1} << fraction_bits) - 1));
  }
  return sign | units;  // subnormal; units == 2^fraction_bits is the smallest normal
}

double DecodeNarrow(uint64_t bits, const FloatFormat& f) {
  const int fraction_bits = f.precision - 1;
  const int exponent_bits = f.storage_bits - 1 - fraction_bits;
  const uint64_t sign = ((bits >> (f.storage_bits - 1)) & 1) << 63;
  const uint64_t exponent_all_ones = (uint64_t{1} << exponent_bits) - 1;
  const uint64_t biased = (bits >> fraction_bits) & exponent_all_ones;
  uint64_t fraction = bits & ((uint64_t{1} << fraction_bits) - 1);
  if (biased == exponent_all_ones) {
    return std::bit_cast<double>(sign | (uint64_t{0x7FF} << 52) |
                                 (fraction ? (uint64_t{1} << 51) | (fraction << (52 - fraction_bits)) : 0));
  }
  int exponent = static_cast<int>(biased) - 1 + f.min_exponent;  // of a normal value
  if (biased == 0) {
    if (fraction == 0) return std::bit_cast<double>(sign);
    // Normalise the subnormal: every narrow subnormal is a normal double.
    exponent = f.min_exponent;
    while (!(fraction >> fraction_bits)) {
      fraction <<= 1;
      --exponent;
    }
    fraction &= (uint64_t{1} << fraction_bits) - 1;
  }
  return std::bit_cast<double>(sign | (static_cast<uint64_t>(exponent + 1023) << 52) |
                               (fraction << (52 - fraction_bits)));
}

// 2^exponent for exponents in the normal range of double.
double PowerOfTwo(int exponent) {
  return std::bit_cast<double>(static_cast<uint64_t>(exponent + 1023) << 52);
}

template <typename Int>
double SaturateToInt(double value) {
  if (std::isnan(value)) return 0;
  const double low = static_cast<double>(std::numeric_limits<Int>::min());
  const double high = static_cast<double>(std::numeric_limits<Int>::max());
  return std::trunc(std::fmin(std::fmax(value, low), high));
}

template <typename T>
T Load(const void* address) {
  T value;
  std::memcpy(&value, address, sizeof(T));
  return value;
}

template <typename T>
void Store(void* address, T value) {
  std::memcpy(address, &value, sizeof(T));
}

uint64_t BitsOf(double value, DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return std::bit_cast<uint32_t>(static_cast<float>(value));
    case DType::kFloat16:
      return EncodeHalf(value);
    case DType::kBFloat16:
      return EncodeBFloat16(value);
    case DType::kFloat64:
      return std::bit_cast<uint64_t>(value);
    default:
      return 0;
  }
}

double FromBits(uint64_t bits, DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case DType::kFloat16:
      return DecodeHalf(static_cast<uint16_t>(bits));
    case DType::kBFloat16:
      return DecodeBFloat16(static_cast<uint16_t>(bits));
    case DType::kFloat64:
      return std::bit_cast<double>(bits);
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

std::span<const DType> AllDTypes() { return kAll; }
std::span<const DType> ComputeDTypes() { return kCompute; }

std::string_view DTypeName(DType dtype) { return Info(dtype).name; }

std::optional<DType> ParseDType(std::string_view name) {
  for (const DTypeInfo& info : kInfo) {
    if (name == info.name || name == info.short_name) return info.dtype;
  }
  if (name == "float") return DType::kFloat32;
  if (name == "half") return DType::kFloat16;
  if (name == "double") return DType::kFloat64;
  return std::nullopt;
}

size_t DTypeSize(DType dtype) { return Info(dtype).size; }

bool IsFloating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat16 || dtype == DType::kBFloat16 ||
         dtype == DType::kFloat64;
}

aclDataType ToAclDataType(DType dtype) { return Info(dtype).acl; }

std::optional<DType> FromAclDataType(aclDataType type) {
  for (const DTypeInfo& info : kInfo) {
    if (info.acl == type) return info.dtype;
  }
  return std::nullopt;
}

const FloatFormat& FormatOf(DType floating_dtype) {
  switch (floating_dtype) {
    case DType::kFloat16:
      return kFp16;
    case DType::kBFloat16:
      return kBf16;
    case DType::kFloat64:
      return kFp64;
    default:
      return kFp32;
  }
}

uint16_t EncodeHalf(double value) { return static_cast<uint16_t>(EncodeNarrow(value, kFp16)); }
double DecodeHalf(uint16_t bits) { return DecodeNarrow(bits, kFp16); }
uint16_t EncodeBFloat16(double value) {
  return static_cast<uint16_t>(EncodeNarrow(value, kBf16));
}
double DecodeBFloat16(uint16_t bits) { return DecodeNarrow(bits, kBf16); }

double RoundTo(double value, DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return static_cast<float>(value);
    case DType::kFloat16:
      return FloatBits<DType::kFloat16>::Round(value);
    case DType::kBFloat16:
      return FloatBits<DType::kBFloat16>::Round(value);
    case DType::kFloat64:
      return value;
    case DType::kInt8:
      return SaturateToInt<int8_t>(value);
    case DType::kInt16:
      return SaturateToInt<int16_t>(value);
    case DType::kInt32:
      return SaturateToInt<int32_t>(value);
    case DType::kInt64:
      return SaturateToInt<int64_t>(value);
    case DType::kUInt8:
      return SaturateToInt<uint8_t>(value);
    case DType::kBool:
      return (value != 0 && !std::isnan(value)) ? 1.0 : 0.0;
  }
  return value;
}

void RoundTo(std::span<const double> values, DType dtype, std::span<double> into) {
  if (RoundBlock(dtype, values.data(), values.size(), into.data())) return;
  for (size_t i = 0; i < values.size(); ++i) into[i] = RoundTo(values[i], dtype);
}

double DecodeElement(const void* address, DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return Load<float>(address);
    case DType::kFloat16:
      return FloatBits<DType::kFloat16>::Decode(static_cast<const std::byte*>(address));
    case DType::kBFloat16:
      return FloatBits<DType::kBFloat16>::Decode(static_cast<const std::byte*>(address));
    case DType::kFloat64:
      return Load<double>(address);
    case DType::kInt8:
      return Load<int8_t>(address);
    case DType::kInt16:
      return Load<int16_t>(address);
    case DType::kInt32:
      return Load<int32_t>(address);
    case DType::kInt64:
      return static_cast<double>(Load<int64_t>(address));
    case DType::kUInt8:
      return Load<uint8_t>(address);
    case DType::kBool:
      return Load<uint8_t>(address) != 0 ? 1.0 : 0.0;
  }
  return 0;
}

void EncodeElement(void* address, DType dtype, double value) {
  switch (dtype) {
    case DType::kFloat32:
      return Store<float>(address, static_cast<float>(value));
    case DType::kFloat16:
      return FloatBits<DType::kFloat16>::Encode(static_cast<std::byte*>(address), value);
    case DType::kBFloat16:
      return FloatBits<DType::kBFloat16>::Encode(static_cast<std::byte*>(address), value);
    case DType::kFloat64:
      return Store<double>(address, value);
    case DType::kInt8:
      return Store<int8_t>(address, static_cast<int8_t>(RoundTo(value, dtype)));
    case DType::kInt16:
      return Store<int16_t>(address, static_cast<int16_t>(RoundTo(value, dtype)));
    case DType::kInt32:
      return Store<int32_t>(address, static_cast<int32_t>(RoundTo(value, dtype)));
    case DType::kInt64:
      return Store<int64_t>(address, static_cast<int64_t>(RoundTo(value, dtype)));
    case DType::kUInt8:
      return Store<uint8_t>(address, static_cast<uint8_t>(RoundTo(value, dtype)));
    case DType::kBool:
      return Store<uint8_t>(address, static_cast<uint8_t>(RoundTo(value, dtype)));
  }
}

double Ulp(double value, DType dtype) {
  if (!std::isfinite(value)) return std::numeric_limits<double>::quiet_NaN();
  const FloatFormat& f = FormatOf(dtype);
  const int biased = static_cast<int>((std::bit_cast<uint64_t>(value) >> 52) & 0x7FF);
  const int exponent = std::clamp(biased - 1023, f.min_exponent, f.max_exponent);
  const int ulp_exponent = exponent - f.precision + 1;
  // fp64's subnormal spacing is the one value below double's normal range.
  return ulp_exponent < -1022 ? std::ldexp(1.0, ulp_exponent) : PowerOfTwo(ulp_exponent);
}

double UnitRoundoff(DType dtype) { return PowerOfTwo(-FormatOf(dtype).precision); }

double SmallestNormal(DType dtype) { return PowerOfTwo(FormatOf(dtype).min_exponent); }

double LargestFinite(DType dtype) {
  const FloatFormat& f = FormatOf(dtype);
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.max_exponent);
}

int64_t OrderedIndex(double value, DType dtype) {
  const FloatFormat& f = FormatOf(dtype);
  const uint64_t bits = BitsOf(value, dtype);
  const uint64_t sign_bit = uint64_t{1} << (f.storage_bits - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign_bit - 1));
  return (bits & sign_bit) ? -magnitude : magnitude;
}

uint64_t UlpDistance(double a, double b, DType dtype) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<uint64_t>::max();
  }
  const int64_t ia = OrderedIndex(a, dtype);
  const int64_t ib = OrderedIndex(b, dtype);
  return ia > ib ? static_cast<uint64_t>(ia) - static_cast<uint64_t>(ib)
                 : static_cast<uint64_t>(ib) - static_cast<uint64_t>(ia);
}

namespace {
double Step(double value, DType dtype, int direction) {
  if (std::isnan(value)) return value;
  const FloatFormat& f = FormatOf(dtype);
  const int64_t infinity_index = OrderedIndex(std::numeric_limits<double>::infinity(), dtype);
  int64_t index = OrderedIndex(value, dtype);
  if ((direction > 0 && index == infinity_index) || (direction < 0 && index == -infinity_index)) {
    return value;
  }
  index += direction;
  const uint64_t sign_bit = uint64_t{1} << (f.storage_bits - 1);
  const uint64_t bits = index < 0 ? (sign_bit | static_cast<uint64_t>(-index))
                                  : static_cast<uint64_t>(index);
  return FromBits(bits, dtype);
}
}  // namespace

double NextUp(double value, DType dtype) { return Step(value, dtype, +1); }
double NextDown(double value, DType dtype) { return Step(value, dtype, -1); }

}  // namespace aclnn_check
