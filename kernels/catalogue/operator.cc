#include "catalogue/operator.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "catalogue/registry.h"

namespace aclnn_check {
namespace {

[[noreturn]] void BadDescription(const std::string& folder, const std::string& what) {
  throw std::logic_error("kernels/" + folder + "/operator.json: " + what);
}

[[noreturn]] void BadDefinition(const std::string& folder, const std::string& what) {
  throw std::logic_error("kernels/" + folder + "/contract/operator.cc: kOperator_" + folder + " " + what);
}

// The fields of OperatorDef every folder must fill; a missing one would crash at its first use.
void RequireFields(const OperatorDef& def, const std::string& folder) {
  const std::pair<bool, const char*> required[] = {
      {!def.description_json.empty(), "description_json"},
      {!def.tensors.empty(), "tensors"},
      {def.validate != nullptr, "validate"},
      {def.reference != nullptr, "reference"},
      {def.call_rules != nullptr, "call_rules"},
      {def.invoke_get_workspace_size != nullptr, "invoke_get_workspace_size"},
      {def.plan != nullptr, "plan"},
  };
  for (const auto& [present, field] : required) {
    if (!present) BadDefinition(folder, std::string("has no .") + field + " (a required field)");
  }
}

// "LayerNormBackward" -> "layer_norm_backward", "HardswishBackwardV2" -> "hardswish_backward_v2".
std::string SnakeCase(std::string_view name) {
  std::string snake;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper = c >= 'A' && c <= 'Z';
    if (upper && i > 0 && !(name[i - 1] >= 'A' && name[i - 1] <= 'Z')) snake += '_';
    snake += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return snake;
}

}  // namespace

ReferenceResult Operator::Reference(const OpArgs& args) const {
  ReferenceResult result = def_->reference(*this, args);
  result.call_rules = CallRules(args);
  return result;
}

void ReferenceOutput::Resize(size_t n) {
  computed = true;
  value.assign(n, 0.0);
  mag.assign(n, 0.0);
  alt.Reset(n);
  rule.assign(n, kNoRule);
}

Operator::Operator(const OperatorDef& def, std::string folder)
    : def_(&def), folder_(std::move(folder)) {
  RequireFields(def, folder_);
  description_ = std::make_shared<nlohmann::json>();
  nlohmann::json& json = *description_;
  try {
    json = nlohmann::json::parse(def.description_json);
    name_ = json.at("name").get<std::string>();
    if (SnakeCase(name_) != folder_) {
      BadDescription(folder_, "name \"" + name_ + "\" belongs in a folder named " +
                                  SnakeCase(name_) + " (its header is aclnnop/aclnn_" +
                                  SnakeCase(name_) + ".h)");
    }
    id_ = json.at("id").get<std::string>();
    summary_ = json.value("summary", "");
    support_.resize(AllProducts().size());
    for (const auto& [product_name, dtypes] : json.at("support").items()) {
      const std::optional<Product> product = ParseProductName(product_name);
      if (!product) BadDescription(folder_, "support: unknown product '" + product_name + "'");
      for (const auto& dtype_name : dtypes) {
        const std::optional<DType> dtype = ParseDType(dtype_name.get<std::string>());
        if (!dtype) BadDescription(folder_, "support: unknown dtype " + dtype_name.dump());
        support_[static_cast<size_t>(*product)].push_back(*dtype);
      }
    }
    for (const auto& [output, entry] : json.at("tolerance").items()) {
      OutputTolerance tolerance;
      tolerance.output = output;
      tolerance.ulp = entry.value("ulp", 1.0);
      tolerance.c = entry.at("c").get<double>();
      tolerance.mag = entry.at("mag").get<std::string>();
      tolerance.why = entry.at("why").get<std::string>();
      if (!TensorIndex(output)) BadDescription(folder_, "tolerance: no output named " + output);
      tolerances_.push_back(std::move(tolerance));
    }
    for (const auto& entry : json.at("rules")) {
      RuleDef rule;
      rule.id = entry.at("id").get<std::string>();
      rule.kind = entry.at("kind").get<std::string>();
      rule.description = entry.at("description").get<std::string>();
      rule.condition = entry.value("condition", "");
      rule.expect = entry.value("expect", rule.kind == "element" ? "ref" : "");
      rule.alt = entry.value("alt", "");
      if (entry.contains("status")) rule.status = entry.at("status").get<aclnnStatus>();
      rule.source = entry.value("source", "");
      rule.accept_status = entry.value("accept_status", std::vector<aclnnStatus>{});
      if (rule.kind != "element" && rule.kind != "status" && rule.kind != "call") {
        BadDescription(folder_, "rule " + rule.id + ": kind must be element, status or call");
      }
      if (rule.kind == "status" && !rule.status) {
        BadDescription(folder_, "rule " + rule.id + ": a status rule needs \"status\"");
      }
      rules_.push_back(std::move(rule));
    }
    for (auto& [axis_name, entry] : json.at("axes").items()) {
      AxisDef axis;
      axis.name = axis_name;
      axis.description = entry.at("description").get<std::string>();
      axis.schema = &entry.at("schema");
      axis.default_values = &entry.at("default");
      if (!axis.default_values->is_array() || axis.default_values->empty()) {
        BadDescription(folder_, "axis " + axis_name + ": default must be a non-empty array");
      }
      axes_.push_back(std::move(axis));
    }
    default_inputs_ = &json.at("default_inputs");
    for (const auto& name : json.value("derived_inputs", nlohmann::json::array())) {
      derived_inputs_.push_back(name.get<std::string>());
      if (!TensorIndex(derived_inputs_.back())) {
        BadDescription(folder_, "derived_inputs: no tensor named " + derived_inputs_.back());
      }
    }
    if (derived_inputs_.empty() != (def.derive_inputs == nullptr)) {
      BadDefinition(folder_, derived_inputs_.empty()
                                 ? "sets .derive_inputs but operator.json lists no derived_inputs"
                                 : "has no .derive_inputs for operator.json's derived_inputs");
    }
    for (const auto& [tensor, spec] : default_inputs_->items()) {
      if (!TensorIndex(tensor)) BadDescription(folder_, "default_inputs: no tensor " + tensor);
    }
  } catch (const nlohmann::json::exception& error) {
    BadDescription(folder_, error.what());
  }
  // The product/dtype matrix as rules: one per floating dtype that some product lacks.
  for (DType dtype : ComputeDTypes()) {
    std::vector<std::string> lacking;
    for (Product product : AllProducts()) {
      if (!Supports(product, dtype)) lacking.emplace_back(ProductName(product));
    }
    if (lacking.empty()) continue;
    RuleDef rule;
    rule.id = MatrixRule(dtype);
    rule.kind = "status";
    rule.status = ACLNN_ERR_PARAM_INVALID;
    rule.description = name_ + " rejects " + std::string(DTypeName(dtype)) +
                       " on products that do not list it";
    for (size_t i = 0; i < lacking.size(); ++i) {
      rule.condition += (i ? ", " : "product is ") + lacking[i];
    }
    rule.source = "docs/contract/products.md support matrix";
    rules_.push_back(std::move(rule));
  }
  RuleDef other;
  other.id = "matrix." + id_ + ".other";
  other.kind = "status";
  other.status = ACLNN_ERR_PARAM_INVALID;
  other.description = name_ + " rejects the dtypes no product lists (float64, integers, bool)";
  other.condition = "a tensor's dtype is not float16, bfloat16 or float32";
  other.source = "docs/contract/products.md support matrix";
  rules_.push_back(std::move(other));
}

std::optional<size_t> Operator::TensorIndex(std::string_view name) const {
  for (size_t i = 0; i < def_->tensors.size(); ++i) {
    if (def_->tensors[i].name == name) return i;
  }
  return std::nullopt;
}

std::optional<size_t> Operator::ParamIndex(std::string_view name) const {
  for (size_t i = 0; i < def_->params.size(); ++i) {
    if (def_->params[i].name == name) return i;
  }
  return std::nullopt;
}

std::span<const DType> Operator::SupportedDTypes(Product product) const {
  return support_[static_cast<size_t>(product)];
}

bool Operator::Supports(Product product, DType dtype) const {
  const auto dtypes = SupportedDTypes(product);
  return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
}

std::string Operator::MatrixRule(DType dtype) const {
  const auto floating = ComputeDTypes();
  const bool listed = std::find(floating.begin(), floating.end(), dtype) != floating.end();
  return "matrix." + id_ + "." + (listed ? std::string(DTypeName(dtype)) : std::string("other"));
}

const RuleDef* Operator::FindRule(std::string_view rule_id) const {
  for (const RuleDef& rule : rules_) {
    if (rule.id == rule_id) return &rule;
  }
  return nullptr;
}

RuleTag Operator::Tag(std::string_view rule_id) const {
  for (size_t i = 0; i < rules_.size(); ++i) {
    if (rules_[i].id == rule_id && rules_[i].kind != "status") return static_cast<RuleTag>(i + 1);
  }
  throw std::logic_error("kernels/" + folder_ + "/operator.json has no element or call rule " +
                         std::string(rule_id));
}

const OutputTolerance& Operator::Tolerance(std::string_view output) const {
  for (const OutputTolerance& tolerance : tolerances_) {
    if (tolerance.output == output) return tolerance;
  }
  throw std::logic_error("kernels/" + folder_ + "/operator.json has no tolerance for " +
                         std::string(output));
}

CheckOutcome Operator::Validate(const OpArgs& args, Product product) const {
  CheckOutcome outcome = def_->validate(*this, args, product);
  if (outcome.ok() && !AvailableOn(product)) {
    // The operator's dtype checks reject every call here; this keeps "never success on a product
    // that does not list the operator" true for checks that skip a null optional tensor.
    DType dtype = DType::kFloat32;
    for (const auto& tensor : args.tensors) {
      if (tensor) {
        dtype = tensor->dtype;
        break;
      }
    }
    return {ACLNN_ERR_PARAM_INVALID, MatrixRule(dtype),
            name_ + " is not available on " + std::string(ProductName(product))};
  }
  return outcome;
}

std::optional<CheckOutcome> Operator::NullCheckFailure(const OpArgs& args) const {
  // Every operator's 161001 checks come before anything that depends on the product
  // (kernels/<op>/README.md), so any product's checks find the same null pointer.
  CheckOutcome outcome = def_->validate(*this, args, AllProducts().front());
  if (outcome.status != ACLNN_ERR_PARAM_NULLPTR) return std::nullopt;
  return outcome;
}

const std::vector<Operator>& Catalogue() {
  static const std::vector<Operator> catalogue = [] {
    std::vector<Operator> operators;
    for (const RegisteredOperator& entry : RegisteredOperators()) {
      operators.emplace_back(*entry.def, std::string(entry.folder));
    }
    return operators;
  }();
  return catalogue;
}

const Operator* FindOperator(std::string_view name) {
  for (const Operator& op : Catalogue()) {
    if (op.name() == name || op.id() == name || op.folder() == name ||
        op.aclnn_symbol() == name) {
      return &op;
    }
  }
  return nullptr;
}

}  // namespace aclnn_check
