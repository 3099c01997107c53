// CANN's input generation rules (issue 27 item 7, docs/contract/numerics.md): the case-file names,
// the drawn normal parameters, the outliers, and the L0 case set passing on the cpu provider. The
// expected figures are the standard's own (COMMERCIAL_OPS_PRECISION_DOCS.md 2 and 5.1.2), worked
// out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "cases/case_file.h"
#include "cases/standard_distributions.h"
#include "cases/test_point.h"
#include "cli/run_command.h"
#include "catalogue/operator.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

// The inputs of a HardswishBackward case file with these input entries (JSON text).
std::map<std::string, InputSpec> ParsedInputs(const std::string& inputs) {
  const std::string text = R"({"name": "t", "op": "HardswishBackward", "inputs": )" + inputs + "}";
  return ParseCaseFile(text, "t.json").inputs;
}

std::vector<double> Values(const InputSpec& spec, int64_t n, const std::string& key, DType dtype = DType::kFloat32) {
  return GenerateValues(spec, n, CounterRandom(1, key, "x"), {dtype, {}});
}

struct Moments {
  double mean = 0, sigma = 0, low = INFINITY, high = -INFINITY;
};
Moments MomentsOf(const std::vector<double>& values) {
  Moments m;
  double sum = 0, squares = 0;
  for (double v : values) {
    sum += v;
    squares += v * v;
    m.low = std::min(m.low, v);
    m.high = std::max(m.high, v);
  }
  m.mean = sum / static_cast<double>(values.size());
  m.sigma = std::sqrt(squares / static_cast<double>(values.size()) - m.mean * m.mean);
  return m;
}

TEST(StandardDistributions, UniformFillsMinusFiveToFive) {
  const auto values = Values(ParsedInputs(R"({"self": {"dist": "cann_uniform"}})").at("self"), 100000, "p");
  const Moments m = MomentsOf(values);
  EXPECT_GE(m.low, -5.0);
  EXPECT_LE(m.high, 5.0);
  EXPECT_LT(m.low, -4.99);
  EXPECT_GT(m.high, 4.99);
  EXPECT_NEAR(m.mean, 0.0, 0.05);
  EXPECT_NEAR(m.sigma, 10 / std::sqrt(12.0), 0.02);  // a uniform's sigma: width / sqrt(12)
}

TEST(StandardDistributions, SmallUniformFillsMinusAThousandthToAThousandth) {
  const auto values = Values(ParsedInputs(R"({"self": {"dist": "cann_small_uniform"}})").at("self"), 100000, "p");
  const Moments m = MomentsOf(values);
  EXPECT_GE(m.low, -0.001);
  EXPECT_LE(m.high, 0.001);
  EXPECT_LT(m.low, -0.00099);
  EXPECT_GT(m.high, 0.00099);
  EXPECT_NEAR(m.sigma, 0.002 / std::sqrt(12.0), 0.00001);
}

// Each test point and tensor draws its own mean from [-100, 100] and sigma from [1, 25]; over 200
// points the draws stay inside the ranges and spread over them.
TEST(StandardDistributions, NormalDrawsMeanAndSigmaPerPointFromTheStandardsRanges) {
  const InputSpec spec = ParsedInputs(R"({"self": {"dist": "cann_normal"}})").at("self");
  std::vector<double> means, sigmas;
  for (int point = 0; point < 200; ++point) {
    const Moments m = MomentsOf(Values(spec, 20000, "point" + std::to_string(point)));
    means.push_back(m.mean);
    sigmas.push_back(m.sigma);
    // The sample's own deviation is within a few percent of the drawn sigma; its mean within
    // 5 standard errors of the drawn mean.
    EXPECT_GE(m.mean, -100 - 5 * 25 / std::sqrt(20000.0));
    EXPECT_LE(m.mean, 100 + 5 * 25 / std::sqrt(20000.0));
    EXPECT_GE(m.sigma, 1 * 0.95);
    EXPECT_LE(m.sigma, 25 * 1.05);
  }
  EXPECT_LT(*std::min_element(means.begin(), means.end()), -80);
  EXPECT_GT(*std::max_element(means.begin(), means.end()), 80);
  EXPECT_LT(*std::min_element(sigmas.begin(), sigmas.end()), 3);
  EXPECT_GT(*std::max_element(sigmas.begin(), sigmas.end()), 23);
  // Deterministic from the key.
  EXPECT_EQ(Values(spec, 100, "point7"), Values(spec, 100, "point7"));
}

TEST(StandardDistributions, NormalRangesCanBeGivenForAnyNormal) {
  const InputSpec spec =
      ParsedInputs(R"({"self": {"dist": "normal", "mean": [10, 10.5], "std": [0.5, 0.5]}})").at("self");
  const Moments m = MomentsOf(Values(spec, 100000, "p"));
  EXPECT_GE(m.mean, 10 - 0.01);
  EXPECT_LE(m.mean, 10.5 + 0.01);
  EXPECT_NEAR(m.sigma, 0.5, 0.01);
}

TEST(StandardDistributions, OutlierCountIsATenthOfAPercentAndAtLeastOne) {
  EXPECT_EQ(OutlierCount(0), 0);
  EXPECT_EQ(OutlierCount(1), 1);
  EXPECT_EQ(OutlierCount(6), 1);  // the standard's example: a [2, 3] tensor has one outlier
  EXPECT_EQ(OutlierCount(1999), 1);
  EXPECT_EQ(OutlierCount(2000), 2);
  EXPECT_EQ(OutlierCount(4096000), 4096);
}

// The outliers are the base values at max(1, n/1000) distinct positions multiplied by 1000;
// every other element is the base value.
TEST(StandardDistributions, OutliersMultiplyDistinctPositionsByAThousand) {
  const auto inputs = ParsedInputs(R"({"self": {"dist": "cann_uniform", "outliers": true},
                                       "gradOutput": {"dist": "cann_uniform"}})");
  const InputSpec& noisy = inputs.at("self");
  const InputSpec& base = inputs.at("gradOutput");
  for (int64_t n : {1, 7, 5000, 123456}) {
    const auto values = Values(noisy, n, "p");
    const auto plain = Values(base, n, "p");
    int64_t outliers = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (values[i] == plain[i]) continue;
      ++outliers;
      EXPECT_EQ(values[i], RoundTo(plain[i] * 1000, DType::kFloat32)) << i;
    }
    EXPECT_EQ(outliers, std::max<int64_t>(1, n / 1000)) << n;
  }
  // Positions are drawn per tensor: another tensor name, other positions.
  const auto x = GenerateValues(noisy, 5000, CounterRandom(1, "p", "x"), {DType::kFloat32, {}});
  const auto y = GenerateValues(noisy, 5000, CounterRandom(1, "p", "y"), {DType::kFloat32, {}});
  std::set<int64_t> x_positions, y_positions;
  for (int64_t i = 0; i < 5000; ++i) {
    if (std::fabs(x[i]) > 5) x_positions.insert(i);
    if (std::fabs(y[i]) > 5) y_positions.insert(i);
  }
  EXPECT_NE(x_positions, y_positions);
}

// A product past the dtype's largest finite value would be an infinity, a special value rather
// than an outlier: the factor shrinks to keep it the largest finite value of its sign.
TEST(StandardDistributions, OutliersThatWouldOverflowTheDtypeStayFinite) {
  const InputSpec spec =
      ParsedInputs(R"({"self": {"dist": "normal", "mean": 100, "std": 1, "outliers": true}})").at("self");
  const auto values = Values(spec, 3000, "p", DType::kFloat16);
  EXPECT_EQ(std::count(values.begin(), values.end(), 65504.0), 3);
  for (double v : values) EXPECT_TRUE(std::isfinite(v));
}

::testing::AssertionResult RefusedAt(const std::string& inputs, const std::string& pointer, const std::string& words) {
  try {
    ParsedInputs(inputs);
  } catch (const InputError& error) {
    if (error.file() == "t.json" && error.pointer() == pointer && error.message().find(words) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "wanted " << pointer << ", \"" << words << "\"; got " << error.what();
  }
  return ::testing::AssertionFailure() << "accepted " << inputs;
}

TEST(StandardDistributions, BadSpellingsNameTheField) {
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "cann_uniform", "low": -1}})", "/inputs/self/low", "CANN's rule"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "cann_normal", "std": 2}})", "/inputs/self/std", "CANN's rule"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "cann_uniform", "outliers": true, "specials": ["nan"]}})",
                        "/inputs/self/outliers", "do not combine"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "grid", "low": 0, "high": 1, "count": 3, "outliers": true}})",
                        "/inputs/self/outliers", "uniform and normal"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "normal", "mean": [5, 1]}})", "/inputs/self/mean", "low <= high"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "normal", "std": [-1, 1]}})", "/inputs/self/std/0", "schema"));
  EXPECT_TRUE(RefusedAt(R"({"self": {"dist": "uniform", "low": 0, "high": 1, "mean": [0, 1]}})", "/inputs/self/mean",
                        "applies to dist \"normal\" only"));
}

// The case set follows the L0 mix: for every operator of the catalogue as many points with the standard's uniform
// [-5, 5] as with its normal, and nothing else.
TEST(CannStandardCases, FollowTheL0Mix) {
  std::map<std::string, std::map<std::string, size_t>> points;  // op -> dist -> points
  for (const auto& path : FindCaseFiles({(testing::kSourceDir / "cases/cann_standard").string()})) {
    const CaseFile c = LoadCaseFile(path);
    const size_t count = ExpandCase(c, Product::kA2).size();
    for (const std::string& input : c.explicit_inputs) {
      const InputSpec& spec = c.inputs.at(input);
      const std::string dist = spec.mean_range ? "normal" : spec.low == -5 && spec.high == 5 ? "uniform" : "other";
      points[c.op->name()][dist] += count;
    }
  }
  EXPECT_EQ(points.size(), Catalogue().size());
  for (const auto& [op, by_dist] : points) {
    EXPECT_EQ(by_dist.count("other"), 0u) << op;
    EXPECT_GT(by_dist.at("uniform"), 0u) << op;
    EXPECT_EQ(by_dist.at("uniform"), by_dist.at("normal")) << op;
  }
}

TEST(CannStandardCases, PassOnTheCpuProviderUnderTheElementCheck) {
  testing::TempDir dir;
  RunOptions options;
  options.cases = {(testing::kSourceDir / "cases/cann_standard").string()};
  options.report_dir = dir.path().string();
  options.run_history = "";
  options.jobs = 2;
  EXPECT_EQ(aclnn_check::Run(options), 0);
}

}  // namespace
}  // namespace aclnn_check
