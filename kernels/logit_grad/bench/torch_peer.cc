// LogitGrad's PyTorch peer in aclnn_bench (bench/torch_peer_support.h): ATen's logit_backward
// into a preallocated output.
#include <ATen/ops/empty.h>
#include <ATen/ops/logit_backward.h>

#include "bench/timed_loop.h"
#include "torch_peer_support.h"

namespace aclnn_check::bench {

void TorchPeer_logit_grad(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const at::Tensor dy = Normal(w.shape, type), x = Uniform(w.shape, -0.05, 1.05, type);
  at::Tensor out = at::empty(w.shape, at::TensorOptions().dtype(type));
  state.SetLabel("out= (structured kernel writes the preallocated output)");
  const c10::optional<double> eps = w.eps ? c10::optional<double>(*w.eps) : c10::nullopt;
  TimedLoop(state, w.traffic, [&] { at::logit_backward_out(out, dy, x, eps); });
}

}  // namespace aclnn_check::bench
