// The call of one case-file test point. input, gradOut and gradInput have input_shape and the
// point's dtype; normalizedShape is the last k dims; mean and rstd are the leading dims followed
// by k ones (stat_dtype); weight, bias, gradWeight and gradBias have shape normalizedShape
// (param_dtype). Masked-off outputs are passed anyway, so the harness sees them left untouched.
#include <nlohmann/json.hpp>

#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check::layer_norm_backward {

std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error) {
  const Dims input_shape = axes.at("input_shape").get<Dims>();
  const int64_t k = axes.at("normalized_rank").get<int64_t>();
  const auto choice = [&](const char* axis, const char* first, const char* second) -> int {
    const std::string value = axes.at(axis).get<std::string>();
    if (value == first) return 0;
    if (value == second) return 1;
    return -1;
  };
  const int weight = choice("weight", "given", "none");
  const int bias = choice("bias", "given", "none");
  const int stat = choice("stat_dtype", "float32", "same");
  const int param = choice("param_dtype", "float32", "same");
  if (k < 0 || weight < 0 || bias < 0 || stat < 0 || param < 0) {
    if (error) {
      *error = k < 0 ? "normalized_rank must not be negative"
                     : "weight/bias must be given or none, stat_dtype/param_dtype float32 or same";
    }
    return std::nullopt;
  }
  const std::vector<bool> mask = axes.at("output_mask").get<std::vector<bool>>();

  // normalizedShape: the last k dims; k beyond the rank (a negative case) is padded with ones.
  const int64_t rank = static_cast<int64_t>(input_shape.size());
  const int64_t lead = std::max<int64_t>(rank - k, 0);
  Dims normalized(static_cast<size_t>(std::max<int64_t>(k - rank, 0)), 1);
  normalized.insert(normalized.end(), input_shape.begin() + lead, input_shape.end());
  Dims stat_shape(input_shape.begin(), input_shape.begin() + lead);
  stat_shape.insert(stat_shape.end(), static_cast<size_t>(k), 1);

  const DType stat_dtype = stat == 0 ? DType::kFloat32 : dtype;
  const DType param_dtype = param == 0 ? DType::kFloat32 : dtype;
  CallPlan plan;
  plan.tensors.resize(9);
  plan.tensors[kGradOut] = TensorPlan{dtype, input_shape};
  plan.tensors[kInput] = TensorPlan{dtype, input_shape};
  plan.tensors[kMean] = TensorPlan{stat_dtype, stat_shape};
  plan.tensors[kRstd] = TensorPlan{stat_dtype, stat_shape};
  if (weight == 0) plan.tensors[kWeight] = TensorPlan{param_dtype, normalized};
  if (bias == 0) plan.tensors[kBias] = TensorPlan{param_dtype, normalized};
  plan.tensors[kGradInput] = TensorPlan{dtype, input_shape};
  plan.tensors[kGradWeight] = TensorPlan{param_dtype, normalized};
  plan.tensors[kGradBias] = TensorPlan{param_dtype, normalized};
  plan.params = {normalized, mask};
  return plan;
}

}  // namespace aclnn_check::layer_norm_backward
