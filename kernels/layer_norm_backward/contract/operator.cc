#include <cmath>
#include <vector>

#include "aclnnop/aclnn_layer_norm_backward.h"
#include "catalogue/abi_call.h"
#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check {
extern const char kDescription_layer_norm_backward[];

namespace layer_norm_backward {
namespace {

constexpr TensorSlot kTensors[] = {
    {"gradOut", SlotRole::kInput},    {"input", SlotRole::kInput},
    {"mean", SlotRole::kInput},       {"rstd", SlotRole::kInput},
    {"weight", SlotRole::kInput},     {"bias", SlotRole::kInput},
    {"gradInput", SlotRole::kOutput}, {"gradWeight", SlotRole::kOutput},
    {"gradBias", SlotRole::kOutput},
};

constexpr ParamSlot kParams[] = {
    {"normalizedShape", ParamKind::kIntArray},
    {"outputMask", ParamKind::kBoolArray},
};

// A null array may arrive as a null pointer of either array type.
template <typename T>
const T* ArrayParam(const AbiParam& param) {
  const T* const* pointer = std::get_if<const T*>(&param);
  return pointer ? *pointer : nullptr;
}

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnLayerNormBackwardGetWorkspaceSize)>(symbol);
  return function(call.tensors[kGradOut], call.tensors[kInput],
                  ArrayParam<aclIntArray>(call.params[kNormalizedShape]), call.tensors[kMean],
                  call.tensors[kRstd], call.tensors[kWeight], call.tensors[kBias],
                  ArrayParam<aclBoolArray>(call.params[kOutputMask]), call.tensors[kGradInput],
                  call.tensors[kGradWeight], call.tensors[kGradBias], call.workspace_size,
                  call.executor);
}

}  // namespace

std::optional<RowShape> RowsOf(const OpArgs& args) {
  const TensorView* input = args.tensor(kInput);
  const auto* normalized = args.param<std::vector<int64_t>>(kNormalizedShape);
  if (!input || !normalized) return std::nullopt;
  const int64_t k = static_cast<int64_t>(normalized->size());
  if (k < 1 || k > input->rank()) return std::nullopt;
  RowShape shape{1, 1};
  for (int64_t d = 0; d < input->rank(); ++d) {
    (d < input->rank() - k ? shape.rows : shape.row_size) *= input->shape[d];
  }
  return shape;
}

bool MaskOn(const OpArgs& args, size_t output) {
  const auto* mask = args.param<std::vector<bool>>(kOutputMask);
  return mask && output < mask->size() && (*mask)[output];
}

void DeriveInputs(const OpArgs& args) {
  constexpr double kEps = 1e-5;
  const std::optional<RowShape> rows = RowsOf(args);
  const TensorView* mean = args.tensor(kMean);
  const TensorView* rstd = args.tensor(kRstd);
  // Shapes that cannot hold the statistics belong to negative cases: leave them as they are.
  if (!rows || !mean || !rstd || mean->numel() != rows->rows || rstd->numel() != rows->rows) {
    return;
  }
  const std::vector<double> x = ReadAsDouble(*args.tensor(kInput));
  const int64_t m = rows->row_size;
  std::vector<double> means(static_cast<size_t>(rows->rows), 0.0);
  std::vector<double> rstds(static_cast<size_t>(rows->rows), 1.0 / std::sqrt(kEps));
  for (int64_t r = 0; r < rows->rows && m > 0; ++r) {
    const double* row = x.data() + r * m;
    double sum = 0;
    for (int64_t j = 0; j < m; ++j) sum += row[j];
    const double mu = sum / static_cast<double>(m);
    double squares = 0;
    for (int64_t j = 0; j < m; ++j) squares += (row[j] - mu) * (row[j] - mu);
    means[r] = mu;
    rstds[r] = 1.0 / std::sqrt(squares / static_cast<double>(m) + kEps);
  }
  WriteFromDouble(*mean, means);
  WriteFromDouble(*rstd, rstds);
}

}  // namespace layer_norm_backward

extern const OperatorDef kOperator_layer_norm_backward{
    .description_json = kDescription_layer_norm_backward,
    .tensors = layer_norm_backward::kTensors,
    .params = layer_norm_backward::kParams,
    .validate = layer_norm_backward::Validate,
    .reference = layer_norm_backward::Reference,
    .call_rules = layer_norm_backward::CallRules,
    .invoke_get_workspace_size = layer_norm_backward::Invoke,
    .plan = layer_norm_backward::Plan,
    .derive_inputs = layer_norm_backward::DeriveInputs,
};

}  // namespace aclnn_check
