#include "import/atk_json.h"

#include <filesystem>

#include "import/python_literal.h"
#include "json_input/input_error.h"
#include "json_input/json_integers.h"
#include "json_input/json_schema.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

const char* const kRangeExpected =
    "range_values as [low, high], [value] or an interval string such as \"(0, 1)\" or \"[0, 1)\"";

// A list [low, high] is the closed range, [value] the constant; strings are intervals.
std::optional<ValueRange> RangeOf(const json& values, const std::string& path, const std::string& pointer) {
  if (values.is_null()) return std::nullopt;
  if (values.is_string()) {
    const auto range = ParseInterval(values.get<std::string>());
    if (!range) throw InputError(path, pointer, kRangeExpected);
    return range;
  }
  if (values.is_number()) return ValueRange{values.get<double>(), values.get<double>()};
  if (!values.is_array() || values.empty() || values.size() > 2 || !values[0].is_number() ||
      !values.back().is_number()) {
    throw InputError(path, pointer, kRangeExpected);
  }
  const ValueRange range{values[0].get<double>(), values.back().get<double>()};
  if (!(range.low <= range.high)) throw InputError(path, pointer, "low <= high in range_values");
  return range;
}

const json& Member(const json& object, const char* key, const std::string& path, const std::string& pointer,
                   const std::string& expected) {
  if (!object.is_object() || !object.contains(key)) {
    throw InputError(path, pointer + "/" + key, "missing; expected " + expected);
  }
  return object.at(key);
}

// A one-value list is that value; a number, boolean or non-interval string is itself; [low, high]
// or an interval string is a range to draw from.
SourceAttribute ReadAttribute(const json& input, const std::string& name, const std::string& column,
                              const std::string& path, const std::string& at) {
  SourceAttribute attribute;
  attribute.name = name;
  attribute.column = column;
  const json values = input.value("range_values", json());
  if (values.is_array() && values.size() == 1) {
    attribute.value = values[0];
  } else if (values.is_number() || values.is_boolean() ||
             (values.is_string() && !ParseInterval(values.get<std::string>()))) {
    attribute.value = values;
  } else {
    attribute.range = RangeOf(values, path, at + "/range_values");
  }
  return attribute;
}

// ATK's accuracy standards (standard.acc). ATK's own sources are not public; what the ops-nn case
// lists use is "single_bm" or {"single_bm": {"type": ..., "<dtype>_error": T, "<dtype>_eb": ...}}
// (docs/decisions.md, "ATK accuracy standards"). Plain single_bm and type high_performance are the
// community Threshold standard; thresholds or types that change it are not expressible.
std::string AccuracyStandard(const json& acc, const std::string& path, const std::string& pointer) {
  if (acc == "single_bm") return "single_bm";
  if (!acc.is_string() && !(acc.is_object() && acc.size() == 1)) {
    throw InputError(path, pointer, "a string such as \"single_bm\" or {\"single_bm\": {...}}");
  }
  if (acc.is_string()) {
    throw NotExpressible("standard.acc", "accuracy standard " + acc.dump() +
                                             " is not one aclnn-check knows (single_bm, with type high_performance)");
  }
  // Named through the object's own iterator: a binding to *items().begin() would dangle.
  const std::string standard = acc.begin().key();
  const json& options = acc.begin().value();
  if (standard != "single_bm") {
    throw NotExpressible("standard.acc", "accuracy standard " + json(standard).dump() +
                                             " is not one aclnn-check knows (single_bm, with type high_performance)");
  }
  if (!options.is_object()) throw InputError(path, pointer + "/single_bm", "an object of options, e.g. {\"type\": \"high_performance\"}");
  for (const auto& [key, value] : options.items()) {
    if (key == "type" && value == "high_performance") continue;
    throw NotExpressible("standard.acc", "single_bm option " + json(key).dump() + ": " + value.dump() +
                                             " changes the threshold; aclnn-check judges single_bm with the "
                                             "community thresholds (type high_performance) only");
  }
  return "single_bm";
}

// One "tensor" entry of a case's inputs.
SourceTensor ReadTensor(const json& input, const std::string& name, const std::string& column,
                        const std::string& path, const std::string& at) {
  SourceTensor tensor;
  tensor.name = name;
  tensor.column = column;
  const json& dtype = Member(input, "dtype", path, at, "fp16, bf16 or fp32");
  if (!dtype.is_string()) throw InputError(path, at + "/dtype", "a string such as \"fp16\"");
  const auto canonical = CanonicalDType(dtype.get<std::string>());
  if (!canonical) throw NotExpressible(column + " dtype", "dtype " + dtype.dump() + " is not one aclnn-check knows");
  tensor.dtype = *canonical;
  const json& shape = Member(input, "shape", path, at, "a list of dims");
  if (!shape.is_array()) throw InputError(path, at + "/shape", "a list of non-negative dims");
  for (const json& dim : shape) {
    const std::optional<int64_t> size = ExactInt64(dim);
    if (!size || *size < 0) {
      throw InputError(path, at + "/shape", "a list of non-negative integer dims");
    }
    tensor.shape.push_back(*size);
  }
  tensor.range = RangeOf(input.value("range_values", json()), path, at + "/range_values");
  return tensor;
}

// The case's inputs, nested lists flattened: each entry with its JSON pointer and the index in
// `listed` it came from. Some lists group attributes in nested lists: [{"name": "eps", "type":
// "attrs", ...}] holds one attribute; a group of entries that share one name is a list attribute
// with one entry per element (aclnnLayerNormBackward's normalizedShape and outputMask).
struct ListedInputs {
  std::vector<std::pair<const json*, std::string>> inputs;
  std::vector<size_t> groups;
};
ListedInputs FlattenInputs(const json& listed, const std::string& pointer) {
  ListedInputs flat;
  for (size_t i = 0; i < listed.size(); ++i) {
    const std::string at = pointer + "/inputs/" + std::to_string(i);
    if (!listed[i].is_array()) {
      flat.inputs.emplace_back(&listed[i], at);
      flat.groups.push_back(i);
      continue;
    }
    for (size_t j = 0; j < listed[i].size(); ++j) {
      flat.inputs.emplace_back(&listed[i][j], at + "/" + std::to_string(j));
      flat.groups.push_back(i);
    }
  }
  return flat;
}

SourceCase ReadCase(const json& entry, size_t index, const std::string& path) {
  const std::string pointer = "/" + std::to_string(index);
  SourceCase c;
  c.file = path;
  c.format = "ATK JSON";
  const json& aclnn = Member(entry, "aclnn_name", path, pointer, "the aclnn operator, e.g. \"aclnnLogitGrad\"");
  if (!aclnn.is_string()) throw InputError(path, pointer + "/aclnn_name", "a string such as \"aclnnLogitGrad\"");
  c.op = aclnn.get<std::string>();
  const json id = entry.value("id", json(index));
  c.location = "case " + std::to_string(index) + " (id " + id.dump() + ")";
  c.name = std::filesystem::path(path).stem().string() + "_" + (id.is_string() ? id.get<std::string>() : id.dump());

  const json& standard = Member(entry, "standard", path, pointer, "{\"acc\": ..., \"perf\": ...}");
  const json& acc = Member(standard, "acc", path, pointer + "/standard", "the accuracy standard, e.g. \"single_bm\"");
  c.tolerance_column = "standard.acc";
  c.tolerance.standard = AccuracyStandard(acc, path, pointer + "/standard/acc");
  c.tolerance.source = std::filesystem::path(path).filename().string() + " " + c.location;

  const json& listed = Member(entry, "inputs", path, pointer, "a list of tensors and attributes");
  if (!listed.is_array()) throw InputError(path, pointer + "/inputs", "a list of tensors and attributes");
  const auto [inputs, groups] = FlattenInputs(listed, pointer);
  std::optional<size_t> list_attribute_group;  // the group c.attributes.back() came from
  for (size_t i = 0; i < inputs.size(); ++i) {
    const json& input = *inputs[i].first;
    const std::string& at = inputs[i].second;
    const json& name = Member(input, "name", path, at, "the parameter's name");
    const json& type = Member(input, "type", path, at, "\"tensor\" or \"attr\"");
    if (!name.is_string() || !type.is_string()) throw InputError(path, at, "name and type as strings");
    const std::string column = "inputs[" + std::to_string(i) + "] " + name.get<std::string>();
    if (!input.value("outlier_values", json()).is_null()) {
      throw NotExpressible(column + " outlier_values",
                           "outlier values " + input.at("outlier_values").dump() + ": their placement is ATK's own");
    }
    const json align = input.value("align_32B", json());
    if (!align.is_null() && align != false) {
      throw NotExpressible(column + " align_32B", "align_32B " + align.dump() + " is not expressible");
    }
    if (type == "tensor") {
      SourceTensor tensor = ReadTensor(input, name.get<std::string>(), column, path, at);
      c.inputs.push_back(std::move(tensor));
    } else if (type == "attr" || type == "attrs") {
      SourceAttribute attribute = ReadAttribute(input, name.get<std::string>(), column, path, at);
      const bool same_group = list_attribute_group == groups[i] && !c.attributes.empty() &&
                              c.attributes.back().name == attribute.name;
      if (!same_group) {
        c.attributes.push_back(std::move(attribute));
        list_attribute_group = groups[i];
        continue;
      }
      SourceAttribute& list = c.attributes.back();
      if (list.range || attribute.range) {
        throw NotExpressible(column, "a list attribute whose elements are ranges");
      }
      if (!list.list) {
        list.value = json::array({list.value});
        list.list = true;
      }
      list.value.push_back(attribute.value);
    } else {
      throw InputError(path, at + "/type", "\"tensor\", \"attr\" or \"attrs\", got " + type.dump());
    }
  }
  return c;
}

// ATK cases nest four deep; messages print parts of an entry (JSON's dump recurses), so hostile
// input must not choose the depth.
constexpr int kMaxJsonDepth = 64;

void CheckNesting(const std::string& text, const std::string& path) {
  int depth = 0, line = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throw InputError(path, "line " + std::to_string(line),
                         "lists and objects nested at most " + std::to_string(kMaxJsonDepth) + " deep");
      }
    }
    if (c == ']' || c == '}') --depth;
  }
}

}  // namespace

std::optional<ValueRange> ParseInterval(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  const size_t last = text.find_last_not_of(" \t");
  if (first == std::string::npos || last - first < 4) return std::nullopt;
  const char open = text[first], close = text[last];
  if ((open != '(' && open != '[') || (close != ')' && close != ']')) return std::nullopt;
  json bounds;
  try {
    bounds = ParsePythonLiteral("[" + text.substr(first + 1, last - first - 1) + "]");
  } catch (const LiteralSyntaxError&) {
    return std::nullopt;
  }
  if (bounds.size() != 2 || !bounds[0].is_number() || !bounds[1].is_number()) return std::nullopt;
  ValueRange range{bounds[0].get<double>(), bounds[1].get<double>(), open == '(', close == ')'};
  if (!(range.low <= range.high)) return std::nullopt;
  return range;
}

bool LooksLikeAtkJson(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '[') return false;
  const json document = json::parse(text, nullptr, false);
  return document.is_array() && !document.empty() && document[0].is_object() &&
         document[0].contains("aclnn_name");
}

std::vector<SourceCase> ReadAtkJson(const std::string& text, const std::string& path,
                                    std::vector<SkippedCase>* skipped) {
  CheckNesting(text, path);
  const json document = ParseJsonText(text, path);
  if (!document.is_array()) throw InputError(path, "/", "a list of ATK cases");
  std::vector<SourceCase> cases;
  for (size_t i = 0; i < document.size(); ++i) {
    try {
      cases.push_back(ReadCase(document[i], i, path));
    } catch (const NotExpressible& reason) {
      const json id = document[i].is_object() ? document[i].value("id", json(i)) : json(i);
      skipped->push_back({path, "case " + std::to_string(i) + " (id " + id.dump() + ")", reason.column(), reason.what()});
    }
  }
  return cases;
}

}  // namespace aclnn_check
