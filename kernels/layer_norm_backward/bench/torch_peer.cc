// LayerNormBackward's PyTorch peer in aclnn_bench (bench/torch_peer_support.h).
#include <ATen/ops/native_layer_norm.h>
#include <ATen/ops/native_layer_norm_backward.h>
#include <torch/version.h>

#include <tuple>

#include "bench/timed_loop.h"
#include "torch_peer_support.h"

namespace aclnn_check::bench {

// Inputs, mean and rstd from the forward pass; weight and bias in the input dtype (torch 1.x's CPU
// kernel takes no float32 weight with a 16-bit input; the aclnn workload's is float32, which
// changes its traffic by 2 x 4096 bytes at most).
void TorchPeer_layer_norm_backward(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const std::vector<int64_t> normalized = {w.shape.back()};
  const at::Tensor input = Normal(w.shape, type), grad = Normal(w.shape, type);
  const at::Tensor weight = Normal(normalized, type), bias = Normal(normalized, type);
  at::Tensor mean, rstd;
  try {
    std::tie(std::ignore, mean, rstd) =
        at::native_layer_norm(input, normalized, weight, bias, 1e-5);
  } catch (const std::exception& error) {
    state.SkipWithError(("torch " TORCH_VERSION ": " + FirstLineOf(error)).c_str());
    return;
  }
  state.SetLabel(kHeapReuse);
  TimedLoop(state, w.traffic, [&] {
    benchmark::DoNotOptimize(at::native_layer_norm_backward(grad, input, normalized, mean, rstd,
                                                            weight, bias, {true, true, true}));
  });
}

}  // namespace aclnn_check::bench
