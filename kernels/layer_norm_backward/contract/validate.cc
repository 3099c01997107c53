// The checks of kernels/layer_norm_backward/README.md in their documented order: nulls, the mask's
// length, selected outputs that are null, dtypes, then shapes. The one exception to "null first": a
// selected output that is null (161001) is reported after a mask of the wrong length (161002).
#include <string>
#include <vector>

#include "catalogue/checks.h"
#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check::layer_norm_backward {
namespace {

std::optional<CheckOutcome> CheckNulls(const Operator& op, const OpArgs& args) {
  constexpr std::string_view kRule = "layernorm.check.null";
  // Prototype order: gradOut, input, normalizedShape, mean, rstd, ..., outputMask.
  for (size_t slot : {kGradOut, kInput}) {
    if (!args.tensor(slot)) {
      return Reject(ACLNN_ERR_PARAM_NULLPTR, kRule, SlotName(op, slot) + " is a null pointer");
    }
  }
  if (!args.param<std::vector<int64_t>>(kNormalizedShape)) {
    return Reject(ACLNN_ERR_PARAM_NULLPTR, kRule, "normalizedShape is a null pointer");
  }
  for (size_t slot : {kMean, kRstd}) {
    if (!args.tensor(slot)) {
      return Reject(ACLNN_ERR_PARAM_NULLPTR, kRule, SlotName(op, slot) + " is a null pointer");
    }
  }
  if (!args.param<std::vector<bool>>(kOutputMask)) {
    return Reject(ACLNN_ERR_PARAM_NULLPTR, kRule, "outputMask is a null pointer");
  }
  return RequireOutPointers(args, kRule);
}

std::optional<CheckOutcome> CheckDTypes(const Operator& op, const OpArgs& args, Product product) {
  for (size_t slot : {kGradOut, kInput, kMean, kRstd}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return failed;
  }
  if (auto failed =
          RequireSameDType(op, args, {kInput, kGradOut}, "layernorm.check.grad_out_dtype")) {
    return failed;
  }
  const DType input = args.tensor(kInput)->dtype;
  // mean, rstd and weight: float32 or the input's dtype, each on its own.
  auto float_or_input = [&](size_t slot, std::string_view rule) -> std::optional<CheckOutcome> {
    const TensorView* tensor = args.tensor(slot);
    if (!tensor || tensor->dtype == DType::kFloat32 || tensor->dtype == input) {
      return std::nullopt;
    }
    return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                  SlotName(op, slot) + " has dtype " + std::string(DTypeName(tensor->dtype)) +
                      ", expected float32 or the dtype of input (" + std::string(DTypeName(input)) +
                      ")");
  };
  for (size_t slot : {kMean, kRstd}) {
    if (auto failed = float_or_input(slot, "layernorm.check.stat_dtype")) return failed;
  }
  if (auto failed = RequireSupportedDType(op, product, args, kWeight)) return failed;
  if (auto failed = float_or_input(kWeight, "layernorm.check.weight_dtype")) return failed;
  // bias and the outputs (every non-null one, selected or not): any dtype of the product.
  for (size_t slot : {kBias, kGradInput, kGradWeight, kGradBias}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return failed;
  }
  return std::nullopt;
}

std::optional<CheckOutcome> RequireShape(const Operator& op, const OpArgs& args, size_t slot,
                                         const Dims& expected, std::string_view expected_name,
                                         std::string_view rule) {
  const TensorView* tensor = args.tensor(slot);
  if (!tensor || tensor->shape == expected) return std::nullopt;
  return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                SlotName(op, slot) + " has shape " + FormatDims(tensor->shape) + ", expected " +
                    std::string(expected_name) + " " + FormatDims(expected));
}

std::optional<CheckOutcome> CheckShapes(const Operator& op, const OpArgs& args) {
  constexpr std::string_view kRankRule = "layernorm.check.rank";
  for (size_t slot : {kGradOut, kInput}) {
    if (auto failed = RequireRank(op, args, slot, 1, kMaxRank, kRankRule)) return failed;
  }
  for (size_t slot : {kMean, kRstd}) {
    if (auto failed = RequireRank(op, args, slot, 0, kMaxRank, kRankRule)) return failed;
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!MaskOn(args, i)) continue;
    if (auto failed = RequireRank(op, args, kOutputs[i], 0, kMaxRank, kRankRule)) return failed;
  }

  const TensorView& input = *args.tensor(kInput);
  const Dims& normalized = *args.param<std::vector<int64_t>>(kNormalizedShape);
  const int64_t k = static_cast<int64_t>(normalized.size());
  if (k < 1 || k > input.rank()) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "layernorm.check.normalized_rank",
                  "normalizedShape has length " + std::to_string(k) + ", expected 1.." +
                      std::to_string(input.rank()) + " (the rank of input)");
  }
  const int64_t lead = input.rank() - k;
  for (int64_t i = 0; i < k; ++i) {
    if (input.shape[lead + i] != normalized[i]) {
      return Reject(ACLNN_ERR_PARAM_INVALID, "layernorm.check.trailing_dims",
                    "normalizedShape " + FormatDims(normalized) +
                        " is not the trailing dims of input " + FormatDims(input.shape));
    }
  }
  if (auto failed = RequireShape(op, args, kWeight, normalized, "normalizedShape",
                                 "layernorm.check.weight_shape")) {
    return failed;
  }
  if (auto failed = RequireShape(op, args, kBias, normalized, "normalizedShape",
                                 "layernorm.check.bias_shape")) {
    return failed;
  }
  if (auto failed =
          RequireSameShape(op, args, kGradOut, kInput, "layernorm.check.grad_out_shape")) {
    return failed;
  }
  if (auto failed = RequireSameShape(op, args, kRstd, kMean, "layernorm.check.stat_shape")) {
    return failed;
  }
  const int64_t rows = NumElements(std::span(input.shape).first(static_cast<size_t>(lead)));
  if (args.tensor(kMean)->numel() != rows) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_numel",
                  "mean has " + std::to_string(args.tensor(kMean)->numel()) +
                      " elements, expected one per row: " + std::to_string(rows));
  }
  constexpr std::string_view kOutputRule = "layernorm.check.output_shape";
  if (MaskOn(args, 0)) {
    if (auto failed =
            RequireShape(op, args, kGradInput, input.shape, "the shape of input", kOutputRule)) {
      return failed;
    }
  }
  for (size_t i : {1, 2}) {
    if (!MaskOn(args, i)) continue;
    if (auto failed =
            RequireShape(op, args, kOutputs[i], normalized, "normalizedShape", kOutputRule)) {
      return failed;
    }
  }
  return std::nullopt;
}

}  // namespace

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  if (auto failed = CheckNulls(op, args)) return *failed;
  const size_t mask_length = args.param<std::vector<bool>>(kOutputMask)->size();
  if (mask_length != 3) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "layernorm.check.mask_length",
                  "outputMask has " + std::to_string(mask_length) + " entries, expected 3");
  }
  for (size_t i = 0; i < 3; ++i) {
    if (MaskOn(args, i) && !args.tensor(kOutputs[i])) {
      return Reject(ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.mask_output_null",
                    SlotName(op, kOutputs[i]) + " is a null pointer but outputMask[" +
                        std::to_string(i) + "] is true");
    }
  }
  if (auto failed = CheckDTypes(op, args, product)) return *failed;
  if (auto failed = CheckShapes(op, args)) return *failed;
  return {};
}

}  // namespace aclnn_check::layer_norm_backward
