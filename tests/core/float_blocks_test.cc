// Vector decoding, rounding and encoding against the scalar definitions (DecodeElement, RoundTo,
// FloatBits::EncodeRounded): every
// 16-bit encoding (subnormals, infinities, NaN payloads), random float32 and float64 bit patterns,
// and values around every rounding tie, bit for bit, on every SIMD target this build and CPU run.
#include "core/float_blocks.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/float_bits.h"
#include "support/every_target.h"

namespace aclnn_check {
namespace {

// Encodings of dtype: every one for the 16-bit dtypes, random bit patterns otherwise; a count
// that ends mid-vector.
std::vector<std::byte> Encodings(DType dtype) {
  const size_t size = DTypeSize(dtype);
  const size_t count = size == 2 ? 65536 : 100003;
  std::vector<std::byte> bytes(count * size);
  std::mt19937_64 random(5);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t bits = size == 2 ? i : random();
    std::memcpy(bytes.data() + i * size, &bits, size);  // little-endian: the low bytes
  }
  return bytes;
}

TEST(FloatBlocks, DecodingIsDecodeElementBitForBit) {
  OnEveryTarget([] {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
      const std::vector<std::byte> bytes = Encodings(dtype);
      const size_t count = bytes.size() / DTypeSize(dtype);
      for (size_t skip : {size_t{0}, size_t{3}}) {  // a run that starts mid-vector too
        std::vector<double> decoded(count - skip + 1, -1.0);
        ASSERT_TRUE(DecodeBlock(dtype, bytes.data() + skip * DTypeSize(dtype), count - skip,
                                decoded.data()));
        int64_t wrong = 0;
        for (size_t i = skip; i < count; ++i) {
          const double want = DecodeElement(bytes.data() + i * DTypeSize(dtype), dtype);
          wrong += std::bit_cast<uint64_t>(decoded[i - skip]) != std::bit_cast<uint64_t>(want);
        }
        EXPECT_EQ(wrong, 0) << DTypeName(dtype) << " from element " << skip;
        EXPECT_EQ(decoded.back(), -1.0) << "wrote past the count";
      }
    }
    double into = 0;
    EXPECT_FALSE(DecodeBlock(DType::kInt32, &into, 1, &into));
  });
}

TEST(FloatBlocks, RoundingIsRoundToBitForBit) {
  std::vector<double> values;
  std::mt19937_64 random(6);
  std::uniform_real_distribution<double> uniform(1, 2);
  for (int i = 0; i < 60000; ++i) {
    values.push_back((i % 2 ? -1 : 1) *
                     std::ldexp(uniform(random), static_cast<int>(random() % 360) - 180));
  }
  for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
    for (int e = -150; e < 130; ++e) {  // ties of every binade the dtypes have, and past them
      const double base = std::ldexp(1.0, e);
      values.push_back(base + Ulp(base, dtype) / 2);
      values.push_back(base + 3 * Ulp(base, dtype) / 2);
    }
  }
  values.insert(values.end(), {0.0, -0.0, INFINITY, -INFINITY, NAN, 65520.0, 0x1.ffp127});
  OnEveryTarget([&] {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      std::vector<double> rounded(values.size() + 1, -1.0);
      ASSERT_TRUE(RoundBlock(dtype, values.data(), values.size(), rounded.data()));
      int64_t wrong = 0;
      for (size_t i = 0; i < values.size(); ++i) {
        wrong += std::bit_cast<uint64_t>(rounded[i]) !=
                 std::bit_cast<uint64_t>(RoundTo(values[i], dtype));
      }
      EXPECT_EQ(wrong, 0) << DTypeName(dtype);
      EXPECT_EQ(rounded.back(), -1.0) << "wrote past the count";
    }
    double value = 1;
    EXPECT_FALSE(RoundBlock(DType::kFloat64, &value, 1, &value));
  });
}

TEST(FloatBlocks, EncodingRoundedValuesIsEncodeRoundedBitForBit) {
  OnEveryTarget([] {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
      // Every encoding's value (each already of the dtype): zeros, subnormals, the largest
      // finite values, infinities and NaN payloads among them.
      const std::vector<std::byte> bytes = Encodings(dtype);
      const size_t size = DTypeSize(dtype);
      const size_t count = bytes.size() / size;
      std::vector<double> values(count);
      for (size_t i = 0; i < count; ++i) values[i] = DecodeElement(bytes.data() + i * size, dtype);
      for (size_t skip : {size_t{0}, size_t{3}}) {  // a run that starts mid-vector too
        std::vector<std::byte> encoded((count - skip + 1) * size, std::byte{0x5A});
        ASSERT_TRUE(EncodeRoundedBlock(dtype, values.data() + skip, count - skip, encoded.data()));
        std::vector<std::byte> want(size);
        int64_t wrong = 0;
        DispatchFloating(dtype, [&]<DType kDType>() {
          for (size_t i = skip; i < count; ++i) {
            FloatBits<kDType>::EncodeRounded(want.data(), values[i]);
            wrong += std::memcmp(want.data(), encoded.data() + (i - skip) * size, size) != 0;
          }
        });
        EXPECT_EQ(wrong, 0) << DTypeName(dtype) << " from element " << skip;
        EXPECT_EQ(encoded.back(), std::byte{0x5A}) << "wrote past the count";
      }
    }
    double value = 1;
    EXPECT_FALSE(EncodeRoundedBlock(DType::kInt32, &value, 1, &value));
  });
}

TEST(FloatBlocks, FirstNaNFindsTheFirstOfAnyNaN) {
  OnEveryTarget([] {
    constexpr size_t kCount = 37;  // ends mid-vector on every target
    std::vector<double> values(kCount, 1.0);
    EXPECT_EQ(FirstNaN(values.data(), kCount), kCount);
    EXPECT_EQ(FirstNaN(values.data(), 0), 0u);
    values[3] = INFINITY;  // not a NaN
    for (size_t at = 0; at < kCount; ++at) {
      values[at] = (at % 2 ? -1 : 1) * std::nan("7");  // negative and with a payload too
      if (at + 5 < kCount) values[at + 5] = NAN;       // a later one must not be taken
      EXPECT_EQ(FirstNaN(values.data(), kCount), at);
      EXPECT_EQ(FirstNaN(values.data(), at), at) << "a NaN past the count was taken";
      values[at] = at == 3 ? INFINITY : 1.0;
      if (at + 5 < kCount) values[at + 5] = 1.0;
    }
  });
}

}  // namespace
}  // namespace aclnn_check
