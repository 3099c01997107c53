// The vectorized normal draw against its definition, CounterRandom::Normal with libm's log and
// cos: z within the documented bound, and every generated value the definition rounded to the
// dtype, bit for bit.
#include "cases/normal_block.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "cases/input_generator.h"
#include "core/dtype.h"
#include "core/float_bits.h"
#include "support/every_target.h"

namespace aclnn_check {
namespace {

TEST(NormalBlock, EveryDrawIsWithinItsBoundOfLibmsBoxMuller) {
  for (const char* tensor : {"x", "dy", "grad"}) {
    const CounterRandom random(11, "normal_block/test", tensor);
    constexpr size_t kCount = 1 << 18;
    std::vector<double> z(kCount);
    // An odd start and count reach the vector tail and counters far from zero.
    NormalBlock(random, 123456789, kCount - 3, z.data());
    double largest = 0;
    for (size_t i = 0; i + 3 < kCount; ++i) {
      const double error = std::fabs(z[i] - random.Normal(123456789 + i));
      largest = std::max(largest, error);
      ASSERT_LE(error, kNormalBlockError) << tensor << " counter " << 123456789 + i;
    }
    // The bound holds with room to spare: libm and Highway differ in the last few bits only.
    EXPECT_LT(largest, kNormalBlockError / 16) << tensor;
  }
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(InputGenerator, NormalValuesAreLibmsDrawRoundedToTheDType) {
  struct Spread {
    double mean, std;
  };
  // Unit, narrow around a large mean (many values near float32 rounding boundaries), wide, and
  // tiny (fp16 subnormals, bf16 small normals).
  const std::vector<Spread> spreads = {{0, 1}, {1000, 0.001}, {-3, 400}, {0, 1e-6}};
  for (const DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
    for (const Spread& spread : spreads) {
      InputSpec spec;
      spec.dist = "normal";
      spec.mean = spread.mean;
      spec.std = spread.std;
      const CounterRandom random(5, "normal/exact", "x");
      // Several harness blocks of 2^16 and a partial one.
      const int64_t count = 3 * (int64_t{1} << 16) + 77;
      const std::vector<double> values = GenerateValues(spec, count, random, {dtype, {}});
      int64_t differing = 0, first = -1;
      for (int64_t i = 0; i < count; ++i) {
        const double expected =
            RoundTo(spec.mean + spec.std * random.Normal(static_cast<uint64_t>(i)), dtype);
        if (!SameBits(values[static_cast<size_t>(i)], expected)) {
          if (first < 0) first = i;
          ++differing;
        }
      }
      EXPECT_EQ(differing, 0) << DTypeName(dtype) << " mean " << spread.mean << " std "
                              << spread.std << ", first at " << first;
    }
  }
}

// A value within NormalBlock's error bound of a rounding boundary of the dtype (a tie between two
// neighbours) is left to libm (NaN); a value clear of every boundary is rounded, on every target.
TEST(NormalBlock, ValuesNearARoundingBoundaryAreLeftToLibm) {
  OnEveryTarget([&] {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      std::vector<double> near, clear;
      for (double base : {1.0, -1.5, 0.75, 3.25}) {
        const double step = Ulp(base, dtype);
        const double tie = base + step / 2;
        for (double offset : {0.0, 0x1p-50, -0x1p-50}) near.push_back(tie * (1 + offset));
        clear.push_back(base + step / 4);
        clear.push_back(base - step / 8);
      }
      std::vector<double> z = near;  // mean 0, std 1: the value is z itself
      z.insert(z.end(), clear.begin(), clear.end());
      ASSERT_TRUE(NormalValuesInPlace(dtype, 0, 1, z.data(), z.size()));
      for (size_t i = 0; i < near.size(); ++i) {
        EXPECT_TRUE(std::isnan(z[i])) << DTypeName(dtype) << " " << near[i];
      }
      for (size_t i = 0; i < clear.size(); ++i) {
        EXPECT_EQ(z[near.size() + i], RoundTo(clear[i], dtype))
            << DTypeName(dtype) << " " << clear[i];
      }
    }
    EXPECT_FALSE(NormalValuesInPlace(DType::kFloat64, 0, 1, nullptr, 0));
  });
}

}  // namespace
}  // namespace aclnn_check
