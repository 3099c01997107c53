#include "report/report_json.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/build_info.h"
#include "results/cann_verdict_json.h"
#include "results/test_point_json.h"
#include "json_input/json_schema.h"
#include "catalogue/operator.h"
#include "report/pattern_summary.h"

namespace aclnn_check {

extern const char kReportSchema[];  // src/report/report.schema.json, embedded at build time

using nlohmann::json;

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
  json report = {{"schema_version", kReportSchemaVersion},
                 {"tool", {{"name", "aclnn-check"}, {"version", HarnessVersion()}}},
                 {"run", std::move(metadata)},
                 {"totals", totals},
                 {"case_files", files},
                 {"rule_coverage", table}};
  if (json patterns = CallingPatternSummary(test_points); !patterns.is_null())
    report["calling_patterns"] = std::move(patterns);
  report["test_points"] = std::move(test_points);
  return report;
}

json ParseReport(const std::string& text, const std::string& path) {
  static const JsonSchema schema(json::parse(kReportSchema), "src/report/report.schema.json");
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
