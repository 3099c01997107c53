#include "onednn_peers.h"

#include <omp.h>

#include <cstring>
#include <functional>
#include <map>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <string>

#include "bench/timed_loop.h"
#include "core/dtype.h"

namespace aclnn_check::bench {
namespace {

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

std::string LibraryVersion() {
  const dnnl_version_t* v = dnnl::version();
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
         std::to_string(v->patch);
}

// Uniform values in [low, high), encoded in the memory's dtype.
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

void Hardswish(benchmark::State& state, const Workload& w) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const memory::desc data({w.shape.begin(), w.shape.end()}, DnnlType(w.dtype()),
                          w.shape.size() == 1 ? memory::format_tag::a : memory::format_tag::ab);
  const auto attr = UserScratchpad();
  const dnnl::eltwise_forward::primitive_desc forward(
      {dnnl::prop_kind::forward_training, dnnl::algorithm::eltwise_hardswish, data}, attr, engine);
  const dnnl::eltwise_backward::primitive_desc backward(
      {dnnl::algorithm::eltwise_hardswish, data, data}, attr, engine, forward);
  memory src(data, engine), diff_dst(data, engine), diff_src(data, engine);
  const memory scratchpad = Scratchpad(backward, engine);
  FillUniform(src, w.dtype(), -4, 4, 1);
  FillUniform(diff_dst, w.dtype(), -1, 1, 2);
  const dnnl::eltwise_backward primitive(backward);
  state.SetLabel("eltwise_hardswish backward, memory allocated once");
  TimedLoop(state, w.traffic, [&] {
    primitive.execute(stream, {{DNNL_ARG_SRC, src},
                               {DNNL_ARG_DIFF_DST, diff_dst},
                               {DNNL_ARG_DIFF_SRC, diff_src},
                               {DNNL_ARG_SCRATCHPAD, scratchpad}});
    stream.wait();
  });
}

// Layer normalization over the last dim with scale and shift, statistics (mean, variance) from a
// forward pass; computes diff_src, diff_scale and diff_shift like the aclnn workload's three
// outputs.
void LayerNorm(benchmark::State& state, const Workload& w) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const int64_t rows = w.shape.front(), columns = w.shape.back();
  const memory::desc data({rows, columns}, DnnlType(w.dtype()), memory::format_tag::ab);
  const memory::desc stat({rows}, memory::data_type::f32, memory::format_tag::a);
  const memory::desc param({columns}, memory::data_type::f32, memory::format_tag::a);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const float epsilon = 1e-5f;
  const auto attr = UserScratchpad();
  const dnnl::layer_normalization_forward::primitive_desc forward(
      {dnnl::prop_kind::forward_training, data, stat, epsilon, flags}, attr, engine);
  const dnnl::layer_normalization_backward::primitive_desc backward(
      {dnnl::prop_kind::backward, data, data, stat, epsilon, flags}, attr, engine, forward);
  memory src(data, engine), dst(data, engine), diff_dst(data, engine), diff_src(data, engine);
  memory mean(stat, engine), variance(stat, engine);
  memory scale(param, engine), shift(param, engine), diff_scale(param, engine),
      diff_shift(param, engine);
  FillUniform(src, w.dtype(), -2, 2, 1);
  FillUniform(diff_dst, w.dtype(), -1, 1, 2);
  FillUniform(scale, DType::kFloat32, 0.5, 1.5, 3);
  FillUniform(shift, DType::kFloat32, -0.5, 0.5, 4);
  const memory forward_scratchpad = Scratchpad(forward, engine);
  dnnl::layer_normalization_forward(forward).execute(stream,
                                                     {{DNNL_ARG_SRC, src},
                                                      {DNNL_ARG_DST, dst},
                                                      {DNNL_ARG_MEAN, mean},
                                                      {DNNL_ARG_VARIANCE, variance},
                                                      {DNNL_ARG_SCALE, scale},
                                                      {DNNL_ARG_SHIFT, shift},
                                                      {DNNL_ARG_SCRATCHPAD, forward_scratchpad}});
  stream.wait();
  const memory scratchpad = Scratchpad(backward, engine);
  const dnnl::layer_normalization_backward primitive(backward);
  state.SetLabel("layer_normalization backward (scale, shift), memory allocated once");
  TimedLoop(state, w.traffic, [&] {
    primitive.execute(stream, {{DNNL_ARG_SRC, src},
                               {DNNL_ARG_MEAN, mean},
                               {DNNL_ARG_VARIANCE, variance},
                               {DNNL_ARG_DIFF_DST, diff_dst},
                               {DNNL_ARG_SCALE, scale},
                               {DNNL_ARG_SHIFT, shift},
                               {DNNL_ARG_DIFF_SRC, diff_src},
                               {DNNL_ARG_DIFF_SCALE, diff_scale},
                               {DNNL_ARG_DIFF_SHIFT, diff_shift},
                               {DNNL_ARG_SCRATCHPAD, scratchpad}});
    stream.wait();
  });
}

using PeerBody = std::function<void(benchmark::State&, const Workload&)>;

const std::map<std::string, PeerBody>& PeerBodies() {
  static const std::map<std::string, PeerBody> bodies = {{"HardswishBackward", Hardswish},
                                                         {"LayerNormBackward", LayerNorm}};
  return bodies;
}

}  // namespace

void RegisterOneDnnPeers(const std::vector<Workload>& workloads, int threads) {
  omp_set_num_threads(threads);  // this library build runs its primitives on OpenMP
  for (const Workload& workload : workloads) {
    const auto body = PeerBodies().find(workload.op());
    if (body == PeerBodies().end()) continue;  // no oneDNN primitive for the operator
    benchmark::RegisterBenchmark(
        BenchmarkName(workload.name, workload.dtype(), "onednn", threads).c_str(),
        [&workload, &run = body->second](benchmark::State& state) {
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
