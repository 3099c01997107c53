// SwiGluGrad's PyTorch peer in aclnn_bench (bench/torch_peer_support.h).
#include <ATen/ops/empty.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/silu_backward.h>

#include "bench/timed_loop.h"
#include "torch_peer_support.h"

namespace aclnn_check::bench {

// SwiGLU backward from ATen ops (ATen has no fused one): with x = [A, B] on the last dim and
// g = yGrad, dA = silu_backward(g * B, A) and dB = g * silu(A), written into the two halves of
// one preallocated output through out= overloads; one preallocated temporary.
void TorchPeer_swi_glu_grad(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const at::Tensor x = Uniform(w.shape, -8, 8, type);
  const int64_t half = w.shape.back() / 2;
  const at::Tensor a = x.narrow(-1, 0, half), b = x.narrow(-1, half, half);
  const at::Tensor grad = Normal(a.sizes().vec(), type);
  at::Tensor out = at::empty(w.shape, at::TensorOptions().dtype(type));
  at::Tensor da = out.narrow(-1, 0, half), db = out.narrow(-1, half, half);
  at::Tensor temporary = at::empty(a.sizes(), at::TensorOptions().dtype(type));
  state.SetLabel("out= composite of 4 ops: mul, silu_backward, silu, mul");
  TimedLoop(state, w.traffic, [&] {
    at::mul_out(temporary, grad, b);
    at::silu_backward_out(da, temporary, a);
    at::silu_out(temporary, a);
    at::mul_out(db, grad, temporary);
  });
}

}  // namespace aclnn_check::bench
