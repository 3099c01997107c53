// The cpu provider's kernel: float32 arithmetic, one rounding to the output dtype on store.
#include "hardswish_backward/hardswish_backward.h"

namespace aclnn_check::hardswish_backward {

uint64_t WorkspaceBytes(const OpArgs&) { return 0; }

void Compute(const OpArgs& args, void*) {
  const std::vector<float> grad = ReadAsFloat(*args.tensor(kGradOutput));
  std::vector<float> values = ReadAsFloat(*args.tensor(kSelf));
  for (size_t i = 0; i < values.size(); ++i) {
    const float x = values[i];
    // A select, not a multiply, below -3: 0 even where gradOutput is inf or NaN (as PyTorch).
    values[i] = x < -3.0f ? 0.0f : x > 3.0f ? grad[i] : grad[i] * (x / 3.0f + 0.5f);
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::hardswish_backward
