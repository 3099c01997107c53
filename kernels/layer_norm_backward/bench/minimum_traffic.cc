// LayerNormBackward's minimum traffic for the benchmarks (src/bench/minimum_traffic.h; compiled
// into the bench layer). outputMask decides what is produced, and each output needs only some
// inputs:
//   gradInput  = rstd * (weight * gradOut - mean_j(weight * gradOut)
//                        - xhat * mean_j(weight * gradOut * xhat))
//                reads gradOut, input, mean, rstd, weight
//   gradWeight = sum_rows(gradOut * xhat)      reads gradOut, input, mean, rstd
//   gradBias   = sum_rows(gradOut)             reads gradOut
// bias is checked but never read. A masked-off output is not written.
#include "bench/minimum_traffic.h"

#include <vector>

namespace aclnn_check {

uint64_t MinimumTrafficBytes_layer_norm_backward(const Operator& op, const OpArgs& args) {
  std::vector<bool> mask = {true, true, true};
  if (const std::optional<size_t> slot = op.ParamIndex("outputMask")) {
    if (const auto* given = args.param<std::vector<bool>>(*slot); given && given->size() == 3)
      mask = *given;
  }
  const bool grad_input = mask[0], grad_weight = mask[1], grad_bias = mask[2];
  const auto bytes_of = [&](std::initializer_list<std::string_view> names) {
    return NamedTensorBytes(op, args, names);
  };
  uint64_t bytes = 0;
  if (grad_input || grad_weight || grad_bias) bytes += bytes_of({"gradOut"});
  if (grad_input || grad_weight) bytes += bytes_of({"input", "mean", "rstd"});
  if (grad_input) bytes += bytes_of({"weight", "gradInput"});
  if (grad_weight) bytes += bytes_of({"gradWeight"});
  if (grad_bias) bytes += bytes_of({"gradBias"});
  return bytes;
}

}  // namespace aclnn_check
