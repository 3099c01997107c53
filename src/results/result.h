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

// Where a point's time went, in seconds (docs/contract/reports.md, "stage_seconds"): generating its
// inputs and making its host and device memory, the calls, the reference, the checks, the
// precision standards, and the calls of --repeat and of the calling patterns. They add up to at
// most the point's `seconds`; the rest is the runner's own bookkeeping.
struct PointStages {
  double prepare = 0;
  double call = 0;
  double reference = 0;
  double check = 0;
  double precision = 0;
  double repeat = 0;
  double patterns = 0;
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
  double seconds = 0;  // the whole point as its worker ran it
  PointStages stages;
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
