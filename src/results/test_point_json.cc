#include "results/test_point_json.h"

#include <cmath>

#include "results/cann_verdict_json.h"
#include "results/json_number.h"
#include "results/precision_json.h"

namespace aclnn_check {

namespace {

using nlohmann::json;

json MetricsJson(const OutputMetrics& m) {
  json histogram = json::object();
  for (size_t i = 0; i < kUlpBuckets.size(); ++i) histogram[kUlpBuckets[i]] = m.ulp_histogram[i];
  json metrics = {
      {"elements", m.elements},
      {"finite_elements", m.finite_elements},
      {"failures", m.failures},
      {"max_ulp", JsonNumber(m.max_ulp)},
      {"mean_ulp", JsonNumber(m.mean_ulp)},
      {"ulp_histogram", histogram},
      {"max_rel", JsonNumber(m.max_rel)},
      {"mean_rel", JsonNumber(m.mean_rel)},
      {"rmse", JsonNumber(m.rmse)},
      {"error_balance", JsonNumber(m.error_balance)},
      {"within_1e-3", JsonNumber(m.within_1e3)},
      {"underflow_accepted", m.underflow_accepted},
      {"rounding_bias", m.rounding_bias ? JsonNumber(*m.rounding_bias) : json(nullptr)},
      {"correctly_rounded_bias",
       m.correctly_rounded_bias ? JsonNumber(*m.correctly_rounded_bias) : json(nullptr)},
  };
  return metrics;
}

// A tenth of a microsecond keeps every stage that took any time above zero and the line short.
double StageNumber(double seconds) { return std::round(seconds * 1e7) / 1e7; }

json StagesJson(const PointStages& stages) {
  json json_stages = {{"prepare", StageNumber(stages.prepare)},
                      {"call", StageNumber(stages.call)},
                      {"reference", StageNumber(stages.reference)},
                      {"check", StageNumber(stages.check)},
                      {"precision", StageNumber(stages.precision)}};
  // Only runs that make them have these.
  if (stages.repeat > 0) json_stages["repeat"] = StageNumber(stages.repeat);
  if (stages.patterns > 0) json_stages["patterns"] = StageNumber(stages.patterns);
  return json_stages;
}

}  // namespace

json TestPointJson(const TestPointResult& r) {
  json failures = json::array();
  for (const Finding& f : r.failures) failures.push_back({{"rule", f.rule}, {"message", f.message}});
  json rules = json::array();
  for (const RuleOutcome& rule : r.rules) {
    rules.push_back({{"id", rule.id}, {"held", rule.held}, {"waived", rule.waived}, {"elements", rule.elements}});
  }
  json outputs = json::array();
  for (const OutputResult& o : r.outputs) {
    json inputs = json::object();
    for (const auto& [name, value] : o.worst_inputs) inputs[name] = JsonNumber(value);
    const ElementReport& w = o.metrics.worst;
    outputs.push_back({{"name", o.name},
                       {"dtype", o.dtype},
                       {"metrics", MetricsJson(o.metrics)},
                       {"worst",
                        {{"index", w.index},
                         {"device", JsonNumber(w.device)},
                         {"reference", JsonNumber(w.reference)},
                         {"ulp_error", JsonNumber(w.ulp_error)},
                         {"rule", w.rule},
                         {"passed", w.passed},
                         {"inputs", inputs}}}});
  }
  json point = {{"id", r.id},
          {"case", r.case_name},
          {"case_file", r.case_path},
          {"op", r.op},
          {"dtype", r.dtype},
          {"layout", r.layout},
          {"axes", r.axes},
          {"verdict", std::string(VerdictName(r.verdict))},
          {"expected_status", r.expected_status},
          {"expected_rule", r.expected_rule},
          {"accepted_statuses", r.accepted_statuses},
          {"status", r.status ? json(*r.status) : json(nullptr)},
          {"execute_status", r.execute_status ? json(*r.execute_status) : json(nullptr)},
          {"provider_message", r.provider_message},
          {"workspace_bytes", r.workspace_bytes},
          {"seconds", r.seconds},
          {"stage_seconds", StagesJson(r.stages)},
          {"repro", r.repro},
          {"failures", failures},
          {"rules", rules},
          {"outputs", outputs}};
  if (auto cann = CannVerdictJson(r)) point["cann_tolerance"] = std::move(*cann);
  AddPrecisionJson(r, &point);
  if (!r.failure_data.is_null()) point["failure_data"] = r.failure_data;
  return point;
}

}  // namespace aclnn_check
