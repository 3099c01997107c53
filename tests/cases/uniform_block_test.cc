// The vectorized uniform draw against CounterRandom::Uniform, its definition: every value bit for
// bit, for strides 1 and 2, counts that end mid-vector and counters that wrap around 2^64, on
// every SIMD target this build and CPU run (the 64-bit multiply differs between them).
#include "cases/uniform_block.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cases/input_generator.h"
#include "core/dtype.h"
#include "support/every_target.h"

namespace aclnn_check {
namespace {

TEST(UniformBlock, EveryValueIsCounterRandomsUniformBitForBit) {
  struct Run {
    uint64_t first, stride;
    size_t count;
  };
  const std::vector<Run> runs = {{0, 1, 1 << 16},
                                 {123456789, 1, 1001},
                                 {2 * 987654321ull, 2, 777},
                                 {2 * 987654321ull + 1, 2, 3},
                                 {~uint64_t{0} - 40, 1, 100},  // wraps around 2^64
                                 {5, 3, 0}};
  OnEveryTarget([&] {
    for (const char* tensor : {"x", "dy"}) {
      const CounterRandom random(7, "uniform_block/test", tensor);
      for (const Run& run : runs) {
        std::vector<double> u(run.count + 1, -1.0);
        UniformBlock(random, run.first, run.stride, run.count, u.data());
        int64_t wrong = 0;
        for (size_t i = 0; i < run.count; ++i) {
          const double expected = random.Uniform(run.first + i * run.stride);
          if (std::bit_cast<uint64_t>(u[i]) != std::bit_cast<uint64_t>(expected)) ++wrong;
        }
        EXPECT_EQ(wrong, 0) << tensor << " first " << run.first << " stride " << run.stride;
        EXPECT_EQ(u[run.count], -1.0) << "wrote past the count";
      }
    }
  });
}

// A block of draws scaled to [low, high) and rounded, a vector at a time: RoundTo of the scaled
// draw, or NaN (to be drawn again) where it lands on or past an open bound; ranges where rounding
// reaches the bounds often (bf16 and fp16 near 1, fp16 subnormals near 0), on every target.
TEST(UniformBlock, ScaledValuesAreTheRoundedDrawOrAMarkedRedraw) {
  struct Range {
    double low, high;
    bool low_open, high_open;
  };
  const std::vector<Range> ranges = {
      {-4, 4, false, false}, {0, 1, true, true}, {1, 1.01, true, true}, {0, 0x1p-20, true, false}};
  OnEveryTarget([&] {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const Range& range : ranges) {
        const size_t count = 20003;  // ends mid-vector
        std::vector<double> draws(count + 1, -1.0);
        UniformBlock(CounterRandom(9, "scaled", "x"), 0, 1, count, draws.data());
        std::vector<double> values = draws;
        ASSERT_TRUE(UniformValuesInPlace(dtype, range.low, range.high, range.low_open,
                                         range.high_open, values.data(), count));
        int64_t wrong = 0, redraws = 0;
        for (size_t i = 0; i < count; ++i) {
          const double value = RoundTo(range.low + (range.high - range.low) * draws[i], dtype);
          const bool outside =
              (range.low_open && value <= range.low) || (range.high_open && value >= range.high);
          redraws += outside;
          if (outside ? !std::isnan(values[i])
                      : std::bit_cast<uint64_t>(values[i]) != std::bit_cast<uint64_t>(value)) {
            ++wrong;
          }
        }
        EXPECT_EQ(wrong, 0) << DTypeName(dtype) << " [" << range.low << ", " << range.high << ")";
        if (range.low == 1 && dtype != DType::kFloat32) {
          EXPECT_GT(redraws, 0) << "no redraw tested";
        }
        EXPECT_EQ(values[count], -1.0) << "wrote past the count";
      }
    }
    EXPECT_FALSE(UniformValuesInPlace(DType::kFloat64, 0, 1, false, false, nullptr, 0));
  });
}

}  // namespace
}  // namespace aclnn_check
