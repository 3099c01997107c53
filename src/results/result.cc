#include "results/result.h"

namespace aclnn_check {

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPassed:
      return "passed";
    case Verdict::kFailed:
      return "failed";
    case Verdict::kNotProvided:
      return "not-provided";
    case Verdict::kError:
      return "error";
  }
  return "error";
}

}  // namespace aclnn_check
