// kernels/hardswish_backward_v2/README.md's checks in aclnn_hardswish_backward_v2.cpp's order: null
// pointers, the product's dtype list for gradOutput then self, one dtype for all three, the rank of
// gradOutput and self (at most 8; out is held to self's shape instead), the shapes.
#include "catalogue/checks.h"
#include "hardswish_backward_v2/hardswish_backward_v2.h"

namespace aclnn_check::hardswish_backward_v2 {

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  if (auto failed =
          RequireNotNull(op, args, {kGradOutput, kSelf, kOut}, "hardswish_v2.check.null")) {
    return *failed;
  }
  for (size_t slot : {kGradOutput, kSelf}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return *failed;
  }
  if (auto failed =
          RequireSameDType(op, args, {kSelf, kGradOutput, kOut}, "hardswish_v2.check.dtype")) {
    return *failed;
  }
  for (size_t slot : {kGradOutput, kSelf}) {
    if (auto failed = RequireRank(op, args, slot, 0, kMaxRank, "hardswish_v2.check.rank")) {
      return *failed;
    }
  }
  for (size_t slot : {kGradOutput, kOut}) {
    if (auto failed = RequireSameShape(op, args, slot, kSelf, "hardswish_v2.check.shape")) {
      return *failed;
    }
  }
  return {};
}

}  // namespace aclnn_check::hardswish_backward_v2
