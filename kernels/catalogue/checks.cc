#include "catalogue/checks.h"

namespace aclnn_check {

CheckOutcome Reject(aclnnStatus status, std::string_view rule, std::string message) {
  return {status, std::string(rule), std::move(message)};
}

std::string SlotName(const Operator& op, size_t slot) {
  return std::string(op.tensors()[slot].name);
}

std::optional<CheckOutcome> RequireOutPointers(const OpArgs& args, std::string_view rule) {
  if (args.workspace_size_null) {
    return Reject(ACLNN_ERR_PARAM_NULLPTR, rule, "workspaceSize is a null pointer");
  }
  if (args.executor_null) {
    return Reject(ACLNN_ERR_PARAM_NULLPTR, rule, "executor is a null pointer");
  }
  return std::nullopt;
}

std::optional<CheckOutcome> RequireNotNull(const Operator& op, const OpArgs& args,
                                           std::initializer_list<size_t> tensor_slots,
                                           std::string_view rule) {
  for (size_t slot : tensor_slots) {
    if (!args.tensors[slot]) {
      return Reject(ACLNN_ERR_PARAM_NULLPTR, rule, SlotName(op, slot) + " is a null pointer");
    }
  }
  return RequireOutPointers(args, rule);
}

std::optional<CheckOutcome> RequireSupportedDType(const Operator& op, Product product,
                                                  const OpArgs& args, size_t slot) {
  const TensorView* tensor = args.tensor(slot);
  if (!tensor || op.Supports(product, tensor->dtype)) return std::nullopt;
  const std::string has =
      SlotName(op, slot) + " has dtype " + std::string(DTypeName(tensor->dtype));
  const std::string on = std::string(ProductName(product));
  return Reject(ACLNN_ERR_PARAM_INVALID, op.MatrixRule(tensor->dtype),
                op.AvailableOn(product)
                    ? has + ", which " + op.name() + " does not support on " + on
                    : has + ", and " + op.name() + " is not available on " + on);
}

std::optional<CheckOutcome> RequireSameDType(const Operator& op, const OpArgs& args,
                                             std::initializer_list<size_t> slots,
                                             std::string_view rule) {
  const TensorView* first = nullptr;
  size_t first_slot = 0;
  for (size_t slot : slots) {
    const TensorView* tensor = args.tensor(slot);
    if (!tensor) continue;
    if (!first) {
      first = tensor;
      first_slot = slot;
    } else if (tensor->dtype != first->dtype) {
      return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                    SlotName(op, slot) + " has dtype " + std::string(DTypeName(tensor->dtype)) +
                        " but " + SlotName(op, first_slot) + " has " +
                        std::string(DTypeName(first->dtype)));
    }
  }
  return std::nullopt;
}

std::optional<CheckOutcome> RequireRank(const Operator& op, const OpArgs& args, size_t slot,
                                        int64_t min_rank, int64_t max_rank,
                                        std::string_view rule) {
  const TensorView* tensor = args.tensor(slot);
  if (!tensor || (tensor->rank() >= min_rank && tensor->rank() <= max_rank)) return std::nullopt;
  return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                SlotName(op, slot) + " has rank " + std::to_string(tensor->rank()) +
                    ", expected " + std::to_string(min_rank) + ".." + std::to_string(max_rank));
}

std::optional<CheckOutcome> RequireSameShape(const Operator& op, const OpArgs& args, size_t slot,
                                             size_t like, std::string_view rule) {
  const TensorView* tensor = args.tensor(slot);
  const TensorView* reference = args.tensor(like);
  if (!tensor || !reference || tensor->shape == reference->shape) return std::nullopt;
  return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                SlotName(op, slot) + " has shape " + FormatDims(tensor->shape) + " but " +
                    SlotName(op, like) + " has " + FormatDims(reference->shape));
}

std::optional<CheckOutcome> RequireNotEmpty(const Operator& op, const OpArgs& args,
                                            std::initializer_list<size_t> slots,
                                            std::string_view rule) {
  for (size_t slot : slots) {
    const TensorView* tensor = args.tensor(slot);
    if (tensor && tensor->numel() == 0) {
      return Reject(ACLNN_ERR_PARAM_INVALID, rule,
                    SlotName(op, slot) + " is empty (shape " + FormatDims(tensor->shape) + ")");
    }
  }
  return std::nullopt;
}

}  // namespace aclnn_check
