// The operator catalogue: what every operator folder under kernels/ provides, and the parsed
// description (operator.json) that goes with it. The harness, the bundled providers, the case
// expander and the reports all read operators through this one interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "catalogue/sparse_values.h"
#include "core/dtype.h"
#include "core/product.h"
#include "core/tensor_view.h"

namespace aclnn_check {

enum class SlotRole : uint8_t { kInput, kOutput };

struct TensorSlot {
  std::string_view name;  // the parameter name of the aclnn prototype
  SlotRole role;
};

enum class ParamKind : uint8_t { kInt64, kDouble, kString, kIntArray, kBoolArray };

struct ParamSlot {
  std::string_view name;
  ParamKind kind;
};

// A host parameter. monostate stands for a null pointer (strings and arrays only).
using ParamValue = std::variant<std::monostate, int64_t, double, std::string, std::vector<int64_t>,
                                std::vector<bool>>;

// One call of an operator with its arguments decoded: the common currency of validation, the
// reference and the kernels. Tensors are indexed like the operator's TensorSlots.
struct OpArgs {
  std::vector<std::optional<TensorView>> tensors;  // nullopt: a null aclTensor*
  std::vector<ParamValue> params;
  bool workspace_size_null = false;  // the caller passed workspaceSize == nullptr
  bool executor_null = false;        // the caller passed executor == nullptr

  const TensorView* tensor(size_t slot) const {
    return tensors[slot] ? &*tensors[slot] : nullptr;
  }
  template <typename T>
  const T* param(size_t slot) const {
    return std::get_if<T>(&params[slot]);
  }
};

// What validation decided: success, or the status code with the rule id of the check that
// rejected the call and a sentence saying why.
struct CheckOutcome {
  aclnnStatus status = ACLNN_SUCCESS;
  std::string rule;
  std::string message;

  bool ok() const { return status == ACLNN_SUCCESS; }
};

// Index of an element rule in the operator's rule list plus one; 0 means "no rule: the plain
// formula applies".
using RuleTag = uint16_t;
constexpr RuleTag kNoRule = 0;

// The float64 reference's result for one output, every vector in logical (row-major) order.
struct ReferenceOutput {
  bool computed = false;      // false: the output must be left exactly as it was
  std::vector<double> value;  // the documented result in double
  std::vector<double> mag;    // scale of the rounding error a correct float32 kernel may make
  SparseValues alt;           // a second accepted value, where the element's rule allows one
  std::vector<RuleTag> rule;  // the element rule that decided the element, or kNoRule

  void Resize(size_t n);
};

struct ReferenceResult {
  std::vector<ReferenceOutput> outputs;  // indexed like the TensorSlots; inputs stay empty
  std::vector<RuleTag> call_rules;       // "call" rules that this call exercises
};

// A test point's call before any data exists: each tensor's dtype and shape (nullopt: a null
// pointer) and the host parameters. The runner lays the tensors out and fills them.
struct TensorPlan {
  DType dtype;
  Dims shape;
};

struct CallPlan {
  std::vector<std::optional<TensorPlan>> tensors;  // per TensorSlot
  std::vector<ParamValue> params;                  // per ParamSlot
};

struct AbiCall;  // harness side, see catalogue/abi_call.h
class Operator;

// What an operator folder defines (kernels/<folder>/contract/operator.cc) as kOperator_<folder>, with
// designated initializers. Every field is required but derive_inputs (and params, for an operator
// without host parameters); Catalogue() checks this at start-up. The kernels are not here: the
// cpu provider's are in cpu_kernel.h, the cuda provider's in cuda_kernel.h.
struct OperatorDef {
  std::string_view description_json;  // kernels/<folder>/operator.json, embedded at build time
  std::span<const TensorSlot> tensors;
  // Optional fields have defaults; every other one left out of an initializer is a compile error
  // (-Wmissing-field-initializers with -Werror), and Catalogue() checks them at start-up.
  std::span<const ParamSlot> params = {};
  // Every check of kernels/<op>/README.md in its documented order. The product enters only through
  // the dtype checks (RequireSupportedDType: an empty list rejects every dtype), so the null checks
  // that come before them give 161001 on every product, listed or not (docs/contract/products.md).
  CheckOutcome (*validate)(const Operator& op, const OpArgs& args, Product product);
  // The float64 reference; reads the inputs through their views. Operator::Reference adds the
  // call rules.
  ReferenceResult (*reference)(const Operator& op, const OpArgs& args);
  // The "call" rules a valid call exercises, from its shapes and host parameters alone: known
  // before the call (the statuses they accept), so the runner computes the reference after it,
  // once the device buffers are freed.
  std::vector<RuleTag> (*call_rules)(const Operator& op, const OpArgs& args);
  // Calls the provider's GetWorkspaceSize symbol with the operator's own prototype.
  aclnnStatus (*invoke_get_workspace_size)(void* symbol, const AbiCall& call);
  // Case files (docs/contract/case-files.md): the call of one test point from its axis values (an
  // object holding every axis of operator.json "axes", defaults filled in) and its dtype. On an
  // impossible combination returns nullopt with the reason in *error.
  std::optional<CallPlan> (*plan)(const nlohmann::json& axes, DType dtype, std::string* error);
  // Recomputes the inputs listed in operator.json "derived_inputs" from the others (as the
  // forward pass would have produced them), or nullptr when there are none.
  void (*derive_inputs)(const OpArgs& args) = nullptr;
};

// One case-file axis of an operator (operator.json "axes").
struct AxisDef {
  std::string name;
  std::string description;
  nlohmann::json* schema = nullptr;  // JSON Schema of one value of the axis (owned by Operator)
  nlohmann::json* default_values = nullptr;  // the values used when a case omits the axis
};

struct RuleDef {
  std::string id;
  std::string kind;  // "element", "status" or "call"
  std::string description;
  std::string condition;
  std::string expect;  // element rules: "ref", "ref|alt", "nan", "0", ...
  std::string alt;     // element rules: what the alternative value is
  std::optional<aclnnStatus> status;  // status rules
  // Call rules: statuses accepted instead of success when the rule applies (e.g. a kernel that
  // does not support non-contiguous views may reject them with 161002 rather than miscompute).
  std::vector<aclnnStatus> accept_status;
  std::string source;
};

struct OutputTolerance {
  std::string output;  // tensor slot name
  double ulp = 1;
  double c = 1;
  std::string mag;  // how mag is formed, for the reports and `explain`
  std::string why;  // why c is what it is
};

class Operator {
 public:
  Operator(const OperatorDef& def, std::string folder);

  const OperatorDef& def() const { return *def_; }
  const std::string& name() const { return name_; }        // "HardswishBackward"
  const std::string& id() const { return id_; }            // "hardswish": the rule-id prefix
  const std::string& folder() const { return folder_; }    // "hardswish_backward"
  const std::string& summary() const { return summary_; }
  std::string aclnn_symbol() const { return "aclnn" + name_; }
  std::string workspace_symbol() const { return "aclnn" + name_ + "GetWorkspaceSize"; }

  std::span<const TensorSlot> tensors() const { return def_->tensors; }
  std::span<const ParamSlot> params() const { return def_->params; }
  std::optional<size_t> TensorIndex(std::string_view name) const;
  std::optional<size_t> ParamIndex(std::string_view name) const;

  // The dtypes the operator supports on a product (empty: not available there).
  std::span<const DType> SupportedDTypes(Product product) const;
  bool Supports(Product product, DType dtype) const;
  bool AvailableOn(Product product) const { return !SupportedDTypes(product).empty(); }
  // Rule id of a dtype outside a product's list: "matrix.<id>.<dtype>" for the floating dtypes,
  // "matrix.<id>.other" for the ones no product lists.
  std::string MatrixRule(DType dtype) const;

  const std::vector<RuleDef>& rules() const { return rules_; }
  const RuleDef* FindRule(std::string_view rule_id) const;
  // The tag of an element or call rule; throws std::logic_error if operator.json lacks it.
  RuleTag Tag(std::string_view rule_id) const;
  const RuleDef& RuleOfTag(RuleTag tag) const { return rules_[tag - 1]; }

  // Case-file axes, default input distributions and derived inputs (operator.json).
  const std::vector<AxisDef>& axes() const { return axes_; }
  const nlohmann::json& default_inputs() const { return *default_inputs_; }
  const std::vector<std::string>& derived_inputs() const { return derived_inputs_; }

  const OutputTolerance& Tolerance(std::string_view output) const;
  const std::vector<OutputTolerance>& tolerances() const { return tolerances_; }

  // The operator's checks on a product. Where the product does not list the operator, a call
  // that passes the null checks gets 161002 (a matrix rule) at the first dtype check, and never
  // success.
  CheckOutcome Validate(const OpArgs& args, Product product) const;
  // The outcome on a SoC outside docs/contract/products.md: the null checks' 161001, otherwise
  // nullopt (the caller rejects the call with 161002 for the unknown SoC).
  std::optional<CheckOutcome> NullCheckFailure(const OpArgs& args) const;
  ReferenceResult Reference(const OpArgs& args) const;
  std::vector<RuleTag> CallRules(const OpArgs& args) const { return def_->call_rules(*this, args); }

 private:
  const OperatorDef* def_;
  std::string folder_;
  std::string name_;
  std::string id_;
  std::string summary_;
  std::vector<std::vector<DType>> support_;  // indexed by Product
  std::vector<RuleDef> rules_;
  std::vector<OutputTolerance> tolerances_;
  std::vector<AxisDef> axes_;
  std::shared_ptr<nlohmann::json> description_;  // owns the axis schemas and default inputs
  const nlohmann::json* default_inputs_ = nullptr;
  std::vector<std::string> derived_inputs_;
};

// Every operator under kernels/, in folder order.
const std::vector<Operator>& Catalogue();
// By name ("LogitGrad"), rule prefix ("logit"), folder ("logit_grad") or symbol ("aclnnLogitGrad").
const Operator* FindOperator(std::string_view name);

}  // namespace aclnn_check
