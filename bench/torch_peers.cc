#include "torch_peers.h"

#include <ATen/Parallel.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randn.h>
#include <torch/version.h>

#include "bench/timed_loop.h"
#include "torch_peer_support.h"

namespace aclnn_check::bench {

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

void RegisterTorchPeers(const std::vector<Workload>& workloads, int threads) {
  at::set_num_threads(threads);
  for (const Workload& workload : workloads) {
    const auto body = TorchPeers().find(workload.point->op().folder());
    if (body == TorchPeers().end()) continue;  // no ATen op for the operator (NsaCompressGrad)
    benchmark::RegisterBenchmark(
        BenchmarkName(workload.name, workload.dtype(), "torch", threads).c_str(),
        [&workload, run = body->second](benchmark::State& state) {
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
