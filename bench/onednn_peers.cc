#include "onednn_peers.h"

#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <string>

#include "bench/timed_loop.h"
#include "core/dtype.h"
#include "onednn_peer_support.h"

namespace aclnn_check::bench {
namespace {

std::string LibraryVersion() {
  const dnnl_version_t* v = dnnl::version();
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
         std::to_string(v->patch);
}

}  // namespace

using dnnl::memory;

memory::data_type DnnlType(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return memory::data_type::f16;
    case DType::kBFloat16:
      return memory::data_type::bf16;
    default:
      return memory::data_type::f32;
  }
}

void FillUniform(const memory& m, DType dtype, double low, double high, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> distribution(low, high);
  const size_t elements = m.get_desc().get_size() / DTypeSize(dtype);
  char* data = static_cast<char*>(m.get_data_handle());
  for (size_t i = 0; i < elements; ++i)
    EncodeElement(data + i * DTypeSize(dtype), dtype, distribution(generator));
}

memory Scratchpad(const dnnl::primitive_desc& pd, const dnnl::engine& engine) {
  return memory(pd.scratchpad_desc(), engine);
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void RegisterOneDnnPeers(const std::vector<Workload>& workloads, int threads) {
  omp_set_num_threads(threads);  // this library build runs its primitives on OpenMP
  for (const Workload& workload : workloads) {
    const auto body = OneDnnPeers().find(workload.point->op().folder());
    if (body == OneDnnPeers().end()) continue;  // no oneDNN primitive for the operator
    benchmark::RegisterBenchmark(
        BenchmarkName(workload.name, workload.dtype(), "onednn", threads).c_str(),
        [&workload, run = body->second](benchmark::State& state) {
          try {
            run(state, workload);
          } catch (const dnnl::error& error) {
            // No implementation of a dtype on this CPU, for instance.
            state.SkipWithError((LibraryVersion() + ": " + error.what()).c_str());
          }
        })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace aclnn_check::bench
