#include "torch_peers.h"

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/hardswish_backward.h>
#include <ATen/ops/logit_backward.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/native_layer_norm.h>
#include <ATen/ops/native_layer_norm_backward.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/silu_backward.h>
#include <torch/version.h>

#include <functional>
#include <map>

#include "bench/timed_loop.h"

namespace aclnn_check::bench {
namespace {

at::ScalarType TorchType(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return at::kHalf;
    case DType::kBFloat16:
      return at::kBFloat16;
    default:
      return at::kFloat;
  }
}

at::Tensor Uniform(const std::vector<int64_t>& shape, double low, double high,
                   at::ScalarType type) {
  return at::rand(shape).mul_(high - low).add_(low).to(type);
}
at::Tensor Normal(const std::vector<int64_t>& shape, at::ScalarType type) {
  return at::randn(shape).to(type);
}

// The result of the functional op is freed at the end of each iteration and the next iteration's
// allocation gets the same block back: aclnn_bench raises glibc's mmap threshold (main.cc), so
// these blocks stay in the heap and are never faulted in again (the page_faults counter shows it).
constexpr const char* kHeapReuse =
    "functional op, output block reused from the heap (its out= overload "
    "is a composite that computes into a temporary and copies)";

// A benchmark body for one workload: sets inputs up, then loops. The label goes on the result.
using PeerBody = std::function<void(benchmark::State&, const Workload&)>;

void Hardswish(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const at::Tensor grad = Normal(w.shape, type), self = Uniform(w.shape, -4, 4, type);
  state.SetLabel(kHeapReuse);
  TimedLoop(state, w.traffic,
            [&] { benchmark::DoNotOptimize(at::hardswish_backward(grad, self)); });
}

void Logit(benchmark::State& state, const Workload& w) {
  const at::ScalarType type = TorchType(w.dtype());
  const at::Tensor dy = Normal(w.shape, type), x = Uniform(w.shape, -0.05, 1.05, type);
  at::Tensor out = at::empty(w.shape, at::TensorOptions().dtype(type));
  state.SetLabel("out= (structured kernel writes the preallocated output)");
  const c10::optional<double> eps = w.eps ? c10::optional<double>(*w.eps) : c10::nullopt;
  TimedLoop(state, w.traffic, [&] { at::logit_backward_out(out, dy, x, eps); });
}

// SwiGLU backward from ATen ops (ATen has no fused one): with x = [A, B] on the last dim and
// g = yGrad, dA = silu_backward(g * B, A) and dB = g * silu(A), written into the two halves of
// one preallocated output through out= overloads; one preallocated temporary.
void SwiGlu(benchmark::State& state, const Workload& w) {
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

// Inputs, mean and rstd from the forward pass; weight and bias in the input dtype (torch 1.x's CPU
// kernel takes no float32 weight with a 16-bit input; the aclnn workload's is float32, which
// changes its traffic by 2 x 4096 bytes at most).
void LayerNorm(benchmark::State& state, const Workload& w) {
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

const std::map<std::string, PeerBody>& PeerBodies() {
  static const std::map<std::string, PeerBody> bodies = {{"HardswishBackward", Hardswish},
                                                         {"LogitGrad", Logit},
                                                         {"SwiGluGrad", SwiGlu},
                                                         {"LayerNormBackward", LayerNorm}};
  return bodies;
}

}  // namespace

void RegisterTorchPeers(const std::vector<Workload>& workloads, int threads) {
  at::set_num_threads(threads);
  for (const Workload& workload : workloads) {
    const auto body = PeerBodies().find(workload.op());
    if (body == PeerBodies().end()) continue;  // NsaCompressGrad: no ATen op
    benchmark::RegisterBenchmark(
        BenchmarkName(workload.name, workload.dtype(), "torch", threads).c_str(),
        [&workload, &run = body->second](benchmark::State& state) {
          try {
            run(state, workload);
          } catch (const std::exception& error) {
            // An op not implemented for a dtype in this torch release, for instance.
            state.SkipWithError(("torch " TORCH_VERSION ": " + FirstLineOf(error)).c_str());
          }
        })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace aclnn_check::bench
