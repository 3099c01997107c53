// Checks one output tensor of a test point against the float64 reference
// (docs/contract/numerics.md): every element against its rule's expectation or the element bound,
// the metrics of the report, and the rounding-bias rule for 16-bit outputs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "catalogue/operator.h"
#include "check/expectation.h"
#include "core/block_values.h"

namespace aclnn_check {

// ULP histogram buckets: representable steps between the device value and the correctly rounded
// reference: 0, 1, 2, 3-4, 5-8, 9-16, >16.
constexpr std::array<const char*, 7> kUlpBuckets = {"0", "1", "2", "3-4", "5-8", "9-16", ">16"};
size_t UlpBucket(uint64_t steps);

struct ElementReport {
  int64_t index = -1;  // logical index in the output
  double device = 0;
  double reference = 0;
  double ulp_error = 0;  // |device - reference| / ulp(reference)
  std::string rule;      // the element rule that decided the element, or ""
  bool passed = true;
};

struct OutputMetrics {
  int64_t elements = 0;
  int64_t finite_elements = 0;  // elements whose rounded reference is finite
  int64_t failures = 0;
  double max_ulp = 0;
  double mean_ulp = 0;
  std::array<int64_t, 7> ulp_histogram{};
  double max_rel = 0;
  double mean_rel = 0;
  double rmse = 0;
  double error_balance = 0;  // mean signed error / mean |reference|
  double within_1e3 = 1;     // share of elements with relative error <= 1e-3
  ElementReport worst;       // the failing element with the largest error, else the largest
  // numerics.rounding_bias: measured for fp16/bf16 outputs with >= 1000 qualifying elements.
  std::optional<double> rounding_bias;
  // The same mean for the reference rounded to nearest even: ~0 on spread-out inputs.
  std::optional<double> correctly_rounded_bias;
  bool rounding_bias_ok = true;
  int64_t underflow_accepted = 0;  // elements accepted only by numerics.underflow
};

struct RuleTally {
  int64_t applied = 0;
  int64_t held = 0;
  int64_t first_failure = -1;  // logical index
};

struct OutputCheck {
  OutputMetrics metrics;
  std::map<std::string, RuleTally> rules;  // element rules and numerics.* rules that applied
  bool passed() const { return metrics.failures == 0 && metrics.rounding_bias_ok; }
};

constexpr double kRoundingBiasLimit = 0.1;
constexpr int64_t kRoundingBiasMinElements = 1000;

// The expectation of an element rule: its operator.json text unless a profile overrides it.
using ExpectationLookup = std::function<const Expectation&(const RuleDef& rule)>;
const Expectation& DocumentedExpectation(const RuleDef& rule);

// device holds values of dtype out (decoded from the output). Elements are checked in blocks over
// the harness's threads (core/parallel_blocks.h); the sums behind mean_ulp, mean_rel, rmse,
// error_balance and the rounding biases add per block of 2^16 elements, then block by block, so
// outputs above one block may differ from a single running sum in the last bits.
OutputCheck CheckOutput(const Operator& op, const ReferenceOutput& reference,
                        std::span<const double> device, DType out, const Tolerance& tolerance,
                        const ExpectationLookup& expectation_of = DocumentedExpectation);
// The same for device values read a block at a time (a downloaded output decoded on demand).
OutputCheck CheckOutput(const Operator& op, const ReferenceOutput& reference,
                        const BlockValues& device, DType out, const Tolerance& tolerance,
                        const ExpectationLookup& expectation_of = DocumentedExpectation);

}  // namespace aclnn_check
