// Building blocks of the operators' validate functions. Each returns the failing outcome, or
// nullopt when the check holds, so a validate function reads as its documented list of checks:
//   if (auto failed = RequireNotNull(op, args, {kX, kY}, "op.check.null")) return *failed;
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "catalogue/operator.h"

namespace aclnn_check {

CheckOutcome Reject(aclnnStatus status, std::string_view rule, std::string message);

// 161001 when one of the tensors, or the workspaceSize/executor out-pointers, is null.
std::optional<CheckOutcome> RequireNotNull(const Operator& op, const OpArgs& args,
                                           std::initializer_list<size_t> tensor_slots,
                                           std::string_view rule);
// 161001 when the workspaceSize or executor out-pointer is null.
std::optional<CheckOutcome> RequireOutPointers(const OpArgs& args, std::string_view rule);

// 161002 with the matrix rule when the tensor's dtype is not in the product's list. On a product
// that does not list the operator every dtype fails here, so the checks before the first of
// these (the null checks) decide alike on every product (docs/contract/products.md).
std::optional<CheckOutcome> RequireSupportedDType(const Operator& op, Product product,
                                                  const OpArgs& args, size_t slot);
// 161002 when the tensors (the non-null ones) do not all share one dtype.
std::optional<CheckOutcome> RequireSameDType(const Operator& op, const OpArgs& args,
                                             std::initializer_list<size_t> slots,
                                             std::string_view rule);
// 161002 when a tensor's rank is outside [min_rank, max_rank].
std::optional<CheckOutcome> RequireRank(const Operator& op, const OpArgs& args, size_t slot,
                                        int64_t min_rank, int64_t max_rank,
                                        std::string_view rule);
// 161002 when tensor `slot` does not have the shape of tensor `like`.
std::optional<CheckOutcome> RequireSameShape(const Operator& op, const OpArgs& args, size_t slot,
                                             size_t like, std::string_view rule);
// 161002 when a tensor has no elements.
std::optional<CheckOutcome> RequireNotEmpty(const Operator& op, const OpArgs& args,
                                            std::initializer_list<size_t> slots,
                                            std::string_view rule);

// The slot's name for messages: "gradOutput".
std::string SlotName(const Operator& op, size_t slot);

constexpr int64_t kMaxRank = 8;

}  // namespace aclnn_check
