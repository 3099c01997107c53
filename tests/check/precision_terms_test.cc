// The precision standards' vectorized terms against their definitions (docs/contract/numerics.md:
// RE = |a - g| / (|g| + 1e-7), the small-value range, the inf/NaN elements): every term of every
// lane bit for bit, and every count and maximum, over goldens of every magnitude (small, normal,
// past the float16 overflow, inf, NaN) and device values right, off, far off and not finite, on
// every SIMD target this build and CPU run.
#include "check/precision_terms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support/every_target.h"

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kOverflow = 65520;  // float16's: 65504 plus half its last step
constexpr double kSmall = 0x1p-11, kSmallError = 0x1p-16;

uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

struct Elements {
  std::vector<double> actual, golden;
};

Elements MakeElements(size_t n) {
  std::mt19937_64 random(21);
  std::uniform_real_distribution<double> uniform(0, 1);
  Elements e;
  for (size_t i = 0; i < n; ++i) {
    const double u = uniform(random);
    const double sign = uniform(random) < 0.5 ? -1 : 1;
    // The thresholds themselves: the small-value range ends below kSmall, the dtype's at kOverflow.
    const double golden = i % 97 == 0   ? sign * kSmall
                          : i % 89 == 0 ? sign * kOverflow
                          : u < 0.3  ? sign * uniform(random) * 2 * kSmall  // small or just above
                          : u < 0.8  ? sign * std::ldexp(1 + uniform(random),
                                                         static_cast<int>(uniform(random) * 30) - 12)
                          : u < 0.88 ? sign * kOverflow * (0.999 + uniform(random) * 0.002)
                          : u < 0.94 ? sign * kInf
                                     : kNaN;
    const double v = uniform(random);
    const double actual = v < 0.4    ? golden
                          : v < 0.7  ? golden * (1 + (uniform(random) - 0.5) * 1e-3)
                          : v < 0.8  ? golden + (uniform(random) - 0.5) * 4 * kSmallError
                          : v < 0.9  ? -3 * golden
                          : v < 0.95 ? sign * kInf
                                     : kNaN;
    e.actual.push_back(actual);
    e.golden.push_back(golden);
  }
  return e;
}

double Relative(double a, double g) { return std::fabs(a - g) / (std::fabs(g) + 1e-7); }
bool InRange(double g) { return std::isfinite(g) && std::fabs(g) < kOverflow; }

// The output columns of one call: count elements each, and a sentinel past them.
class Columns {
 public:
  Columns(size_t columns, size_t count)
      : columns_(columns, std::vector<double>(count + 1, kSentinel)) {}
  double* operator[](size_t c) { return columns_[c].data(); }
  void ExpectNothingWrittenPast(size_t computed) const {
    for (const std::vector<double>& column : columns_) EXPECT_EQ(column[computed], kSentinel);
  }
  // Whether element i of every column holds the expected value, bit for bit.
  template <size_t N>
  bool Hold(size_t i, const std::array<double, N>& expected) const {
    for (size_t c = 0; c < N; ++c) {
      if (Bits(columns_[c][i]) != Bits(expected[c])) return false;
    }
    return true;
  }

 private:
  static constexpr double kSentinel = -7.0;
  std::vector<std::vector<double>> columns_;
};

TEST(PrecisionTerms, GoldenTermsAndTotalsAreTheirDefinitionsBitForBit) {
  constexpr size_t kCount = 4099;
  const Elements e = MakeElements(kCount);
  OnEveryTarget([&] {
    Columns columns(3, kCount);
    const GoldenTerms terms{columns[0], columns[1], columns[2]};
    GoldenTotals totals;
    const size_t computed = ComputeGoldenTerms(e.actual.data(), e.golden.data(), kCount, kOverflow,
                                               kSmall, kSmallError, terms, &totals);
    ASSERT_GT(computed, kCount - 16);
    columns.ExpectNothingWrittenPast(computed);
    GoldenTotals want;
    int64_t wrong = 0, specials = 0;
    for (size_t i = 0; i < computed; ++i) {
      const double a = e.actual[i], g = e.golden[i];
      std::array<double, 3> expected{};  // +0 outside the normal range
      if (!std::isfinite(a) || !InRange(g)) {
        expected[2] = 1;
        ++specials;
      } else if (std::fabs(g) < kSmall) {
        ++want.small;
        want.error_count += std::fabs(a - g) > kSmallError;
      } else {
        expected = {Relative(a, g), (a - g) * (a - g), 0};
        ++want.normal;
        want.mare = std::max(want.mare, expected[0]);
      }
      if (!columns.Hold(i, expected) && ++wrong <= 3)
        ADD_FAILURE() << "element " << i << ": actual " << a << ", golden " << g;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_GT(specials, 0);
    EXPECT_GT(want.error_count, 0);
    EXPECT_GT(want.small - want.error_count, 0);
    EXPECT_EQ(totals.normal, want.normal);
    EXPECT_EQ(totals.small, want.small);
    EXPECT_EQ(totals.error_count, want.error_count);
    EXPECT_EQ(Bits(totals.mare), Bits(want.mare));
  });
}

TEST(PrecisionTerms, SingleTermsAndTotalsAreTheirDefinitionsBitForBit) {
  constexpr size_t kCount = 4099;
  const Elements e = MakeElements(kCount);
  OnEveryTarget([&] {
    Columns columns(2, kCount);
    const SingleTerms terms{columns[0], columns[1]};
    SingleTotals totals;
    const size_t computed =
        ComputeSingleTerms(e.actual.data(), e.golden.data(), kCount, kOverflow, terms, &totals);
    ASSERT_GT(computed, kCount - 16);
    columns.ExpectNothingWrittenPast(computed);
    SingleTotals want;
    int64_t wrong = 0, infinite = 0;
    for (size_t i = 0; i < computed; ++i) {
      const double a = e.actual[i], g = e.golden[i];
      std::array<double, 2> expected{0, 1};
      if (InRange(g)) {
        const double re = Relative(a, g);
        expected = {std::isnan(re) ? kInf : re, 0};
        infinite += std::isinf(expected[0]);
        ++want.finite;
        want.mare = std::max(want.mare, expected[0]);
      }
      if (!columns.Hold(i, expected) && ++wrong <= 3)
        ADD_FAILURE() << "element " << i << ": actual " << a << ", golden " << g;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_GT(infinite, 0) << "no NaN relative error to count as inf";
    EXPECT_EQ(totals.finite, want.finite);
    EXPECT_EQ(Bits(totals.mare), Bits(want.mare));
  });
}

}  // namespace
}  // namespace aclnn_check
