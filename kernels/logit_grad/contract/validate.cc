#include "catalogue/checks.h"
#include "logit_grad/logit_grad.h"

namespace aclnn_check::logit_grad {

// kernels/logit_grad/README.md: null -> 161001; dtypes outside the product's list or not all equal;
// rank > 8; dy or out shape differs from x -> 161002. Every eps is accepted (the table decides the
// values).
CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  if (auto failed = RequireNotNull(op, args, {kX, kDy, kOut}, "logit.check.null")) {
    return *failed;
  }
  for (size_t slot : {kX, kDy, kOut}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return *failed;
  }
  if (auto failed = RequireSameDType(op, args, {kX, kDy, kOut}, "logit.check.dtype")) {
    return *failed;
  }
  for (size_t slot : {kX, kDy, kOut}) {
    if (auto failed = RequireRank(op, args, slot, 0, kMaxRank, "logit.check.rank")) {
      return *failed;
    }
  }
  for (size_t slot : {kDy, kOut}) {
    if (auto failed = RequireSameShape(op, args, slot, kX, "logit.check.shape")) {
      return *failed;
    }
  }
  return {};
}

}  // namespace aclnn_check::logit_grad
