#include "check_stages.h"

#include <optional>

#include "bench/timed_loop.h"
#include "check/output_check.h"
#include "core/parallel_blocks.h"
#include "runner/execute.h"

namespace aclnn_check::bench {
namespace {

void Generate(benchmark::State& state, const Workload* workload) {
  TimedLoop(state, workload->traffic, [&] {
    const PreparedPoint prepared = PreparePoint(*workload->point, /*with_reference=*/false);
    benchmark::DoNotOptimize(prepared.tensors.data());
  });
}

void Reference(benchmark::State& state, const Workload* workload) {
  const PreparedPoint prepared = PreparePoint(*workload->point, /*with_reference=*/false);
  TimedLoop(state, workload->traffic, [&] {
    const ReferenceResult reference = workload->point->op().Reference(prepared.args);
    benchmark::DoNotOptimize(reference.outputs.data());
  });
}

// The device values are the reference rounded to each output's dtype: a passing kernel, whose
// every element takes the common path of the check.
void Check(benchmark::State& state, const Workload* workload) {
  const Operator& op = workload->point->op();
  const PreparedPoint prepared = PreparePoint(*workload->point);
  std::vector<std::optional<std::vector<double>>> device(op.tensors().size());
  for (size_t slot = 0; slot < device.size(); ++slot) {
    const ReferenceOutput& expected = prepared.reference->outputs[slot];
    if (!expected.computed) continue;
    const DType dtype = prepared.args.tensors[slot]->dtype;
    device[slot].emplace(expected.value.size());
    for (size_t i = 0; i < expected.value.size(); ++i) (*device[slot])[i] = RoundTo(expected.value[i], dtype);
  }
  TimedLoop(state, workload->traffic, [&] {
    for (size_t slot = 0; slot < device.size(); ++slot) {
      if (!device[slot]) continue;
      const OutputTolerance& tolerance = op.Tolerance(op.tensors()[slot].name);
      const OutputCheck check =
          CheckOutput(op, prepared.reference->outputs[slot], *device[slot],
                      prepared.args.tensors[slot]->dtype, {tolerance.ulp, tolerance.c, DType::kFloat32});
      benchmark::DoNotOptimize(check.metrics.failures);
    }
  });
}

}  // namespace

void RegisterCheckStages(const std::vector<Workload>& workloads, int threads) {
  SetHarnessThreadCount(static_cast<size_t>(threads));
  for (const Workload& workload : workloads) {
    const auto add = [&](const char* stage, void (*run)(benchmark::State&, const Workload*)) {
      benchmark::RegisterBenchmark(
          BenchmarkName(workload.name, workload.dtype(), stage, threads).c_str(), run, &workload)
          ->Unit(benchmark::kMillisecond);
    };
    add("stage_generate", Generate);
    add("stage_reference", Reference);
    add("stage_check", Check);
  }
}

}  // namespace aclnn_check::bench
