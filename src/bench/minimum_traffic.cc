#include "bench/minimum_traffic.h"

#include <algorithm>

namespace aclnn_check {
namespace {

uint64_t TensorBytes(const TensorView* view) {
  if (!view) return 0;
  return static_cast<uint64_t>(view->numel()) * DTypeSize(view->dtype);
}

// The elementwise operators (gradOutput, self -> out), SwiGluGrad (yGrad, of half x's size, and
// x -> out) and NsaCompressGrad (input rows no window covers are counted too) read and write
// every tensor of the call exactly once.
uint64_t EveryTensor(const Operator& op, const OpArgs& args) {
  uint64_t bytes = 0;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) bytes += TensorBytes(args.tensor(slot));
  return bytes;
}

}  // namespace

uint64_t NamedTensorBytes(const Operator& op, const OpArgs& args,
                          std::initializer_list<std::string_view> names) {
  uint64_t bytes = 0;
  for (std::string_view name : names) {
    if (const std::optional<size_t> slot = op.TensorIndex(name)) bytes += TensorBytes(args.tensor(*slot));
  }
  return bytes;
}

MinimumTraffic MinimumTrafficOf(const Operator& op, const OpArgs& args) {
  MinimumTraffic traffic;
  const auto& formulas = TrafficFormulas();
  const auto formula = formulas.find(op.folder());
  traffic.bytes = formula != formulas.end() ? formula->second(op, args) : EveryTensor(op, args);
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (const TensorView* view = args.tensor(slot)) {
      traffic.items = std::max(traffic.items, static_cast<uint64_t>(view->numel()));
    }
  }
  return traffic;
}

}  // namespace aclnn_check
