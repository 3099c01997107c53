#include "bench/point_benchmark.h"

#include <benchmark/benchmark.h>

#include <memory>

#include "bench/minimum_traffic.h"
#include "bench/provider_call.h"
#include "bench/timed_loop.h"

namespace aclnn_check {
namespace {

// The point whose buffers are alive: benchmarks run one after another (repetitions of one
// benchmark together), so one slot keeps every repetition's inputs without holding them all.
struct LoadedPoint {
  const TestPoint* point = nullptr;
  std::unique_ptr<RepeatableCall> call;
};
LoadedPoint& Loaded() {
  static LoadedPoint loaded;
  return loaded;
}

RepeatableCall& CallFor(const TestPoint& point, const DeviceSession& session) {
  LoadedPoint& loaded = Loaded();
  if (loaded.point != &point) {
    loaded.call.reset();  // free the previous point's buffers before allocating these
    loaded.point = nullptr;
    const PreparedPoint prepared = PreparePoint(point, /*with_reference=*/false);
    loaded.call = std::make_unique<RepeatableCall>(point, prepared, session);
    loaded.point = &point;
  }
  return *loaded.call;
}

}  // namespace

void RegisterPointBenchmark(const std::string& name, const TestPoint& point,
                            const DeviceSession& session) {
  const MinimumTraffic traffic = MinimumTrafficOf(point.op(), DescriptorArgs(point));
  benchmark::RegisterBenchmark(name.c_str(), [&point, &session, traffic](benchmark::State& state) {
    RepeatableCall* call = nullptr;
    try {
      call = &CallFor(point, session);
    } catch (const std::exception& error) {
      state.SkipWithError(error.what());
      return;
    }
    TimedLoop(state, traffic, [call] { call->Call(); });
  })->Unit(benchmark::kMillisecond);
}

void ReleasePointBenchmarks() {
  Loaded().call.reset();
  Loaded().point = nullptr;
}

}  // namespace aclnn_check
