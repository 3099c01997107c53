#include "cases/case_file.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>


#include "cases/case_schema.h"
#include "cases/special_value.h"
#include "cases/standard_distributions.h"
#include "core/status.h"
#include "json_input/json_integers.h"
#include "json_input/json_schema.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

const JsonSchema& CaseSchema() {
  static const JsonSchema schema(CaseFileSchema(), "cases/schema.json");
  return schema;
}

// "mean" or "std" of a normal: a number, or a range [low, high] drawn from per test point.
void ParseNormalParameter(const json& entry, const char* key, double minimum, const std::string& path,
                          const std::string& pointer, double* value, std::optional<std::array<double, 2>>* range) {
  if (!entry.contains(key)) return;
  const json& given = entry.at(key);
  if (given.is_number()) {
    *value = given.get<double>();
    return;
  }
  const std::array<double, 2> bounds = {given.at(0).get<double>(), given.at(1).get<double>()};
  if (!(bounds[0] <= bounds[1])) {
    throw InputError(path, pointer + "/" + key, "a range [low, high] needs low <= high");
  }
  if (!(bounds[0] >= minimum)) {
    throw InputError(path, pointer + "/" + key + "/0", std::string(key) + " must be at least 0");
  }
  *range = bounds;
}

// uniform, normal, grid, exhaustive16, rsqrt_uniform with the case file's parameters.
void ParseOwnDistribution(const json& entry, const std::string& path, const std::string& pointer, InputSpec& spec) {
  auto need = [&](const char* key) {
    if (!entry.contains(key)) {
      throw InputError(path, pointer, "dist \"" + spec.dist + "\" needs \"" + key + "\"");
    }
    return entry.at(key).get<double>();
  };
  if (spec.dist == "uniform" || spec.dist == "grid" || spec.dist == "rsqrt_uniform") {
    spec.low = need("low");
    spec.high = need("high");
    if (!(spec.low <= spec.high)) {
      throw InputError(path, pointer + "/high", "high must not be below low");
    }
  }
  if (spec.dist == "rsqrt_uniform") {
    spec.offset = need("offset");
    if (!(spec.offset >= 0)) throw InputError(path, pointer + "/offset", "offset must be at least 0");
    if (!(spec.low >= 0)) throw InputError(path, pointer + "/low", "rsqrt_uniform needs low >= 0 (u is a variance)");
    if (!(spec.low + spec.offset > 0)) {
      throw InputError(path, pointer + "/offset", "rsqrt_uniform needs low + offset > 0 (1/sqrt(0) is no value)");
    }
  } else if (entry.contains("offset")) {
    throw InputError(path, pointer + "/offset", "offset applies to dist \"rsqrt_uniform\" only");
  }
  for (const auto& bound : entry.value("open", json::array())) {
    if (spec.dist != "uniform") throw InputError(path, pointer + "/open", "open bounds apply to dist \"uniform\" only");
    (bound == "low" ? spec.low_open : spec.high_open) = true;
  }
  if ((spec.low_open || spec.high_open) && !(spec.low < spec.high)) {
    throw InputError(path, pointer + "/open", "an open bound needs low < high");
  }
  if (spec.dist == "grid") spec.count = static_cast<int64_t>(need("count"));
  if (spec.dist == "normal") {
    ParseNormalParameter(entry, "mean", -std::numeric_limits<double>::infinity(), path, pointer, &spec.mean,
                         &spec.mean_range);
    ParseNormalParameter(entry, "std", 0, path, pointer, &spec.std, &spec.std_range);
  } else {
    for (const char* key : {"mean", "std"}) {
      if (entry.contains(key) && !entry.at(key).is_number()) {
        throw InputError(path, pointer + "/" + key, "a range applies to dist \"normal\" only");
      }
    }
  }
}

// A CANN distribution brings its own parameters: the keys that would set them are errors.
void RefuseParameters(const json& entry, const std::string& path, const std::string& pointer) {
  for (const char* key : {"low", "high", "mean", "std", "count", "open", "offset"}) {
    if (entry.contains(key)) {
      throw InputError(path, pointer + "/" + key,
                       "dist \"" + entry.at("dist").get<std::string>() +
                           "\" is CANN's rule with its own parameters; \"" + key + "\" does not apply");
    }
  }
}

InputSpec ParseInput(const json& entry, const std::string& path, const std::string& pointer) {
  InputSpec spec;
  spec.dist = entry.at("dist").get<std::string>();
  if (const std::optional<InputSpec> standard = StandardDistribution(spec.dist)) {
    RefuseParameters(entry, path, pointer);
    spec = *standard;
  } else {
    ParseOwnDistribution(entry, path, pointer, spec);
  }
  if (entry.value("outliers", false)) {
    if (spec.dist != "uniform" && spec.dist != "normal") {
      throw InputError(path, pointer + "/outliers",
                       "outliers apply to uniform and normal inputs (the standard's base distributions) only");
    }
    if (entry.contains("specials")) {
      throw InputError(path, pointer + "/outliers",
                       "outliers and specials do not combine (the standard tests special values in cases of their own)");
    }
    spec.outliers = true;
  }
  if (entry.contains("specials")) {
    const json& specials = entry.at("specials");
    for (size_t i = 0; i < specials.size(); ++i) {
      if (auto error = SpecialSyntaxError(specials[i])) {
        throw InputError(path, pointer + "/specials/" + std::to_string(i), *error);
      }
      spec.specials.push_back(specials[i]);
    }
  }
  return spec;
}

}  // namespace

bool CaseFile::RunsOn(Product product) const {
  return products.empty() || std::find(products.begin(), products.end(), product) != products.end();
}

namespace {

// The axes: dtype, the operator's own (its defaults where the file has none), then the override
// axes ("param.<name>", "<tensor>.<field>"), a parameter's values checked against its type.
void ParseAxes(const json& document, const std::string& path, CaseFile& c) {
  const json axes = document.value("axes", json::object());
  auto add_axis = [&](const std::string& name, const json& values) {
    c.axes.emplace_back(name, values);
  };
  json dtypes = json::array();
  for (DType dtype : ComputeDTypes()) dtypes.push_back(std::string(DTypeName(dtype)));
  add_axis("dtype", axes.value("dtype", dtypes));
  for (const AxisDef& axis : c.op->axes()) add_axis(axis.name, axes.value(axis.name, *axis.default_values));
  for (const auto& [name, values] : axes.items()) {
    if (name.find('.') == std::string::npos) continue;  // an override axis
    if (name.starts_with("param.")) {
      const std::string param = name.substr(6);
      const ParamKind kind = c.op->params()[*c.op->ParamIndex(param)].kind;
      for (size_t i = 0; i < values.size(); ++i) {
        const json& v = values[i];
        const bool ok = v.is_null() || (kind == ParamKind::kInt64 && ExactInt64(v)) ||
                        (kind == ParamKind::kDouble && (v.is_number() || v.is_string())) ||
                        (kind == ParamKind::kString && v.is_string()) ||
                        (kind == ParamKind::kIntArray && v.is_array()) ||
                        (kind == ParamKind::kBoolArray && v.is_array());
        if (!ok) {
          throw InputError(path, "/axes/" + name + "/" + std::to_string(i),
                           "value does not fit parameter " + param + "'s type");
        }
      }
    }
    add_axis(name, values);
  }

}

// Every input's distribution: the file's, else the operator's default, else the generator's.
void ParseInputs(const json& document, const std::string& path, CaseFile& c) {
  const json inputs = document.value("inputs", json::object());
  for (const TensorSlot& slot : c.op->tensors()) {
    if (slot.role != SlotRole::kInput) continue;
    const std::string name(slot.name);
    if (inputs.contains(name)) {
      c.inputs[name] = ParseInput(inputs.at(name), path, "/inputs/" + name);
      c.explicit_inputs.insert(name);
    } else if (c.op->default_inputs().contains(name)) {
      c.inputs[name] = ParseInput(c.op->default_inputs().at(name), c.op->folder() + "/operator.json",
                                  "/default_inputs/" + name);
    } else {
      c.inputs[name] = InputSpec{};
    }
  }

}

void ParseTolerance(const json& document, const std::string& path, CaseFile& c) {
  if (document.contains("tolerance")) {
    const json& tolerance = document.at("tolerance");
    if (tolerance.contains("ulp")) c.ulp = tolerance.at("ulp").get<double>();
    if (tolerance.contains("c")) {
      const json& cval = tolerance.at("c");
      if (cval.is_number()) {
        c.c = cval.get<double>();
      } else {
        for (const auto& [output, value] : cval.items()) {
          const auto index = c.op->TensorIndex(output);
          if (!index || c.op->tensors()[*index].role != SlotRole::kOutput) {
            throw InputError(path, "/tolerance/c/" + output, c.op->name() + " has no output " + output);
          }
          c.c_by_output[output] = value.get<double>();
        }
      }
    }
  }
}

void ParseCannTolerance(const json& document, const std::string& path, CaseFile& c) {
  if (document.contains("cann_tolerance")) {
    const json& entry = document.at("cann_tolerance");
    CannTolerance cann;
    cann.standard = entry.at("standard").get<std::string>();
    cann.source = entry.value("source", "");
    const json outputs = entry.value("outputs", json::object());
    for (const auto& [output, t] : outputs.items()) {
      const auto index = c.op->TensorIndex(output);
      if (!index || c.op->tensors()[*index].role != SlotRole::kOutput) {
        throw InputError(path, "/cann_tolerance/outputs/" + output, c.op->name() + " has no output " + output);
      }
      cann.close[output] = {t.at("rtol").get<double>(), t.at("atol").get<double>(), t.at("ptol").get<double>()};
    }
    if (cann.standard == "ttk_close" && cann.close.empty()) {
      throw InputError(path, "/cann_tolerance/outputs", "ttk_close needs rtol, atol and ptol for at least one output");
    }
    c.cann_tolerance = cann;
  }
}

// A negative case's expected status (a number or a name) and its null pointers.
void ParseExpect(const json& document, const std::string& path, CaseFile& c) {
  if (document.contains("expect") && document.at("expect").is_object()) {
    const json& expect = document.at("expect");
    c.expect.pass = false;
    const json& status = expect.at("status");
    if (status.is_string()) {
      const auto code = ParseStatusName(status.get<std::string>());
      if (!code) {
        throw InputError(path, "/expect/status",
                         "unknown status name " + status.dump() +
                             " (expected a number or a name such as ACLNN_ERR_PARAM_INVALID)");
      }
      c.expect.status = *code;
    } else {
      c.expect.status = status.get<aclnnStatus>();
    }
    for (size_t i = 0; i < expect.value("null", json::array()).size(); ++i) {
      const std::string tensor = expect.at("null")[i].get<std::string>();
      if (!c.op->TensorIndex(tensor) && tensor != "workspaceSize" && tensor != "executor") {
        throw InputError(path, "/expect/null/" + std::to_string(i),
                         c.op->name() + " has no tensor " + tensor +
                             " (expected a tensor name, workspaceSize or executor)");
      }
      c.expect.null_tensors.push_back(tensor);
    }
  }
}

// "contract" names single-device calling patterns; said before the schema's generic enum error.
void CheckContractKey(const json& document, const std::string& path) {
  const auto key = document.find("contract");
  if (key == document.end() || !key->is_array()) return;
  for (size_t i = 0; i < key->size(); ++i) {
    const json& name = (*key)[i];
    if (name == "reused_executor" || name == "cache_key" || name == "queued" || name == "concurrent")
      continue;
    throw InputError(path, "/contract/" + std::to_string(i),
                     "expected a calling pattern: reused_executor, cache_key, queued or concurrent, not " +
                         name.dump() +
                         " (devices_agree is the run's: --devices; docs/calling-patterns.md)");
  }
}

}  // namespace

CaseFile ParseCaseFile(const std::string& text, const std::string& path) {
  const json document = ParseJsonText(text, path);
  CheckContractKey(document, path);
  CaseSchema().Validate(document, path);
  CaseFile c;
  c.path = path;
  c.name = document.at("name").get<std::string>();
  c.description = document.value("description", "");
  c.op = FindOperator(document.at("op").get<std::string>());
  ParseAxes(document, path, c);
  ParseInputs(document, path, c);
  for (const auto& layout : document.value("layout", json::array({"contiguous"}))) {
    c.layouts.push_back(*Layout::Parse(layout.get<std::string>()));
  }
  ParseTolerance(document, path, c);
  ParseCannTolerance(document, path, c);
  ParseExpect(document, path, c);
  for (const auto& product : document.value("products", json::array())) {
    c.products.push_back(*ParseProductName(product.get<std::string>()));
  }
  if (document.contains("verdict")) {
    try {
      c.verdict = ParseVerdicts(document.at("verdict").get<std::vector<std::string>>());
    } catch (const std::invalid_argument& error) {
      throw InputError(path, "/verdict", error.what());
    }
  }
  if (document.contains("timeout")) c.timeout_seconds = document.at("timeout").get<double>();
  c.contracts = document.value("contract", std::vector<std::string>{});
  c.seed = document.value("seed", uint64_t{0});
  return c;
}

CaseFile LoadCaseFile(const std::filesystem::path& path) {
  return ParseCaseFile(ReadTextFile(path.string(), "case file"), path.string());
}

std::vector<std::filesystem::path> FindCaseFiles(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const std::string& path : paths) {
    const std::filesystem::path root(path);
    if (std::filesystem::is_regular_file(root)) {
      files.push_back(root);
      continue;
    }
    if (!std::filesystem::is_directory(root)) {
      throw InputError(path, "/", "no such case file or folder");
    }
    auto it = std::filesystem::recursive_directory_iterator(root);
    for (; it != std::filesystem::recursive_directory_iterator(); ++it) {
      if (it->is_directory() && it->path().filename() == "profiles") {
        it.disable_recursion_pending();
        continue;
      }
      const auto extension = it->path().extension();
      if (it->is_regular_file() && (extension == ".json" || extension == ".csv") &&
          it->path().filename() != "schema.json") {
        files.push_back(it->path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

}  // namespace aclnn_check
