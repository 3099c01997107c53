#include "report/report_json.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/build_info.h"
#include "report/cann_verdict_json.h"
#include "report/precision_json.h"
#include "validation/json_schema.h"
#include "common/operator.h"

namespace aclnn_check {

extern const char kReportSchema[];  // reports/schema/report.schema.json, embedded at build time

namespace {

using nlohmann::json;

// NaN and infinities are not JSON: they are written as strings.
json Number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

json MetricsJson(const OutputMetrics& m) {
  json histogram = json::object();
  for (size_t i = 0; i < kUlpBuckets.size(); ++i) histogram[kUlpBuckets[i]] = m.ulp_histogram[i];
  json metrics = {
      {"elements", m.elements},
      {"finite_elements", m.finite_elements},
      {"failures", m.failures},
      {"max_ulp", Number(m.max_ulp)},
      {"mean_ulp", Number(m.mean_ulp)},
      {"ulp_histogram", histogram},
      {"max_rel", Number(m.max_rel)},
      {"mean_rel", Number(m.mean_rel)},
      {"rmse", Number(m.rmse)},
      {"error_balance", Number(m.error_balance)},
      {"within_1e-3", Number(m.within_1e3)},
      {"underflow_accepted", m.underflow_accepted},
      {"rounding_bias", m.rounding_bias ? Number(*m.rounding_bias) : json(nullptr)},
      {"correctly_rounded_bias",
       m.correctly_rounded_bias ? Number(*m.correctly_rounded_bias) : json(nullptr)},
  };
  return metrics;
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
    for (const auto& [name, value] : o.worst_inputs) inputs[name] = Number(value);
    const ElementReport& w = o.metrics.worst;
    outputs.push_back({{"name", o.name},
                       {"dtype", o.dtype},
                       {"metrics", MetricsJson(o.metrics)},
                       {"worst",
                        {{"index", w.index},
                         {"device", Number(w.device)},
                         {"reference", Number(w.reference)},
                         {"ulp_error", Number(w.ulp_error)},
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
          {"repro", r.repro},
          {"failures", failures},
          {"rules", rules},
          {"outputs", outputs}};
  if (auto cann = CannVerdictJson(r)) point["cann_tolerance"] = std::move(*cann);
  AddPrecisionJson(r, &point);
  if (!r.failure_data.is_null()) point["failure_data"] = r.failure_data;
  return point;
}

json OverridesJson(const Profiles& profiles) {
  json overrides = json::array();
  for (const auto& [id, o] : profiles.overrides()) {
    json entry = {{"rule", id}, {"reason", o.reason}, {"source", o.source}, {"profile", o.profile}};
    if (o.expect) entry["expect"] = o.expect->text();
    if (!o.status.empty()) entry["status"] = o.status;
    if (o.waive) entry["waive"] = true;
    overrides.push_back(entry);
  }
  return overrides;
}

json BuildReport(json metadata, json test_points, const std::vector<std::string>& operators) {
  json totals = {{"test_points", test_points.size()}, {"passed", 0}, {"failed", 0},
                 {"not_provided", 0}, {"errors", 0}};
  struct Coverage {
    int64_t applied = 0, held = 0;
    bool waived = false;
    std::set<std::string> cases;
  };
  std::map<std::string, Coverage> coverage;
  std::map<std::string, json> case_files;
  for (const json& point : test_points) {
    const std::string verdict = point.at("verdict").get<std::string>();
    const char* key = verdict == "passed" ? "passed" : verdict == "failed" ? "failed"
                      : verdict == "not-provided" ? "not_provided" : "errors";
    totals[key] = totals[key].get<int64_t>() + 1;
    const std::string case_file = point.at("case_file").get<std::string>();
    json& entry = case_files[case_file];
    if (entry.is_null()) {
      entry = {{"path", case_file}, {"name", point.at("case")}, {"op", point.at("op")}, {"test_points", 0}};
    }
    entry["test_points"] = entry["test_points"].get<int64_t>() + 1;
    for (const json& rule : point.at("rules")) {
      Coverage& c = coverage[rule.at("id").get<std::string>()];
      ++c.applied;
      c.held += rule.at("held").get<bool>() ? 1 : 0;
      c.waived = c.waived || rule.at("waived").get<bool>();
      c.cases.insert(point.at("case").get<std::string>());
    }
  }
  // Every rule of the operators in the run, plus the generic ones, appears even when unexercised.
  json table = json::array();
  auto add_rule = [&](const std::string& id, const std::string& op, const std::string& kind,
                      const std::string& description) {
    const Coverage& c = coverage[id];
    table.push_back({{"id", id}, {"op", op}, {"kind", kind}, {"description", description},
                     {"applied", c.applied}, {"held", c.held}, {"waived", c.waived},
                     {"cases", std::vector<std::string>(c.cases.begin(), c.cases.end())}});
  };
  std::set<std::string> listed;
  for (const std::string& name : operators) {
    const Operator* op = FindOperator(name);
    if (!op) continue;
    for (const RuleDef& rule : op->rules()) {
      add_rule(rule.id, op->name(), rule.kind, rule.description);
      listed.insert(rule.id);
    }
  }
  for (const auto& [id, description] : GenericRules()) {
    add_rule(id, "", "generic", description);
    listed.insert(id);
  }
  for (const auto& [id, c] : coverage) {
    if (!listed.count(id)) add_rule(id, "", "unknown", "");
  }
  AddCannTotals(test_points, &totals);
  json files = json::array();
  for (auto& [path, entry] : case_files) files.push_back(entry);
  return {{"schema_version", kReportSchemaVersion},
          {"tool", {{"name", "aclnn-check"}, {"version", HarnessVersion()}}},
          {"run", std::move(metadata)},
          {"totals", totals},
          {"case_files", files},
          {"rule_coverage", table},
          {"test_points", std::move(test_points)}};
}

json ParseReport(const std::string& text, const std::string& path) {
  static const JsonSchema schema(json::parse(kReportSchema), "reports/schema/report.schema.json");
  const json report = ParseJsonText(text, path);
  schema.Validate(report, path);
  return report;
}

json LoadReport(const std::string& path) { return ParseReport(ReadTextFile(path, "report"), path); }

json MergeReports(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, json>> reports;
  for (const std::string& path : paths) reports.emplace_back(path, LoadReport(path));
  return MergeReportDocuments(reports);
}

json MergeReportDocuments(const std::vector<std::pair<std::string, json>>& reports) {
  if (reports.empty()) throw InputError("report merge", "/", "no reports given");
  json metadata;
  json shards = json::array();
  std::map<std::string, json> points;
  std::vector<std::string> order;
  std::set<std::string> operators;
  double duration = 0;
  for (const auto& [path, report] : reports) {
    if (metadata.is_null()) metadata = report.at("run");
    shards.push_back({{"report", path}, {"shard", report.at("run").value("shard", "1/1")}});
    duration += report.at("run").value("duration_seconds", 0.0);
    for (const json& point : report.at("test_points")) {
      const std::string id = point.at("id").get<std::string>();
      operators.insert(point.at("op").get<std::string>());
      auto it = points.find(id);
      if (it == points.end()) {
        points.emplace(id, point);
        order.push_back(id);
      } else if (it->second.at("verdict") != point.at("verdict")) {
        throw InputError(path, "/test_points", "test point " + id + " is in two reports with different verdicts");
      }
    }
  }
  metadata["shards"] = shards;
  metadata["shard"] = "merged";
  metadata["duration_seconds"] = duration;
  json merged = json::array();
  for (const std::string& id : order) merged.push_back(points.at(id));
  return BuildReport(metadata, merged, std::vector<std::string>(operators.begin(), operators.end()));
}

}  // namespace aclnn_check
