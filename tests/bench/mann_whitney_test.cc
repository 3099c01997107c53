// Mann-Whitney U against values worked out by hand: U by counting pairs, exact p-values from the
// tables of Mann & Whitney (1947) (P(U <= u) for small n1, n2; two-sided = twice that), and the
// normal approximation with ties from the textbook formula evaluated separately.
#include "bench/mann_whitney.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace aclnn_check {
namespace {

TEST(MannWhitney, ThreeAgainstThreeFullySeparatedIsTheSmallestPossibleP) {
  // C(6, 3) = 20 orderings, one of them has U = 0: P(U <= 0) = 0.05, two-sided 0.1.
  const std::vector<double> fast = {1, 2, 3}, slow = {4, 5, 6};
  const MannWhitneyResult result = MannWhitneyU(fast, slow);
  EXPECT_EQ(result.u_first, 0);
  EXPECT_EQ(result.u_second, 9);
  EXPECT_TRUE(result.exact);
  EXPECT_NEAR(result.p_value, 0.1, 1e-12);
}

TEST(MannWhitney, FiveAgainstFiveFullySeparated) {
  // C(10, 5) = 252: two-sided p = 2 / 252.
  const std::vector<double> base = {10, 11, 12, 13, 14}, candidate = {20, 21, 22, 23, 24};
  const MannWhitneyResult result = MannWhitneyU(candidate, base);
  EXPECT_EQ(result.u_first, 25);
  EXPECT_EQ(result.u_second, 0);
  EXPECT_NEAR(result.p_value, 2.0 / 252, 1e-12);
}

TEST(MannWhitney, FourAgainstFourMatchesTheTable) {
  // Table n1 = n2 = 4: P(U <= 2) = 4/70 = .057, P(U <= 4) = 12/70 = .171.
  const std::vector<double> a = {1, 2, 3, 6}, b = {4, 5, 7, 8};
  MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_EQ(result.u_first, 2);  // 6 > 4 and 6 > 5
  EXPECT_NEAR(result.p_value, 8.0 / 70, 1e-12);

  const std::vector<double> c = {1, 2, 4, 7}, d = {3, 5, 6, 8};
  result = MannWhitneyU(c, d);
  EXPECT_EQ(result.u_first, 4);  // 4 > 3, and 7 > 3, 5, 6
  EXPECT_NEAR(result.p_value, 24.0 / 70, 1e-12);
}

TEST(MannWhitney, InterleavedSamplesAreNotSignificant) {
  // Table n1 = n2 = 3: P(U <= 3) = 7/20 = .350, two-sided .7.
  const std::vector<double> odd = {1, 3, 5}, even = {2, 4, 6};
  const MannWhitneyResult result = MannWhitneyU(odd, even);
  EXPECT_EQ(result.u_first, 3);
  EXPECT_NEAR(result.p_value, 0.7, 1e-12);
}

TEST(MannWhitney, TenAgainstTenSeparatedUsesTheExactDistribution) {
  std::vector<double> low, high;
  for (int i = 0; i < 10; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  const MannWhitneyResult result = MannWhitneyU(low, high);
  EXPECT_TRUE(result.exact);
  EXPECT_NEAR(result.p_value, 2.0 / 184756, 1e-15);  // 2 / C(20, 10)
}

TEST(MannWhitney, TiesUseMidranksAndTheCorrectedNormalApproximation) {
  // Pooled: 1 (a), 2 2 2 (a a b), 3 (b), 4 (b). Ranks 1, 3 3 3, 5, 6: R1 = 7, U1 = 7 - 6 = 1.
  // Var = n1 n2 / 12 * (n + 1 - sum(t^3 - t) / (n (n - 1))) = 9/12 * (7 - 24/30) = 4.65;
  // z = (|1 - 4.5| - 0.5) / sqrt(4.65) = 1.39122; p = erfc(z / sqrt 2) = 0.164160.
  const std::vector<double> a = {1, 2, 2}, b = {2, 3, 4};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_EQ(result.u_first, 1);
  EXPECT_FALSE(result.exact);
  EXPECT_NEAR(result.p_value, 0.164160, 1e-6);
}

TEST(MannWhitney, AllValuesEqualGivesNoEvidence) {
  const std::vector<double> a = {5, 5, 5}, b = {5, 5};
  EXPECT_EQ(MannWhitneyU(a, b).p_value, 1);
}

TEST(MannWhitney, EmptySampleIsRejected) {
  const std::vector<double> a = {1}, none;
  EXPECT_THROW(MannWhitneyU(a, none), std::invalid_argument);
  EXPECT_THROW(MannWhitneyU(none, a), std::invalid_argument);
}

}  // namespace
}  // namespace aclnn_check
