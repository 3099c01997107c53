// The outcome of one test point, as the reports show it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/cann_tolerance.h"
#include "check/output_check.h"
#include "check/precision_standard.h"

namespace aclnn_check {

enum class Verdict { kPassed, kFailed, kNotProvided, kError };
std::string_view VerdictName(Verdict verdict);  // "passed", "failed", "not-provided", "error"

// A rule or metric that did not hold, with what was seen.
struct Finding {
  std::string rule;
  std::string message;
};

struct WorstElement {
  ElementReport element;
  std::map<std::string, double> inputs;  // input tensors with the output's element count
};

struct OutputResult {
  std::string name;
  std::string dtype;
  OutputMetrics metrics;
  std::map<std::string, double> worst_inputs{};
  std::optional<CannOutputVerdict> cann{};  // imported CANN cases: the source's own criterion
  std::optional<OutputPrecision> precision{};  // CANN's standards (docs/contract/numerics.md), whichever verdict decides
};

// One rule as it fared in one test point.
struct RuleOutcome {
  std::string id;
  bool held = true;
  bool waived = false;
  int64_t elements = 0;  // element rules: elements it decided
};

struct TestPointResult {
  std::string id;
  std::string case_name;
  std::string case_path;
  std::string op;
  std::string dtype;
  std::string layout;
  nlohmann::json axes;
  Verdict verdict = Verdict::kPassed;
  int expected_status = 0;
  std::string expected_rule;
  std::vector<int> accepted_statuses;
  std::optional<int> status;          // GetWorkspaceSize
  std::optional<int> execute_status;  // the execute call
  std::string provider_message;       // aclGetRecentErrMsg after a failing call
  uint64_t workspace_bytes = 0;
  std::vector<Finding> failures;
  std::vector<OutputResult> outputs;
  std::vector<RuleOutcome> rules;
  double seconds = 0;
  std::string repro;
  // Imported CANN cases: the source's criterion ("ttk_close", "single_bm") and where it came from;
  // the outputs carry its verdicts, reported beside (never instead of) the point's own verdict.
  std::string cann_standard;
  std::string cann_source;
  // docs/contract/numerics.md (runner/precision_gate.h): the verdicts that decided, the benchmark's
  // source, the re-check; findings of standards that did not decide (reported, not failing).
  nlohmann::json precision;
  std::vector<Finding> advisory;
  // --save-failures: where the point's data went, or why it was not saved (null: not asked).
  nlohmann::json failure_data;
};

}  // namespace aclnn_check
