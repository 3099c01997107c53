// CANN's criteria as the imported cases carry them: ttk's isclose share and the single-benchmark
// MERE/MARE thresholds, against golden values rounded to the output dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "check/cann_tolerance.h"

namespace aclnn_check {
namespace {

CannTolerance Close(double rtol, double atol, double ptol) {
  CannTolerance t;
  t.standard = "ttk_close";
  t.close["out"] = {rtol, atol, ptol};
  return t;
}

TEST(CannTolerance, TtkCloseCountsElementsOutsideAtolPlusRtolTimesGolden) {
  // |d - g| <= 0.01 + 0.1 |g|: 100 vs 110 is 10 <= 10.01 (close); 1 vs 1.2 is 0.2 > 0.11 (not).
  const std::vector<double> golden = {100, 1, 0, 5};
  const std::vector<double> device = {110, 1.2, 0.01, 5};
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(Close(0.1, 0.01, 0.25), "out", device, golden, DType::kFloat32, &v));
  EXPECT_EQ(v.elements, 4);
  EXPECT_EQ(v.mismatches, 1);
  EXPECT_DOUBLE_EQ(v.mismatch_share, 0.25);
  EXPECT_TRUE(v.passed);  // 1 of 4 is within ptol 0.25
  ASSERT_TRUE(JudgeCannTolerance(Close(0.1, 0.01, 0.2), "out", device, golden, DType::kFloat32, &v));
  EXPECT_FALSE(v.passed);
}

TEST(CannTolerance, TtkCloseMatchesNanAndInfinitiesLikeIsCloseWithEqualNan) {
  const double inf = INFINITY;
  const std::vector<double> golden = {NAN, inf, -inf, 1};
  const std::vector<double> device = {NAN, inf, inf, NAN};
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(Close(1, 1, 1), "out", device, golden, DType::kFloat32, &v));
  EXPECT_EQ(v.mismatches, 2);  // -inf vs inf, 1 vs NaN
}

TEST(CannTolerance, GoldenIsRoundedToTheOutputDtype) {
  // 1 + 2^-12 rounds to 1 in float16, so a device 1.0 is exact against the stored golden.
  const std::vector<double> golden = {1 + 0x1p-12};
  const std::vector<double> device = {1};
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(Close(0, 0, 0), "out", device, golden, DType::kFloat16, &v));
  EXPECT_TRUE(v.passed);
  ASSERT_TRUE(JudgeCannTolerance(Close(0, 0, 0), "out", device, golden, DType::kFloat32, &v));
  EXPECT_FALSE(v.passed);
}

// single_bm rounds the golden values block by block: every block of an output longer than one.
TEST(CannTolerance, SingleBenchmarkRoundsTheGoldenOfEveryBlock) {
  CannTolerance t;
  t.standard = "single_bm";
  const size_t n = 3 * 65536 + 5;
  const std::vector<double> golden(n, 1 + 0x1p-12);  // 1 in float16, not in float32
  const std::vector<double> device(n, 1.0);
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(t, "out", device, golden, DType::kFloat16, &v));
  EXPECT_EQ(v.elements, static_cast<int64_t>(n));
  EXPECT_EQ(v.mare, 0.0);
  EXPECT_EQ(v.mere, 0.0);
  ASSERT_TRUE(JudgeCannTolerance(t, "out", device, golden, DType::kFloat32, &v));
  EXPECT_NEAR(v.mare, 0x1p-12, 1e-6);
}

TEST(CannTolerance, OutputsWithoutAnEntryAreNotJudged) {
  CannOutputVerdict v;
  EXPECT_FALSE(JudgeCannTolerance(Close(0, 0, 0), "gradBias", std::vector<double>{1},
                                  std::vector<double>{1}, DType::kFloat32, &v));
}

TEST(CannTolerance, SingleBenchmarkThresholdsByDtype) {
  EXPECT_EQ(SingleBenchmarkThreshold(DType::kFloat32), 1.0 / 8192);
  EXPECT_EQ(SingleBenchmarkThreshold(DType::kFloat16), 1.0 / 1024);
  EXPECT_EQ(SingleBenchmarkThreshold(DType::kBFloat16), 1.0 / 128);
}

TEST(CannTolerance, SingleBenchmarkMereAndMare) {
  CannTolerance t;
  t.standard = "single_bm";
  // float32, T = 2^-13 ~ 1.22e-4. Relative errors |d - g| / (|g| + 1e-7): 1e-4 (element 0),
  // 0 (1, 2): MERE 3.33e-5 < T, MARE 1e-4 < 10 T.
  std::vector<double> golden = {1000, 2, 4};
  std::vector<double> device = {1000.1, 2, 4};
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(t, "out", device, golden, DType::kFloat32, &v));
  EXPECT_NEAR(v.mare, 1e-4, 1e-9);
  EXPECT_NEAR(v.mere, 1e-4 / 3, 1e-9);
  EXPECT_TRUE(v.passed);
  // One element 2e-3 off: MARE 2e-3 > 10 T = 1.22e-3 fails.
  device = {1000, 2.004, 4};
  ASSERT_TRUE(JudgeCannTolerance(t, "out", device, golden, DType::kFloat32, &v));
  EXPECT_NEAR(v.mare, 2e-3, 1e-9);
  EXPECT_FALSE(v.passed);
  // MARE within 10 T but MERE above T: every element 2e-4 off.
  device = {1000.2, 2.0004, 4.0008};
  ASSERT_TRUE(JudgeCannTolerance(t, "out", device, golden, DType::kFloat32, &v));
  EXPECT_LT(v.mare, 10 * v.threshold);
  EXPECT_GT(v.mere, v.threshold);
  EXPECT_FALSE(v.passed);
}

TEST(CannTolerance, SingleBenchmarkSpecialValuesMustMatch) {
  CannTolerance t;
  t.standard = "single_bm";
  CannOutputVerdict v;
  ASSERT_TRUE(JudgeCannTolerance(t, "out", std::vector<double>{INFINITY, 1}, std::vector<double>{INFINITY, 1},
                                 DType::kFloat32, &v));
  EXPECT_TRUE(v.passed);
  ASSERT_TRUE(JudgeCannTolerance(t, "out", std::vector<double>{NAN, 1}, std::vector<double>{INFINITY, 1},
                                 DType::kFloat32, &v));
  EXPECT_EQ(v.mismatches, 1);
  EXPECT_FALSE(v.passed);
  // A NaN device value against a finite golden one is an infinite relative error.
  ASSERT_TRUE(JudgeCannTolerance(t, "out", std::vector<double>{NAN}, std::vector<double>{1}, DType::kFloat32, &v));
  EXPECT_TRUE(std::isinf(v.mare));
  EXPECT_FALSE(v.passed);
}

}  // namespace
}  // namespace aclnn_check
