// HardswishBackward's PyTorch peer in aclnn_bench (bench/torch_peer_support.h): ATen's
// hardswish_backward on the workload's shape.
#include <ATen/ops/hardswish_backward.h>

#include "bench/timed_loop.h"
#include "torch_peer_support.h"

namespace aclnn_check::bench {

void TorchPeer_hardswish_backward(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const at::Tensor grad = Normal(w.shape, type), self = Uniform(w.shape, -4, 4, type);
  state.SetLabel(kHeapReuse);
  TimedLoop(state, w.traffic,
            [&] { benchmark::DoNotOptimize(at::hardswish_backward(grad, self)); });
}

}  // namespace aclnn_check::bench
