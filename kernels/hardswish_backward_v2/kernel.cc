// The cpu provider's kernel: float32 arithmetic, one rounding to the output dtype on store.
#include "hardswish_backward_v2/hardswish_backward_v2.h"

namespace aclnn_check::hardswish_backward_v2 {

uint64_t WorkspaceBytes(const OpArgs&) { return 0; }

void Compute(const OpArgs& args, void*) {
  const std::vector<float> grad = ReadAsFloat(*args.tensor(kGradOutput));
  std::vector<float> values = ReadAsFloat(*args.tensor(kSelf));
  for (size_t i = 0; i < values.size(); ++i) {
    const float x = values[i];
    // The open interval as PyTorch 2.7 writes it: a select (0, even where gradOutput is inf or
    // NaN) up to -3, gradOutput from 3 up and for NaN self (neither compare holds).
    values[i] = x <= -3.0f ? 0.0f : x < 3.0f ? grad[i] * (x / 3.0f + 0.5f) : grad[i];
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::hardswish_backward_v2
