// The call of one case-file test point: every tensor has the shape axis and the point's dtype.
#include <nlohmann/json.hpp>

#include "hardswish_backward/hardswish_backward.h"

namespace aclnn_check::hardswish_backward {

std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string*) {
  const Dims shape = axes.at("shape").get<Dims>();
  CallPlan plan;
  plan.tensors.assign(3, TensorPlan{dtype, shape});
  return plan;
}

}  // namespace aclnn_check::hardswish_backward
