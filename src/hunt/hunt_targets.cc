// The test points a hunt searches: an operator's axes as the options give them, or the points of
// case files, each written as a one-point case document (shrink/point_variants.h).
#include <fnmatch.h>

#include "cases/test_point.h"
#include "hunt/hunt_search.h"
#include "json_input/json_schema.h"
#include "shrink/point_variants.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// The axis --shape sets: "shape" or the first axis named "<tensor>_shape".
std::string ShapeAxis(const Operator& op) {
  for (const AxisDef& axis : op.axes()) {
    if (axis.name == "shape" || axis.name.ends_with("_shape")) return axis.name;
  }
  throw HuntError(op.name() + " has no shape axis; set its axes with --axis NAME=JSON");
}

json ParseValue(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error&) {
    throw HuntError(what + ": '" + text + "' is not JSON");
  }
}

json OperatorDocument(const HuntOptions& options) {
  const Operator* op = FindOperator(options.op);
  if (!op) throw HuntError("unknown operator '" + options.op + "'");
  json axes = json::object();
  if (options.dtype) axes["dtype"] = json::array({*options.dtype});
  if (options.shape) axes[ShapeAxis(*op)] = json::array({ParseValue(*options.shape, "--shape")});
  for (const std::string& axis : options.axes) {
    const size_t equals = axis.find('=');
    if (equals == std::string::npos) throw HuntError("--axis '" + axis + "': expected NAME=JSON");
    axes[axis.substr(0, equals)] =
        json::array({ParseValue(axis.substr(equals + 1), "--axis " + axis)});
  }
  return {{"name", "hunt_" + op->folder()},
          {"op", op->name()},
          {"description", "aclnn-check hunt of " + op->name()},
          {"axes", axes},
          {"seed", options.seed}};
}

void AddPoints(const json& document, const std::string& path, const HuntOptions& options,
               std::vector<json>& targets) {
  const CaseFile case_file = ParseCaseFile(document.dump(), path);
  if (!case_file.expect.pass) return;  // negative cases have no outputs to search
  for (const TestPoint& point : ExpandCase(case_file, options.product)) {
    if (!point.expected.ok() || fnmatch(options.filter.c_str(), point.id.c_str(), 0) != 0) continue;
    targets.push_back(SinglePointDocument(document, point));
  }
}

}  // namespace

std::vector<json> HuntTargets(const HuntOptions& options) {
  if (options.op.empty() == options.cases.empty())
    throw HuntError("name an operator or case files (not both)");
  std::vector<json> targets;
  if (!options.op.empty()) {
    AddPoints(OperatorDocument(options), "<hunt>", options, targets);
  } else {
    for (const auto& path : FindCaseFiles(options.cases)) {
      AddPoints(ParseJsonText(ReadTextFile(path.string(), "case file"), path.string()),
                path.string(), options, targets);
    }
  }
  if (targets.empty())
    throw HuntError(
        "no test point to hunt: the selection has no point that must succeed on the product");
  return targets;
}

}  // namespace aclnn_check
