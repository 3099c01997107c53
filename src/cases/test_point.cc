#include "cases/test_point.h"

#include <cmath>
#include <limits>

#include "core/status.h"
#include "json_input/json_integers.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

bool IsShapeAxis(const std::string& axis) {
  return axis.ends_with("shape") || axis.starts_with("shape.");
}

// A label for an axis value in a test point id: no spaces, no glob characters.
std::string ValueLabel(const std::string& axis, const json& value) {
  std::string label;
  if (value.is_string()) {
    label = value.get<std::string>();
  } else if (value.is_array()) {
    const bool shape = IsShapeAxis(axis) && std::all_of(value.begin(), value.end(),
                                                        [](const json& v) { return v.is_number_integer(); });
    if (shape && value.empty()) return "scalar";
    for (const json& item : value) {
      label += (label.empty() ? "" : (shape ? "x" : ",")) + ValueLabel(axis, item);
    }
    if (value.empty()) label = "empty";
  } else {
    label = value.dump();
  }
  for (char& c : label) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == ' ' || c == '/' || c == '\'') c = '_';
  }
  return label;
}

double JsonToDouble(const json& value) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    return std::stod(text);
  }
  return value.get<double>();
}

std::vector<int64_t> RequireInt64s(const json& value) {
  if (!value.is_array()) throw std::invalid_argument("an array of integers, found " + value.dump());
  std::vector<int64_t> ints;
  for (const json& item : value) ints.push_back(RequireInt64(item));
  return ints;
}

ParamValue ToParam(ParamKind kind, const json& value) {
  if (value.is_null()) return std::monostate{};
  switch (kind) {
    case ParamKind::kInt64:
      return RequireInt64(value);
    case ParamKind::kDouble:
      return JsonToDouble(value);
    case ParamKind::kString:
      return value.get<std::string>();
    case ParamKind::kIntArray:
      return RequireInt64s(value);
    case ParamKind::kBoolArray:
      return value.get<std::vector<bool>>();
  }
  return std::monostate{};
}

// An override axis (param.<name>, shape.<tensor>, dtype.<tensor>) applied to a planned point.
void ApplyOverride(const Operator& op, const std::string& kind, const std::string& target,
                   const json& value, TestPoint& point) {
  if (kind == "param") {
    const size_t index = *op.ParamIndex(target);
    point.plan.params[index] = ToParam(op.params()[index].kind, value);
    return;
  }
  const size_t index = *op.TensorIndex(target);
  auto& tensor = point.plan.tensors[index];
  if (!tensor) tensor = TensorPlan{point.dtype, {}};
  if (kind == "shape") tensor->shape = RequireInt64s(value);
  if (kind == "dtype") tensor->dtype = *ParseDType(value.get<std::string>());
}

}  // namespace

OpArgs DescriptorArgs(const TestPoint& point) {
  OpArgs args;
  for (const auto& tensor : point.plan.tensors) {
    if (!tensor) {
      args.tensors.push_back(std::nullopt);
      continue;
    }
    args.tensors.push_back(LayoutView(tensor->dtype, tensor->shape, point.layout));
  }
  args.params = point.plan.params;
  args.workspace_size_null = point.null_workspace_size;
  args.executor_null = point.null_executor;
  return args;
}

std::optional<double> EpsParameter(const TestPoint& point) {
  const auto index = point.op().ParamIndex("eps");
  if (!index) return std::nullopt;
  if (const double* eps = std::get_if<double>(&point.plan.params[*index])) return *eps;
  return std::nullopt;
}

namespace {

[[noreturn]] void FailPoint(const CaseFile& c, const std::string& id, const std::string& message) {
  throw InputError(c.path, "/axes", "test point " + id + ": " + message);
}

// The override axes ("param.<name>", "<tensor>.<field>") and the null pointers of a negative case.
void ApplyAxisOverrides(const CaseFile& c, const std::vector<size_t>& counter, TestPoint& point) {
  const Operator& op = *c.op;
  for (size_t a = 0; a < c.axes.size(); ++a) {
    const auto& [name, values] = c.axes[a];
    const size_t dot = name.find('.');
    if (dot == std::string::npos) continue;
    // The schema checks an override's shape loosely (a parameter may be null, a number or
    // an array); a value of the wrong kind for this operator ends here as bad input.
    try {
      ApplyOverride(op, name.substr(0, dot), name.substr(dot + 1), values[counter[a]], point);
    } catch (const std::exception& error) {
      throw InputError(c.path, "/axes/" + name + "/" + std::to_string(counter[a]),
                       "test point " + point.id + ": not a valid value for " + name + " (" +
                           error.what() + ")");
    }
  }
  for (const std::string& name : c.expect.null_tensors) {
    if (name == "workspaceSize") {
      point.null_workspace_size = true;
    } else if (name == "executor") {
      point.null_executor = true;
    } else {
      point.plan.tensors[*op.TensorIndex(name)].reset();
    }
  }
}

// The documented checks' verdict on the point, which must be what the case expects (a point the
// product's matrix rejects is left to the matrix rule).
void CheckExpectation(const CaseFile& c, Product product, TestPoint& point) {
  const Operator& op = *c.op;
  point.expected = op.Validate(DescriptorArgs(point), product);
  const bool matrix = point.expected.rule.starts_with("matrix.");
  if (!matrix) {
    if (c.expect.pass && !point.expected.ok()) {
      FailPoint(c, point.id, "the case expects success, but the documented checks reject it: " +
                         point.expected.rule + " (" + point.expected.message + ")");
    }
    if (!c.expect.pass && point.expected.status != c.expect.status) {
      FailPoint(c, point.id, "the case expects status " + DescribeStatus(c.expect.status) +
                         ", but the documented checks give " +
                         DescribeStatus(point.expected.status) +
                         (point.expected.ok() ? "" : " (" + point.expected.rule + ")"));
    }
  }
}

// The point of the axes' values at `counter` in `layout`.
TestPoint BuildPoint(const CaseFile& c, Product product, const Layout& layout,
                     const std::vector<size_t>& counter) {
  const Operator& op = *c.op;
  TestPoint point;
  point.case_file = &c;
  point.layout = layout;
  point.id = c.name;
  json op_axes = json::object();
  for (size_t a = 0; a < c.axes.size(); ++a) {
    const auto& [name, values] = c.axes[a];
    const json& value = values[counter[a]];
    point.axis_values[name] = value;
    point.id += "/" + name + "=" + ValueLabel(name, value);
    if (name != "dtype" && name.find('.') == std::string::npos) op_axes[name] = value;
  }
  point.id += "/layout=" + layout.ToString();
  point.dtype = *ParseDType(point.axis_values.at("dtype").get<std::string>());
  std::string error;
  std::optional<CallPlan> plan = op.def().plan(op_axes, point.dtype, &error);
  if (!plan) FailPoint(c, point.id, "cannot be planned: " + error);
  point.plan = std::move(*plan);
  ApplyAxisOverrides(c, counter, point);
  for (size_t t = 0; t < point.plan.tensors.size(); ++t) {
    const std::optional<TensorPlan>& tensor = point.plan.tensors[t];
    if (tensor && !StorageBytesBound(tensor->dtype, tensor->shape, layout)) {
      FailPoint(c, point.id, "tensor " + std::string(op.tensors()[t].name) + " of shape " +
                         FormatDims(tensor->shape) + " in layout " + layout.ToString() +
                         " spans more bytes than a 64-bit size can count");
    }
  }
  CheckExpectation(c, product, point);
  return point;
}

}  // namespace

std::vector<TestPoint> ExpandCase(const CaseFile& c, Product product) {
  std::vector<TestPoint> points;
  if (!c.RunsOn(product)) return points;
  // Refuse a product of axes that could never run, before building any of it.
  double count = static_cast<double>(c.layouts.size());
  for (const auto& [name, values] : c.axes) count *= static_cast<double>(values.size());
  if (count > kMaxTestPointsPerCase) {
    throw InputError(c.path, "/axes",
                     "the axes expand to " + std::to_string(static_cast<uint64_t>(count)) +
                         " test points; a case may have at most " +
                         std::to_string(kMaxTestPointsPerCase) + " (split it)");
  }
  std::vector<size_t> counter(c.axes.size(), 0);
  while (true) {
    for (const Layout& layout : c.layouts) {
      points.push_back(BuildPoint(c, product, layout, counter));
    }
    size_t a = c.axes.size();
    while (a > 0) {
      --a;
      if (++counter[a] < c.axes[a].second.size()) break;
      counter[a] = 0;
      if (a == 0) return points;
    }
    if (c.axes.empty()) return points;
  }
}

}  // namespace aclnn_check
