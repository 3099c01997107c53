#include "catalogue/checks.h"
#include "hardswish_backward/hardswish_backward.h"

namespace aclnn_check::hardswish_backward {

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  if (auto failed = RequireNotNull(op, args, {kGradOutput, kSelf, kOut}, "hardswish.check.null")) {
    return *failed;
  }
  for (size_t slot : {kSelf, kGradOutput, kOut}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return *failed;
  }
  if (auto failed = RequireSameDType(op, args, {kSelf, kGradOutput, kOut}, "hardswish.check.dtype")) {
    return *failed;
  }
  for (size_t slot : {kGradOutput, kSelf, kOut}) {
    if (auto failed = RequireRank(op, args, slot, 0, kMaxRank, "hardswish.check.rank")) {
      return *failed;
    }
  }
  for (size_t slot : {kGradOutput, kOut}) {
    if (auto failed = RequireSameShape(op, args, slot, kSelf, "hardswish.check.shape")) {
      return *failed;
    }
  }
  return {};
}

}  // namespace aclnn_check::hardswish_backward
