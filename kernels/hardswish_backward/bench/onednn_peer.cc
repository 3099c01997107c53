// HardswishBackward's oneDNN peer in aclnn_bench (bench/onednn_peer_support.h): eltwise_hardswish
// backward, memory and a user scratchpad allocated once.
#include "bench/timed_loop.h"
#include "onednn_peer_support.h"

namespace aclnn_check::bench {

using dnnl::memory;

void OneDnnPeer_hardswish_backward(benchmark::State& state, const Workload& w) {
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

}  // namespace aclnn_check::bench
