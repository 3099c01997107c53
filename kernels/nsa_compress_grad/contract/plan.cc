// The call of one case-file test point. T is the last actSeqLen value (the `tokens` axis when
// act_seq_len is null or empty); T' is the sum of the sequences' window counts, from the formula
// even where the array is invalid, so negative cases still get tensors and validation rejects them.
#include <nlohmann/json.hpp>

#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {

std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error) {
  const nlohmann::json& act_seq_len = axes.at("act_seq_len");
  const int64_t heads = axes.at("heads").get<int64_t>();
  const int64_t head_dim = axes.at("head_dim").get<int64_t>();
  const int64_t block_size = axes.at("block_size").get<int64_t>();
  const int64_t stride = axes.at("stride").get<int64_t>();
  const nlohmann::json& layout = axes.at("layout");

  int64_t tokens = axes.at("tokens").get<int64_t>();
  int64_t windows = 0;
  ParamValue ends_param;  // monostate: a null actSeqLen
  if (act_seq_len.is_null()) {
    windows = WindowCount(tokens, block_size, stride);
  } else {
    const std::vector<int64_t> ends = act_seq_len.get<std::vector<int64_t>>();
    if (!ends.empty()) tokens = ends.back();
    int64_t previous = 0;
    for (int64_t end : ends) {
      windows += WindowCount(end - previous, block_size, stride);
      previous = end;
    }
    ends_param = ends;
  }
  if (tokens < 0 || heads < 0 || head_dim < 0) {
    if (error) {
      *error = "T = " + std::to_string(tokens) + ", N = " + std::to_string(heads) +
               ", D = " + std::to_string(head_dim) + ": a tensor dimension cannot be negative";
    }
    return std::nullopt;
  }
  // A non-positive block size is rejected by validation before the weight's shape matters.
  const int64_t weight_rows = std::max<int64_t>(block_size, 0);

  CallPlan plan;
  plan.tensors.resize(5);
  plan.tensors[kOutputGrad] = TensorPlan{dtype, {windows, heads, head_dim}};
  plan.tensors[kInput] = TensorPlan{dtype, {tokens, heads, head_dim}};
  plan.tensors[kWeight] = TensorPlan{dtype, {weight_rows, heads}};
  plan.tensors[kInputGrad] = TensorPlan{dtype, {tokens, heads, head_dim}};
  plan.tensors[kWeightGrad] = TensorPlan{dtype, {weight_rows, heads}};
  plan.params.resize(5);
  plan.params[kActSeqLen] = ends_param;
  plan.params[kBlockSize] = block_size;
  plan.params[kStride] = stride;
  plan.params[kActSeqLenType] = axes.at("act_seq_len_type").get<int64_t>();
  if (!layout.is_null()) plan.params[kLayout] = layout.get<std::string>();
  return plan;
}

}  // namespace aclnn_check::nsa_compress_grad
