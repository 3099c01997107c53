// CheckOutput (block-wise, threaded) against the per-element checker it replaced
// (per_element_oracle.cc): every verdict, count, maximum, histogram bucket, rule tally and the worst
// element identical; the sums behind mean_ulp, mean_rel, rmse, error_balance and the rounding biases
// identical within one block of 2^16 elements and within a relative 1e-9 above (their summation
// order changes there).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "cases/test_point.h"
#include "core/block_values.h"
#include "core/host_tensor.h"
#include "core/layout.h"
#include "core/parallel_blocks.h"
#include "check/per_element_oracle.h"
#include "runner/execute.h"

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void ExpectSameDouble(double a, double b, bool exact, const std::string& what) {
  if (exact || std::isnan(a) || std::isinf(a)) {
    EXPECT_EQ(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b)) << what << ": " << a << " vs " << b;
  } else {
    EXPECT_LE(std::fabs(a - b), 1e-9 * std::max(std::fabs(a), std::fabs(b)) + 1e-300) << what;
  }
}

void ExpectSameCheck(const OutputCheck& got, const OutputCheck& want, bool exact_sums, const std::string& where) {
  SCOPED_TRACE(where);
  const OutputMetrics& g = got.metrics;
  const OutputMetrics& w = want.metrics;
  EXPECT_EQ(g.elements, w.elements);
  EXPECT_EQ(g.finite_elements, w.finite_elements);
  EXPECT_EQ(g.failures, w.failures);
  EXPECT_EQ(g.underflow_accepted, w.underflow_accepted);
  EXPECT_EQ(g.ulp_histogram, w.ulp_histogram);
  ExpectSameDouble(g.max_ulp, w.max_ulp, true, "max_ulp");
  ExpectSameDouble(g.max_rel, w.max_rel, true, "max_rel");
  ExpectSameDouble(g.within_1e3, w.within_1e3, true, "within_1e3");
  ExpectSameDouble(g.mean_ulp, w.mean_ulp, exact_sums, "mean_ulp");
  ExpectSameDouble(g.mean_rel, w.mean_rel, exact_sums, "mean_rel");
  ExpectSameDouble(g.rmse, w.rmse, exact_sums, "rmse");
  ExpectSameDouble(g.error_balance, w.error_balance, exact_sums, "error_balance");
  ASSERT_EQ(g.rounding_bias.has_value(), w.rounding_bias.has_value());
  if (g.rounding_bias) {
    ExpectSameDouble(*g.rounding_bias, *w.rounding_bias, exact_sums, "rounding_bias");
    ExpectSameDouble(*g.correctly_rounded_bias, *w.correctly_rounded_bias, exact_sums, "correctly_rounded_bias");
  }
  EXPECT_EQ(g.rounding_bias_ok, w.rounding_bias_ok);
  EXPECT_EQ(g.worst.index, w.worst.index);
  ExpectSameDouble(g.worst.device, w.worst.device, true, "worst.device");
  ExpectSameDouble(g.worst.reference, w.worst.reference, true, "worst.reference");
  ExpectSameDouble(g.worst.ulp_error, w.worst.ulp_error, true, "worst.ulp_error");
  EXPECT_EQ(g.worst.rule, w.worst.rule);
  EXPECT_EQ(g.worst.passed, w.worst.passed);
  ASSERT_EQ(got.rules.size(), want.rules.size());
  for (const auto& [id, tally] : want.rules) {
    ASSERT_TRUE(got.rules.count(id)) << id;
    EXPECT_EQ(got.rules.at(id).applied, tally.applied) << id;
    EXPECT_EQ(got.rules.at(id).held, tally.held) << id;
    EXPECT_EQ(got.rules.at(id).first_failure, tally.first_failure) << id;
  }
}

// A device value for reference value ref: mostly right or a few steps off, some far off, some
// special, chosen by u in [0, 1).
double DeviceValue(double ref, double u, DType out) {
  const double rounded = RoundTo(ref, out);
  if (std::isnan(rounded)) return u < 0.7 ? kNaN : 0.0;
  if (u < 0.6) return rounded;
  if (u < 0.75) return NextUp(rounded, out);
  if (u < 0.85) return NextDown(NextDown(rounded, out), out);
  if (u < 0.9) return RoundTo(3 * ref + 1, out);
  if (u < 0.93) return kNaN;
  if (u < 0.96) return u < 0.945 ? kInf : -kInf;
  if (u < 0.98) return RoundTo(0x1p-130 * (u - 0.97), out);
  return 0.0;
}

// A reference with every kind of element: ordinary values, zeros, values in the underflow range,
// values that overflow the output dtype (some within the bound of its largest finite value), NaN
// and infinities, a share of elements decided by each of the operator's rules.
ReferenceOutput RandomReference(const Operator& op, size_t n, DType out, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  ReferenceOutput reference;
  reference.Resize(n);
  const double largest = LargestFinite(out);
  std::vector<RuleTag> element_rules;  // rules with an expectation (call rules have none)
  for (size_t r = 0; r < op.rules().size(); ++r) {
    if (!op.rules()[r].expect.empty()) element_rules.push_back(static_cast<RuleTag>(r + 1));
  }
  for (size_t i = 0; i < n; ++i) {
    const double u = uniform(random);
    const double sign = uniform(random) < 0.5 ? -1 : 1;
    double value;
    if (u < 0.8) {
      value = sign * std::ldexp(1 + uniform(random), static_cast<int>(uniform(random) * 20) - 10);
    } else if (u < 0.84) {
      value = 0;
    } else if (u < 0.88) {
      value = sign * std::ldexp(uniform(random), -128);
    } else if (u < 0.92) {
      value = sign * largest * (1 + uniform(random) * 1e-3);
    } else if (u < 0.95) {
      value = u < 0.935 ? kNaN : sign * kInf;
    } else {
      value = sign * uniform(random) * 100;
    }
    reference.value[i] = value;
    reference.mag[i] = std::isfinite(value) ? std::fabs(value) * (uniform(random) < 0.9 ? 1 : 1e6) : 0;
    if (!element_rules.empty() && uniform(random) < 0.05) {
      reference.rule[i] = element_rules[random() % element_rules.size()];
      reference.alt.Set(i, uniform(random) < 0.5 ? kNaN : value * 2);
    }
  }
  return reference;
}

std::vector<double> RandomDevice(const ReferenceOutput& reference, DType out, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<double> device(reference.value.size());
  for (size_t i = 0; i < device.size(); ++i) device[i] = DeviceValue(reference.value[i], uniform(random), out);
  return device;
}

TEST(CheckOutputOracle, RandomElementsOfEveryKindInEveryDType) {
  for (const char* name : {"LogitGrad", "HardswishBackward"}) {
    const Operator& op = *FindOperator(name);
    for (DType out : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (size_t n : {size_t{1}, size_t{999}, size_t{5000}, size_t{65536}, size_t{3 * 65536 + 17}}) {
        const ReferenceOutput reference = RandomReference(op, n, out, n);
        const std::vector<double> device = RandomDevice(reference, out, n + 1);
        const Tolerance tolerance{1, 4, DType::kFloat32};
        ExpectSameCheck(CheckOutput(op, reference, device, out, tolerance),
                        PerElementCheckOutput(op, reference, device, out, tolerance),
                        n <= static_cast<size_t>(kHarnessBlock),
                        std::string(name) + " " + std::string(DTypeName(out)) + " n=" + std::to_string(n));
      }
    }
  }
}

// The runner checks a downloaded output straight from its bytes, a block at a time (no decoded
// copy): over several blocks of a transposed layout, where logical and storage order differ, it
// judges what the per-element checker judges of the same values.
TEST(CheckOutputOracle, AnOutputCheckedFromItsBytesAgreesWithThePerElementChecker) {
  const Operator& op = *FindOperator("LogitGrad");
  const Dims shape = {389, 509};  // 198001 elements: three blocks and a part
  const size_t n = 389 * 509;
  for (DType out : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    const ReferenceOutput reference = RandomReference(op, n, out, 11);
    const HostTensor downloaded = HostTensor::FromValues(
        out, shape, RandomDevice(reference, out, 12), Layout{Layout::Kind::kTransposed});
    const Tolerance tolerance{1, 4, DType::kFloat32};
    ExpectSameCheck(CheckOutput(op, reference, BlockValues(downloaded.view()), out, tolerance),
                    PerElementCheckOutput(op, reference, downloaded.Values(), out, tolerance),
                    false, std::string("from bytes ") + std::string(DTypeName(out)));
  }
}

// A correct 16-bit kernel over a large output: the rounding bias is measured, and its sums are
// the ones whose order changes above one block.
TEST(CheckOutputOracle, RoundingBiasOverManyBlocksStaysWithinTheBound) {
  const Operator& op = *FindOperator("HardswishBackward");
  const size_t n = 10 * kHarnessBlock + 3;
  ReferenceOutput reference = RandomReference(op, n, DType::kBFloat16, 5);
  std::mt19937_64 random(6);
  for (size_t i = 0; i < n; ++i) {
    reference.value[i] = std::ldexp(1 + std::uniform_real_distribution<double>(0, 1)(random), -3);
    reference.rule[i] = kNoRule;
  }
  const std::vector<double> device = RandomDevice(reference, DType::kBFloat16, 7);
  const Tolerance tolerance{1, 4, DType::kFloat32};
  const OutputCheck got = CheckOutput(op, reference, device, DType::kBFloat16, tolerance);
  ASSERT_TRUE(got.metrics.rounding_bias.has_value());
  ExpectSameCheck(got, PerElementCheckOutput(op, reference, device, DType::kBFloat16, tolerance), false,
                  "bf16 many blocks");
}

// Every point of the default suite (A2) that computes outputs of at most 2^20 elements: its own
// inputs and reference (rules, alternatives and specials as the suite has them), against device
// values that are right, a few steps off, far off or special.
TEST(CheckOutputOracle, DefaultSuitePointsAgreeWithThePerElementChecker) {
  const std::filesystem::path root = std::filesystem::path(ACLNN_CHECK_SOURCE_DIR) / "cases";
  int checked = 0;
  for (const auto& folder : std::filesystem::directory_iterator(root)) {
    if (!folder.is_directory() || folder.path().filename() == "profiles") continue;
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      if (file.path().extension() != ".json") continue;
      const CaseFile case_file = LoadCaseFile(file.path());
      for (const TestPoint& point : ExpandCase(case_file, Product::kA2)) {
        if (!point.expected.ok() || EstimatedBytes(point) > (uint64_t{64} << 20)) continue;
        const PreparedPoint prepared = PreparePoint(point);
        const Operator& op = point.op();
        for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
          const ReferenceOutput& expected = prepared.reference->outputs[slot];
          if (!expected.computed) continue;
          const DType out = prepared.args.tensors[slot]->dtype;
          std::mt19937_64 random(static_cast<uint64_t>(checked));
          std::vector<double> device(expected.value.size());
          for (size_t i = 0; i < device.size(); ++i) {
            device[i] = DeviceValue(expected.value[i], std::uniform_real_distribution<double>(0, 1)(random), out);
          }
          const OutputTolerance& documented = op.Tolerance(op.tensors()[slot].name);
          const Tolerance tolerance{documented.ulp, documented.c, DType::kFloat32};
          ExpectSameCheck(CheckOutput(op, expected, device, out, tolerance),
                          PerElementCheckOutput(op, expected, device, out, tolerance),
                          device.size() <= static_cast<size_t>(kHarnessBlock),
                          point.id + " " + std::string(op.tensors()[slot].name));
          if (HasFailure()) return;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

}  // namespace
}  // namespace aclnn_check
