// The checker's vectorized per-element terms and chunk totals against core/dtype.h's definitions
// (RoundTo, Ulp, UlpDistance) and plain arithmetic: every term of every lane bit for bit and every
// total, for each output dtype, with and without rules, over references of every binade the dtype
// has (subnormal, ties, the overflow threshold) and device values right, 1 to 40 steps off and
// far off, on every SIMD target this build and CPU run.
#include "check/element_terms.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check/output_check.h"
#include "core/dtype.h"
#include "support/every_target.h"

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

std::vector<double> References(DType out, size_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  const double largest = LargestFinite(out);
  std::vector<double> values;
  while (values.size() < n) {
    const double u = uniform(random);
    const double sign = uniform(random) < 0.5 ? -1 : 1;
    const double base =
        sign * std::ldexp(1 + uniform(random), static_cast<int>(uniform(random) * 300) - 160);
    const double rounded = RoundTo(base, out);
    if (u < 0.5) {
      values.push_back(base);
    } else if (u < 0.6) {  // a tie between two values of the dtype
      values.push_back(rounded + Ulp(rounded, out) / 2);
    } else if (u < 0.7) {
      values.push_back(sign * largest * (1 + uniform(random) * 1e-3));  // around the overflow
    } else if (u < 0.75) {
      values.push_back(0.0);
    } else if (u < 0.8) {
      values.push_back(u < 0.78 ? kInf : std::numeric_limits<double>::quiet_NaN());
    } else {
      values.push_back(sign * uniform(random) * 100);
    }
  }
  return values;
}

// What a chunk's common elements total, from the definitions.
struct Expected {
  CommonTotals totals;
  double best_rank = -1;
};

TEST(ElementTerms, EveryTermAndTotalIsItsDefinitionBitForBit) {
  constexpr size_t kCount = 4099;
  const double ulp_tolerance = 1, mag_tolerance = 4 * 0x1p-24;
  OnEveryTarget([&] {
    for (DType out : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const bool with_rules : {false, true}) {
        SCOPED_TRACE(std::string(DTypeName(out)) + (with_rules ? ", with rules" : ""));
        const bool sixteen_bit = out != DType::kFloat32;
        const std::vector<double> reference = References(out, kCount, 11);
        std::mt19937_64 random(12);
        std::uniform_real_distribution<double> uniform(0, 1);
        std::vector<double> device(kCount), mag(kCount);
        std::vector<int64_t> kinds(kCount, kWithoutRule);
        for (size_t i = 0; i < kCount; ++i) {
          const double rounded = RoundTo(reference[i], out);
          const double u = uniform(random);
          // Right, one to 40 steps off (every histogram bucket), far off, or not finite.
          device[i] = u < 0.5   ? rounded
                      : u < 0.8 ? rounded + std::floor(1 + uniform(random) * 40) * Ulp(rounded, out)
                      : u < 0.9 ? 3 * rounded
                                : -kInf;
          device[i] = RoundTo(device[i], out);
          mag[i] = std::fabs(reference[i]) * (uniform(random) < 0.4 ? 50 : 1e6);
          if (with_rules) kinds[i] = static_cast<int64_t>(uniform(random) * 3);
        }
        std::vector<std::vector<double>> columns(8, std::vector<double>(kCount + 1, -7.0));
        const ElementTerms terms{columns[0].data(), columns[1].data(), columns[2].data(),
                                 columns[3].data(), columns[4].data(), columns[5].data(),
                                 columns[6].data(), columns[7].data()};
        CommonTotals totals;
        const size_t computed = ComputeElementTerms(
            out, device.data(), reference.data(), mag.data(), with_rules ? kinds.data() : nullptr,
            kCount, ulp_tolerance, mag_tolerance, terms, &totals);
        ASSERT_GT(computed, kCount - 16);
        ASSERT_LE(computed, kCount);
        for (size_t c = 0; c < columns.size(); ++c) {
          if (c == 5 || c == 6) continue;  // the bias terms of a float32 output are not written
          EXPECT_EQ(columns[c][computed], -7.0) << "column " << c << " wrote past";
        }
        Expected expected;
        int64_t wrong = 0;
        for (size_t i = 0; i < computed; ++i) {
          const double ref = reference[i], dev = device[i];
          const double rounded = RoundTo(ref, out);
          const bool common =
              std::isfinite(rounded) && std::isfinite(dev) &&
              std::fabs(dev - ref) <= ulp_tolerance * Ulp(ref, out) + mag_tolerance * mag[i] &&
              kinds[i] != kUnderOtherRule;
          std::array<double, 8> want{};  // +0 for an element that is not common
          if (common) {
            const double ulp = Ulp(ref, out), error = dev - ref;
            const double ulp_error = std::fabs(error) / ulp;
            const bool with_bias = kinds[i] == kWithoutRule && ref != 0;
            want = {ulp_error,
                    error * error,
                    error,
                    std::fabs(ref),
                    ref != 0 ? std::fabs(error) / std::fabs(ref) : 0.0,
                    with_bias ? error * ((ref > 0 ? 1 : -1) / ulp) : 0.0,
                    with_bias ? (rounded - ref) * ((ref > 0 ? 1 : -1) / ulp) : 0.0,
                    1.0};
            CommonTotals& t = expected.totals;
            ++t.elements;
            t.nonzero_reference += ref != 0;
            t.within_1e3 += ref != 0 ? want[4] <= 1e-3 : dev == 0;
            t.bias_elements += sixteen_bit && with_bias;
            ++t.ulp_histogram[UlpBucket(UlpDistance(dev, rounded, out))];
            t.max_ulp = std::max(t.max_ulp, ulp_error);
            t.max_relative = std::max(t.max_relative, want[4]);
            const double rank = std::isfinite(ulp_error) ? ulp_error : 0;
            if (rank > expected.best_rank) {
              expected.best_rank = rank;
              t.worst = static_cast<int64_t>(i);
              t.worst_ulp = ulp_error;
            }
          }
          bool right = true;
          for (size_t c = 0; c < columns.size(); ++c) {
            if ((c == 5 || c == 6) && !sixteen_bit) continue;
            right = right && Bits(columns[c][i]) == Bits(want[c]);
          }
          if (!right && ++wrong <= 3)
            ADD_FAILURE() << "element " << i << ": reference " << ref << ", device " << dev;
        }
        EXPECT_EQ(wrong, 0);
        const CommonTotals& want = expected.totals;
        EXPECT_GT(want.elements, static_cast<int64_t>(computed / 5)) << "too few common elements";
        for (const int64_t bucket : want.ulp_histogram)
          EXPECT_GT(bucket, 0) << "a bucket the data does not reach";
        EXPECT_EQ(totals.elements, want.elements);
        EXPECT_EQ(totals.nonzero_reference, want.nonzero_reference);
        EXPECT_EQ(totals.within_1e3, want.within_1e3);
        EXPECT_EQ(totals.bias_elements, want.bias_elements);
        EXPECT_EQ(totals.ulp_histogram, want.ulp_histogram);
        EXPECT_EQ(Bits(totals.max_ulp), Bits(want.max_ulp));
        EXPECT_EQ(Bits(totals.max_relative), Bits(want.max_relative));
        EXPECT_EQ(totals.worst, want.worst);
        EXPECT_EQ(Bits(totals.worst_ulp), Bits(want.worst_ulp));
      }
    }
  });
}

// The worst element is the first of the largest rank, whichever lane holds it.
TEST(ElementTerms, TheWorstElementIsTheFirstOfTheLargestError) {
  constexpr size_t kCount = 64;
  std::vector<double> reference(kCount, 1.0), device(kCount, 1.0), mag(kCount, 1.0);
  device[13] = device[37] = device[38] = NextUp(1.0, DType::kFloat32);
  std::vector<double> column(8 * kCount);
  const auto at = [&](size_t c) { return column.data() + c * kCount; };
  const ElementTerms terms{at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)};
  CommonTotals totals;
  ASSERT_EQ(ComputeElementTerms(DType::kFloat32, device.data(), reference.data(), mag.data(),
                                nullptr, kCount, 1, 0, terms, &totals),
            kCount);
  EXPECT_EQ(totals.worst, 13);
  EXPECT_EQ(totals.ulp_histogram[1], 3);
  EXPECT_EQ(totals.ulp_histogram[0], static_cast<int64_t>(kCount) - 3);
}

TEST(ElementTerms, OtherDTypesAreLeftToTheGeneralPath) {
  double value = 1, term = 0;
  const ElementTerms terms{&term, &term, &term, &term, &term, &term, &term, &term};
  CommonTotals totals;
  EXPECT_EQ(ComputeElementTerms(DType::kFloat64, &value, &value, &value, nullptr, 1, 1, 0, terms,
                                &totals),
            0u);
  EXPECT_EQ(term, 0.0);
  EXPECT_EQ(totals.elements, 0);
}

}  // namespace
}  // namespace aclnn_check
