#include "bench/point_benchmark.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <optional>

#include "bench/device_events.h"
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

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct EventPair {
  DeviceEvent start, end;
  explicit EventPair(const Provider& provider) : start(provider), end(provider) {}
};

// Host seconds summed over the timed iterations.
struct HostTotals {
  double get_workspace = 0;
  double launch = 0;
  double issue = 0;  // from the first GetWorkspaceSize to the return of the last execute call
  long launches = 0;
};

// One iteration: `pipelined` launches, one synchronisation. Returns its device seconds. The start
// event follows the first GetWorkspaceSize, so that host work before the first execute call is not
// device time.
double TimeBatch(RepeatableCall& call, const DeviceSession& session, const EventPair* events,
                 int pipelined, HostTotals& totals) {
  const auto wall_start = std::chrono::steady_clock::now();
  for (int launch = 0; launch < pipelined; ++launch) {
    totals.get_workspace += call.GetWorkspaceSize();
    if (launch == 0 && events) events->start.Record(session.stream());
    totals.launch += call.Launch();
  }
  totals.issue += SecondsSince(wall_start);
  totals.launches += pipelined;
  if (!events) {
    session.Synchronize();
    return SecondsSince(wall_start);
  }
  events->end.Record(session.stream());
  events->end.Synchronize();
  return events->start.SecondsUntil(events->end);
}

void ReportHostCounters(benchmark::State& state, const HostTotals& totals) {
  if (totals.launches == 0) return;
  const double launches = static_cast<double>(totals.launches);
  state.counters[kHostGetWorkspaceCounter] = totals.get_workspace / launches;
  state.counters[kHostLaunchCounter] = totals.launch / launches;
  if (totals.issue > 0) state.counters[kLaunchRateCounter] = launches / totals.issue;
}

void RunPointBenchmark(benchmark::State& state, RepeatableCall& call, const DeviceSession& session,
                       MinimumTraffic traffic, int pipelined) {
  std::optional<EventPair> events;
  if (HasEvents(session.provider())) events.emplace(session.provider());
  state.SetLabel(events ? kDeviceTimeFromEvents : kDeviceTimeFromHost);
  HostTotals warm_up;
  TimeBatch(call, session, events ? &*events : nullptr, pipelined, warm_up);
  HostTotals totals;
  double device_seconds = 0;
  const long faults_before = MinorPageFaults();
  for (auto _ : state) {
    const double seconds = TimeBatch(call, session, events ? &*events : nullptr, pipelined, totals);
    state.SetIterationTime(seconds);
    device_seconds += seconds;
  }
  traffic.bytes *= static_cast<uint64_t>(pipelined);
  traffic.items *= static_cast<uint64_t>(pipelined);
  ReportThroughput(state, traffic, device_seconds, MinorPageFaults() - faults_before);
  ReportHostCounters(state, totals);
}

}  // namespace

void RegisterPointBenchmark(const std::string& name, const TestPoint& point,
                            const DeviceSession& session, const PointBenchmarkOptions& options) {
  const MinimumTraffic traffic = MinimumTrafficOf(point.op(), DescriptorArgs(point));
  const int pipelined = options.pipelined < 1 ? 1 : options.pipelined;
  benchmark::RegisterBenchmark(name.c_str(),
                               [&point, &session, traffic, pipelined](benchmark::State& state) {
                                 try {
                                   RunPointBenchmark(state, CallFor(point, session), session,
                                                     traffic, pipelined);
                                 } catch (const std::exception& error) {
                                   state.SkipWithError(FirstLineOf(error).c_str());
                                 }
                               })
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime();
}

void ReleasePointBenchmarks() {
  Loaded().call.reset();
  Loaded().point = nullptr;
}

}  // namespace aclnn_check
