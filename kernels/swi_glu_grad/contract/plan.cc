// The call of one case-file test point: x and out have x_shape, yGrad has x_shape halved along dim.
// Negative cases (odd sizes, dim out of range, rank 0 or above 8) still get a call, which the
// validation then rejects.
#include <nlohmann/json.hpp>

#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {

std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string*) {
  const Dims x_shape = axes.at("x_shape").get<Dims>();
  const int64_t dim = axes.at("dim").get<int64_t>();
  const int64_t rank = static_cast<int64_t>(x_shape.size());
  Dims ygrad_shape = x_shape;
  if (dim >= -rank && dim < rank) {
    ygrad_shape[static_cast<size_t>(dim < 0 ? dim + rank : dim)] /= 2;  // rounded down when odd
  }
  CallPlan plan;
  plan.tensors = {TensorPlan{dtype, ygrad_shape}, TensorPlan{dtype, x_shape},
                  TensorPlan{dtype, x_shape}};
  plan.params = {ParamValue{dim}};
  return plan;
}

}  // namespace aclnn_check::swi_glu_grad
