#include "cases/case_schema.h"

#include <string>

#include "cases/standard_distributions.h"
#include "check/verdict_selection.h"
#include "catalogue/operator.h"
#include "core/tensor_view.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json NonEmptyArrayOf(const json& items) {
  return {{"type", "array"}, {"minItems", 1}, {"items", items}};
}

// [low, high], each bound a number with the given extra constraints.
json Range(json bound) {
  bound["type"] = "number";
  return {{"type", "array"}, {"minItems", 2}, {"maxItems", 2}, {"items", bound}};
}

std::string Alternation(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : "|") + name;
  return text;
}

// An input's distribution and specials (case-file "inputs" entries).
json InputDefinition() {
  json dists = {"uniform", "normal", "grid", "exhaustive16", "rsqrt_uniform"};
  for (std::string_view name : StandardDistributionNames()) dists.push_back(std::string(name));
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"dist"}},
      {"properties",
       {{"dist", {{"description", "cann_uniform, cann_small_uniform and cann_normal are CANN's generation rules (docs/contract/numerics.md)"},
                  {"enum", dists}}},
        {"low", {{"type", "number"}}},
        {"high", {{"type", "number"}}},
        {"offset",
         {{"description", "rsqrt_uniform: values are 1/sqrt(u + offset), u uniform in [low, high); low + offset > 0"},
          {"type", "number"},
          {"minimum", 0}}},
        {"mean",
         {{"description", "normal: a number, or a range [low, high] drawn from per test point and tensor"},
          {"oneOf", {{{"type", "number"}}, Range(json::object())}}}},
        {"std",
         {{"description", "normal: a number, or a range [low, high] drawn from per test point and tensor"},
          {"oneOf", {{{"type", "number"}, {"minimum", 0}}, Range({{"minimum", 0}})}}}},
        {"outliers",
         {{"description",
           "uniform or normal: max(1, n/1000) distinct positions multiplied by 1000 (CANN's noisy distribution)"},
          {"type", "boolean"}}},
        {"count", {{"type", "integer"}, {"minimum", 1}}},
        {"open",
         {{"description", "uniform: bounds excluded from the drawn values (after rounding to the dtype)"},
          {"type", "array"},
          {"uniqueItems", true},
          {"items", {{"enum", {"low", "high"}}}}}},
        {"specials", {{"type", "array"}, {"items", {{"$ref", "#/definitions/special"}}}}}}}};
}

json Definitions() {
  json dtypes = json::array();
  for (DType dtype : AllDTypes()) dtypes.push_back(std::string(DTypeName(dtype)));
  json definitions;
  definitions["shape"] = {{"type", "array"},
                          {"maxItems", kMaxShapeRank},
                          {"items", {{"type", "integer"}, {"minimum", 0}}}};
  definitions["dtype"] = {{"enum", dtypes}};
  definitions["layout"] = {
      {"type", "string"},
      {"pattern", "^(contiguous|transposed|offset:[1-9][0-9]*|strided:[1-9][0-9]*)$"}};
  definitions["special"] = {{"type", {"string", "number"}}};
  definitions["input"] = InputDefinition();
  json status = {{"type", {"integer", "string"}}};
  definitions["expect"] = {
      {"if", {{"type", "string"}}},
      {"then", {{"const", "pass"}}},
      {"else",
       {{"type", "object"},
        {"additionalProperties", false},
        {"required", {"status"}},
        {"properties",
         {{"status", status},
          {"null", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}}}};
  definitions["tolerance"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"properties",
       {{"ulp", {{"type", "number"}, {"minimum", 0}}},
        {"c",
         {{"type", {"number", "object"}},
          {"minimum", 0},
          {"additionalProperties", {{"type", "number"}, {"minimum", 0}}}}}}}};
  json close = {{"type", "number"}, {"minimum", 0}};
  definitions["cann_tolerance"] = {
      {"description",
       "the tolerance of an imported CANN case, judged beside aclnn-check's own bound "
       "(docs/decisions.md): ttk_close per output, or single_bm by the output dtype"},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"standard"}},
      {"properties",
       {{"standard", {{"enum", {"ttk_close", "single_bm"}}}},
        {"source", {{"type", "string"}}},
        {"outputs",
         {{"type", "object"},
          {"additionalProperties",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", {"rtol", "atol", "ptol"}},
            {"properties",
             {{"rtol", close}, {"atol", close}, {"ptol", {{"type", "number"}, {"minimum", 0}, {"maximum", 1}}}}}}}}}}}};
  return definitions;
}

// The axes and input names one operator accepts.
json OperatorClause(const Operator& op) {
  json axes_properties;
  axes_properties["dtype"] = NonEmptyArrayOf({{"$ref", "#/definitions/dtype"}});
  for (const AxisDef& axis : op.axes()) {
    json items = *axis.schema;
    items["description"] = axis.description;
    axes_properties[axis.name] = NonEmptyArrayOf(items);
  }
  std::vector<std::string> tensors, inputs, params;
  for (const TensorSlot& slot : op.tensors()) {
    tensors.emplace_back(slot.name);
    if (slot.role == SlotRole::kInput) inputs.emplace_back(slot.name);
  }
  for (const ParamSlot& slot : op.params()) params.emplace_back(slot.name);
  json patterns;
  patterns["^shape\\.(" + Alternation(tensors) + ")$"] =
      NonEmptyArrayOf({{"$ref", "#/definitions/shape"}});
  patterns["^dtype\\.(" + Alternation(tensors) + ")$"] =
      NonEmptyArrayOf({{"$ref", "#/definitions/dtype"}});
  if (!params.empty()) patterns["^param\\.(" + Alternation(params) + ")$"] = NonEmptyArrayOf(json::object());
  json input_properties = json::object();
  for (const std::string& name : inputs) input_properties[name] = json::object();
  return {{"if", {{"properties", {{"op", {{"const", op.name()}}}}}, {"required", {"op"}}}},
          {"then",
           {{"properties",
             {{"axes",
               {{"type", "object"},
                {"additionalProperties", false},
                {"properties", axes_properties},
                {"patternProperties", patterns}}},
              {"inputs",
               {{"additionalProperties", false}, {"properties", input_properties}}}}}}}};
}

}  // namespace

json CaseFileSchema() {
  json op_names = json::array();
  json clauses = json::array();
  for (const Operator& op : Catalogue()) {
    op_names.push_back(op.name());
    clauses.push_back(OperatorClause(op));
  }
  return {
      {"$schema", "http://json-schema.org/draft-07/schema#"},
      {"title", "aclnn-check case file (docs/contract/case-files.md)"},
      {"description", "Generated by `aclnn-check schema` from kernels/*/operator.json; do not edit."},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"name", "op"}},
      {"properties",
       {{"name", {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]+$"}}},
        {"op", {{"enum", op_names}}},
        {"description", {{"type", "string"}}},
        {"axes", {{"type", "object"}}},
        {"inputs",
         {{"type", "object"}, {"additionalProperties", {{"$ref", "#/definitions/input"}}}}},
        {"layout", NonEmptyArrayOf({{"$ref", "#/definitions/layout"}})},
        {"tolerance", {{"$ref", "#/definitions/tolerance"}}},
        {"cann_tolerance", {{"$ref", "#/definitions/cann_tolerance"}}},
        {"expect", {{"$ref", "#/definitions/expect"}}},
        {"verdict", NonEmptyArrayOf({{"type", "string"}, {"pattern", kVerdictPattern}})},
        {"products", NonEmptyArrayOf({{"enum", {"A2", "A3", "INF", "TRAIN", "200I", "A5"}}})},
        {"timeout", {{"type", "number"}, {"exclusiveMinimum", 0}}},
        // The single-device patterns: a case file cannot name the machine's devices.
        {"contract",
         NonEmptyArrayOf({{"enum", {"reused_executor", "cache_key", "queued", "concurrent"}}})},
        {"seed", {{"type", "integer"}, {"minimum", 0}}}}},
      {"allOf", clauses},
      {"definitions", Definitions()},
  };
}

}  // namespace aclnn_check
