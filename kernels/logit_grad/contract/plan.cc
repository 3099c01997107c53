// The call of one case-file test point: x, dy and out have the shape axis and the point's dtype;
// eps comes from the eps axis (a number, or "inf", "-inf", "nan").
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "logit_grad/logit_grad.h"

namespace aclnn_check::logit_grad {
namespace {

std::optional<double> EpsValue(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (text == "inf" || text == "+inf") return kInf;
  if (text == "-inf") return -kInf;
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

}  // namespace

std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error) {
  const Dims shape = axes.at("shape").get<Dims>();
  const std::optional<double> eps = EpsValue(axes.at("eps"));
  if (!eps) {
    if (error)
      *error = "eps must be a number, \"inf\", \"-inf\" or \"nan\", not " + axes.at("eps").dump();
    return std::nullopt;
  }
  CallPlan plan;
  plan.tensors.assign(3, TensorPlan{dtype, shape});
  plan.params = {ParamValue(*eps)};
  return plan;
}

}  // namespace aclnn_check::logit_grad
