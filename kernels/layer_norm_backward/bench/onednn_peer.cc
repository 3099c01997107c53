// LayerNormBackward's oneDNN peer in aclnn_bench (bench/onednn_peer_support.h).
#include "bench/timed_loop.h"
#include "onednn_peer_support.h"

namespace aclnn_check::bench {

using dnnl::memory;

// Layer normalization over the last dim with scale and shift, statistics (mean, variance) from a
// forward pass; computes diff_src, diff_scale and diff_shift like the aclnn workload's three
// outputs.
void OneDnnPeer_layer_norm_backward(benchmark::State& state, const Workload& w) {
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

}  // namespace aclnn_check::bench
