#include "bench/minimum_traffic.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>

namespace aclnn_check {
namespace {

uint64_t TensorBytes(const TensorView* view) {
  if (!view) return 0;
  return static_cast<uint64_t>(view->numel()) * DTypeSize(view->dtype);
}

// Sums the bytes of the named tensors (null ones count 0).
class CallTensors {
 public:
  CallTensors(const Operator& op, const OpArgs& args) : op_(op), args_(args) {}
  const TensorView* Find(std::string_view name) const {
    const std::optional<size_t> slot = op_.TensorIndex(name);
    return slot ? args_.tensor(*slot) : nullptr;
  }
  uint64_t Bytes(std::initializer_list<std::string_view> names) const {
    uint64_t bytes = 0;
    for (std::string_view name : names) bytes += TensorBytes(Find(name));
    return bytes;
  }

 private:
  const Operator& op_;
  const OpArgs& args_;
};

uint64_t EveryTensor(const Operator& op, const OpArgs& args) {
  uint64_t bytes = 0;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) bytes += TensorBytes(args.tensor(slot));
  return bytes;
}

// LayerNormBackward: outputMask decides what is produced, and each output needs only some inputs:
//   gradInput  = rstd * (weight * gradOut - mean_j(weight * gradOut) - xhat * mean_j(weight *
//   gradOut * xhat))
//                reads gradOut, input, mean, rstd, weight
//   gradWeight = sum_rows(gradOut * xhat)      reads gradOut, input, mean, rstd
//   gradBias   = sum_rows(gradOut)             reads gradOut
// bias is checked but never read. A masked-off output is not written.
uint64_t LayerNormBackwardBytes(const Operator& op, const OpArgs& args) {
  const CallTensors t(op, args);
  std::vector<bool> mask = {true, true, true};
  if (const std::optional<size_t> slot = op.ParamIndex("outputMask")) {
    if (const auto* given = args.param<std::vector<bool>>(*slot); given && given->size() == 3)
      mask = *given;
  }
  const bool grad_input = mask[0], grad_weight = mask[1], grad_bias = mask[2];
  uint64_t bytes = 0;
  if (grad_input || grad_weight || grad_bias) bytes += t.Bytes({"gradOut"});
  if (grad_input || grad_weight) bytes += t.Bytes({"input", "mean", "rstd"});
  if (grad_input) bytes += t.Bytes({"weight", "gradInput"});
  if (grad_weight) bytes += t.Bytes({"gradWeight"});
  if (grad_bias) bytes += t.Bytes({"gradBias"});
  return bytes;
}

// The operators whose minimum is not simply "every tensor once". The elementwise operators
// (HardswishBackward: gradOutput, self -> out; LogitGrad: x, dy -> out), SwiGluGrad (yGrad, of
// half x's size, and x -> out) and NsaCompressGrad (outputGrad, input, weight -> inputGrad,
// weightGrad; input rows no window covers, fewer than compressBlockSize per sequence, are counted
// too) read and write every tensor of the call exactly once.
const std::map<std::string, std::function<uint64_t(const Operator&, const OpArgs&)>, std::less<>>&
SpecialFormulas() {
  static const std::map<std::string, std::function<uint64_t(const Operator&, const OpArgs&)>,
                        std::less<>>
      formulas = {{"LayerNormBackward", LayerNormBackwardBytes}};
  return formulas;
}

}  // namespace

MinimumTraffic MinimumTrafficOf(const Operator& op, const OpArgs& args) {
  MinimumTraffic traffic;
  const auto& special = SpecialFormulas();
  const auto formula = special.find(op.name());
  traffic.bytes = formula != special.end() ? formula->second(op, args) : EveryTensor(op, args);
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (const TensorView* view = args.tensor(slot)) {
      traffic.items = std::max(traffic.items, static_cast<uint64_t>(view->numel()));
    }
  }
  return traffic;
}

}  // namespace aclnn_check
