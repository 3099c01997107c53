#include "golden/golden_file.h"

#include <cmath>
#include <limits>

#include "results/json_number.h"
#include "json_input/json_integers.h"

namespace aclnn_check {
namespace {

nlohmann::json ParseJsonAttribute(const Hdf5Group& group, const char* name) {
  const std::string text = group.ReadStringAttribute(name);
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded()) {
    throw InputError(group.file(), group.path(), "attribute " + std::string(name) + " to hold JSON");
  }
  return parsed;
}

// tensors attribute -> one plan per tensor slot.
std::vector<std::optional<TensorPlan>> TensorPlans(const Operator& op, const nlohmann::json& tensors,
                                                   const Hdf5Group& group) {
  const auto fail = [&](const std::string& expected) {
    throw InputError(group.file(), group.path(), "attribute tensors: " + expected);
  };
  if (!tensors.is_object()) fail("a JSON object tensor -> {dtype, shape} or null");
  std::vector<std::optional<TensorPlan>> plans;
  for (const TensorSlot& slot : op.tensors()) {
    const std::string name(slot.name);
    if (!tensors.contains(name)) fail("an entry for tensor " + name + " of " + op.name());
    const nlohmann::json& entry = tensors.at(name);
    if (entry.is_null()) {
      plans.emplace_back(std::nullopt);
      continue;
    }
    if (!entry.is_object() || !entry.contains("dtype") || !entry.at("dtype").is_string() ||
        !entry.contains("shape") || !entry.at("shape").is_array()) {
      fail(name + " as {\"dtype\": string, \"shape\": [integers]}");
    }
    const std::optional<DType> dtype = ParseDType(entry.at("dtype").get<std::string>());
    if (!dtype) fail(name + ": a known dtype name");
    TensorPlan plan{*dtype, {}};
    uint64_t elements = 1;
    for (const nlohmann::json& dim : entry.at("shape")) {
      const std::optional<int64_t> size = ExactInt64(dim);
      if (!size || *size < 0 || *size > static_cast<int64_t>(kMaxDatasetElements)) {
        fail(name + ": dimensions between 0 and 2^28");
      }
      elements *= static_cast<uint64_t>(*size);
      if (elements > kMaxDatasetElements) fail(name + ": at most 2^28 elements");
      plan.shape.push_back(*size);
    }
    if (plan.shape.size() > static_cast<size_t>(kMaxShapeRank)) {
      fail(name + ": rank at most " + std::to_string(kMaxShapeRank));
    }
    plans.emplace_back(std::move(plan));
  }
  return plans;
}

// The datasets of one value group, each checked against its tensor's element count.
GoldenValues ReadValues(const Hdf5Group& point, const char* group_name, const Operator& op,
                        const std::vector<std::optional<TensorPlan>>& plans) {
  GoldenValues values;
  if (!point.HasChild(group_name)) return values;
  const Hdf5Group group = point.OpenGroup(group_name);
  for (const std::string& name : group.ChildDatasets()) {
    const std::optional<size_t> slot = op.TensorIndex(name);
    if (!slot || !plans[*slot]) {
      throw InputError(group.file(), group.path() + "/" + name,
                       "a dataset named after a non-null tensor of " + op.name());
    }
    Hdf5Array array = group.ReadDataset(name);
    const int64_t expected = NumElements(plans[*slot]->shape);
    if (static_cast<int64_t>(array.values.size()) != expected) {
      throw InputError(group.file(), group.path() + "/" + name,
                       std::to_string(expected) + " elements (shape " +
                           FormatDims(plans[*slot]->shape) + "), found " +
                           std::to_string(array.values.size()));
    }
    values[name] = std::move(array.values);
  }
  return values;
}

void ReadRuleIndices(const Hdf5Group& point, GoldenPoint& golden) {
  if (!point.HasChild("rule")) return;
  const Hdf5Group group = point.OpenGroup("rule");
  const nlohmann::json ids = ParseJsonAttribute(group, "rule_ids");
  if (!ids.is_array() || ids.size() > 255) {
    throw InputError(group.file(), group.path(), "attribute rule_ids: a JSON array of at most 255 rule ids");
  }
  for (const nlohmann::json& id : ids) {
    if (!id.is_string()) throw InputError(group.file(), group.path(), "attribute rule_ids: strings");
    golden.rule_ids.push_back(id.get<std::string>());
  }
  for (const std::string& name : group.ChildDatasets()) {
    const auto documented = golden.documented.find(name);
    const Hdf5Array array = group.ReadDataset(name);
    if (documented == golden.documented.end() || documented->second.size() != array.values.size()) {
      throw InputError(group.file(), group.path() + "/" + name,
                       "one rule index per element of documented/" + name);
    }
    std::vector<uint8_t>& indices = golden.rule[name];
    for (double index : array.values) {
      if (!(index >= 0 && index <= static_cast<double>(golden.rule_ids.size())) || index != std::floor(index)) {
        throw InputError(group.file(), group.path() + "/" + name,
                         "rule indices between 0 and the number of rule_ids");
      }
      indices.push_back(static_cast<uint8_t>(index));
    }
  }
}

GoldenPoint ReadPoint(const Hdf5Group& group) {
  GoldenPoint point;
  point.id = group.ReadStringAttribute("id");
  const std::string op_name = group.ReadStringAttribute("op");
  point.op = FindOperator(op_name);
  if (!point.op) throw InputError(group.file(), group.path(), "attribute op: an operator of the catalogue");
  point.case_path = group.HasAttribute("case") ? group.ReadStringAttribute("case") : "";
  const std::optional<DType> dtype = ParseDType(group.ReadStringAttribute("dtype"));
  if (!dtype) throw InputError(group.file(), group.path(), "attribute dtype: a known dtype name");
  point.dtype = *dtype;
  point.plan.tensors = TensorPlans(*point.op, ParseJsonAttribute(group, "tensors"), group);
  point.plan.params = ParamsFromJson(*point.op, ParseJsonAttribute(group, "params"), group.file(),
                                     group.path());
  point.inputs = ReadValues(group, "inputs", *point.op, point.plan.tensors);
  point.expected = ReadValues(group, "expected", *point.op, point.plan.tensors);
  point.documented = ReadValues(group, "documented", *point.op, point.plan.tensors);
  point.device = ReadValues(group, "device", *point.op, point.plan.tensors);
  ReadRuleIndices(group, point);
  if (group.HasAttribute("verdict")) point.verdict = group.ReadStringAttribute("verdict");
  return point;
}

GoldenFile ReadFrom(const Hdf5File& file) {
  GoldenFile golden;
  golden.path = file.name();
  const Hdf5Group root = file.Root();
  const std::string format = root.ReadStringAttribute("format");
  if (format != kGoldenFormat) {
    throw InputError(file.name(), "/", "attribute format \"" + std::string(kGoldenFormat) + "\", found \"" + format + "\"");
  }
  for (const char* name : {"kind", "created", "oracle", "oracle_version", "generator", "provider",
                           "soc", "harness_version", "git_revision"}) {
    if (root.HasAttribute(name)) golden.attributes[name] = root.ReadStringAttribute(name);
  }
  const Hdf5Group points = root.OpenGroup("points");
  for (const std::string& name : points.ChildGroups()) {
    golden.points.push_back(ReadPoint(points.OpenGroup(name)));
    if (GoldenGroupName(golden.points.back().id) != name) {
      throw InputError(file.name(), "/points/" + name, "a group named after its id attribute");
    }
  }
  return golden;
}

void WriteValues(const Hdf5Group& point, const char* group_name, const GoldenPoint& golden,
                 const GoldenValues& values) {
  if (values.empty()) return;
  const Hdf5Group group = point.CreateGroup(group_name);
  for (const auto& [name, data] : values) {
    const size_t slot = *golden.op->TensorIndex(name);
    group.WriteDataset(name, golden.plan.tensors[slot]->shape, data);
  }
}

}  // namespace

std::string GoldenPoint::RuleAt(const std::string& output, size_t index) const {
  const auto it = rule.find(output);
  if (it == rule.end() || index >= it->second.size() || it->second[index] == 0) return "";
  return rule_ids[it->second[index] - 1];
}

std::string GoldenGroupName(std::string_view id) {
  std::string name(id);
  for (char& c : name) {
    if (c == '/') c = '|';
  }
  return name == "." ? "_" : name;
}

nlohmann::json ParamsJson(const Operator& op, const std::vector<ParamValue>& params) {
  nlohmann::json json = nlohmann::json::object();
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string name(op.params()[i].name);
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::monostate>) {
            json[name] = nullptr;
          } else if constexpr (std::is_same_v<T, double>) {
            json[name] = JsonNumber(value);
          } else {
            json[name] = value;
          }
        },
        params[i]);
  }
  return json;
}

std::vector<ParamValue> ParamsFromJson(const Operator& op, const nlohmann::json& params,
                                       const std::string& file, const std::string& where) {
  std::vector<ParamValue> values;
  for (const ParamSlot& slot : op.params()) {
    const std::string name(slot.name);
    const auto fail = [&](const std::string& expected) {
      throw InputError(file, where, "attribute params: " + name + " " + expected);
    };
    if (!params.is_object() || !params.contains(name)) fail("present (every parameter of " + op.name() + ")");
    const nlohmann::json& value = params.at(name);
    if (value.is_null()) {
      if (slot.kind == ParamKind::kInt64 || slot.kind == ParamKind::kDouble) fail("a number, not null");
      values.emplace_back(std::monostate{});
      continue;
    }
    switch (slot.kind) {
      case ParamKind::kInt64: {
        const std::optional<int64_t> exact = ExactInt64(value);
        if (!exact) fail("an integer within int64's range");
        values.emplace_back(*exact);
        break;
      }
      case ParamKind::kDouble:
        if (value.is_number()) {
          values.emplace_back(value.get<double>());
        } else if (value == "nan" || value == "inf" || value == "-inf") {
          const double inf = std::numeric_limits<double>::infinity();
          values.emplace_back(value == "nan" ? std::nan("") : value == "inf" ? inf : -inf);
        } else {
          fail("a number or \"nan\", \"inf\", \"-inf\"");
        }
        break;
      case ParamKind::kString:
        if (!value.is_string()) fail("a string");
        values.emplace_back(value.get<std::string>());
        break;
      case ParamKind::kIntArray: {
        if (!value.is_array() || value.size() > 1024) fail("an array of at most 1024 integers");
        std::vector<int64_t> ints;
        for (const nlohmann::json& v : value) {
          const std::optional<int64_t> exact = ExactInt64(v);
          if (!exact) fail("an array of integers within int64's range");
          ints.push_back(*exact);
        }
        values.emplace_back(std::move(ints));
        break;
      }
      case ParamKind::kBoolArray: {
        if (!value.is_array() || value.size() > 1024) fail("an array of at most 1024 booleans");
        std::vector<bool> bools;
        for (const nlohmann::json& v : value) {
          if (!v.is_boolean()) fail("an array of booleans");
          bools.push_back(v.get<bool>());
        }
        values.emplace_back(std::move(bools));
        break;
      }
    }
  }
  return values;
}

GoldenFile ReadGoldenFile(const std::string& path) { return ReadFrom(Hdf5File::Open(path)); }

GoldenFile ReadGoldenImage(std::string_view bytes, const std::string& name) {
  return ReadFrom(Hdf5File::OpenImage(bytes, name));
}

GoldenWriter::GoldenWriter(const std::string& path, const std::map<std::string, std::string>& attributes)
    : file_(Hdf5File::Create(path)) {
  const Hdf5Group root = file_.Root();
  root.WriteStringAttribute("format", kGoldenFormat);
  for (const auto& [name, value] : attributes) root.WriteStringAttribute(name, value);
  root.CreateGroup("points");
}

void GoldenWriter::Add(const GoldenPoint& point) {
  if (++points_ > kMaxGroupMembers) {
    throw InputError(file_.name(), "/points", "at most " + std::to_string(kMaxGroupMembers) + " test points");
  }
  const Hdf5Group group = file_.Root().OpenGroup("points").CreateGroup(GoldenGroupName(point.id));
  group.WriteStringAttribute("id", point.id);
  group.WriteStringAttribute("op", point.op->name());
  group.WriteStringAttribute("case", point.case_path);
  group.WriteStringAttribute("dtype", DTypeName(point.dtype));
  group.WriteStringAttribute("params", ParamsJson(*point.op, point.plan.params).dump());
  nlohmann::json tensors = nlohmann::json::object();
  for (size_t slot = 0; slot < point.op->tensors().size(); ++slot) {
    const auto& plan = point.plan.tensors[slot];
    tensors[std::string(point.op->tensors()[slot].name)] =
        plan ? nlohmann::json{{"dtype", DTypeName(plan->dtype)}, {"shape", plan->shape}} : nlohmann::json();
  }
  group.WriteStringAttribute("tensors", tensors.dump());
  if (!point.verdict.empty()) group.WriteStringAttribute("verdict", point.verdict);
  WriteValues(group, "inputs", point, point.inputs);
  WriteValues(group, "expected", point, point.expected);
  WriteValues(group, "documented", point, point.documented);
  WriteValues(group, "device", point, point.device);
}

void WriteGoldenFile(const std::string& path, const GoldenFile& file) {
  GoldenWriter writer(path, file.attributes);
  for (const GoldenPoint& point : file.points) writer.Add(point);
}

}  // namespace aclnn_check
