#include "results/cann_verdict_json.h"

#include <cmath>

#include "results/json_number.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

}  // namespace

std::optional<json> CannVerdictJson(const TestPointResult& result) {
  if (result.cann_standard.empty()) return std::nullopt;
  json outputs = json::array();
  bool passed = true;
  for (const OutputResult& output : result.outputs) {
    if (!output.cann) continue;
    const CannOutputVerdict& v = *output.cann;
    json entry = {{"name", v.output}, {"passed", v.passed}, {"elements", v.elements}, {"mismatches", v.mismatches}};
    if (result.cann_standard == "ttk_close") {
      entry["rtol"] = JsonNumber(v.close.rtol);
      entry["atol"] = JsonNumber(v.close.atol);
      entry["ptol"] = JsonNumber(v.close.ptol);
      entry["mismatch_share"] = JsonNumber(v.mismatch_share);
    } else {
      entry["mere"] = JsonNumber(v.mere);
      entry["mare"] = JsonNumber(v.mare);
      entry["threshold"] = JsonNumber(v.threshold);
    }
    passed = passed && v.passed;
    outputs.push_back(entry);
  }
  if (outputs.empty()) return std::nullopt;
  return json{{"standard", result.cann_standard}, {"source", result.cann_source}, {"passed", passed}, {"outputs", outputs}};
}

std::string CannVerdictLine(const json& point) {
  if (!point.contains("cann_tolerance")) return "";
  const json& cann = point.at("cann_tolerance");
  std::string line = "CANN tolerance (" + cann.at("standard").get<std::string>() + ", " +
                     cann.at("source").get<std::string>() + "): " +
                     (cann.at("passed").get<bool>() ? "passed" : "failed");
  for (const json& o : cann.at("outputs")) {
    line += "; " + o.at("name").get<std::string>() + ": ";
    if (o.contains("mismatch_share")) {
      line += o.at("mismatches").dump() + " of " + o.at("elements").dump() + " not close (rtol " +
              o.at("rtol").dump() + ", atol " + o.at("atol").dump() + ", ptol " + o.at("ptol").dump() + ")";
    } else {
      line += "MERE " + o.at("mere").dump() + ", MARE " + o.at("mare").dump() + " (threshold " +
              o.at("threshold").dump() + ", MARE limit 10x)";
      if (o.at("mismatches").get<int64_t>() > 0) line += ", " + o.at("mismatches").dump() + " special values differ";
    }
  }
  return line;
}

void AddCannTotals(const json& test_points, json* totals) {
  int64_t passed = 0, failed = 0;
  for (const json& point : test_points) {
    if (!point.contains("cann_tolerance")) continue;
    (point.at("cann_tolerance").at("passed").get<bool>() ? passed : failed) += 1;
  }
  if (passed + failed == 0) return;
  (*totals)["cann_tolerance_passed"] = passed;
  (*totals)["cann_tolerance_failed"] = failed;
}

}  // namespace aclnn_check
