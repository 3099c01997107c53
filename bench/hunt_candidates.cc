#include "hunt_candidates.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "cases/test_point.h"
#include "device_access/loader.h"
#include "hunt/hunt_search.h"
#include "runner/in_process.h"

namespace aclnn_check::bench {
namespace {

constexpr int64_t kCallsPerIteration = 16;

void HuntCandidates(benchmark::State& state, std::string provider, Product product, std::string op,
                    DType dtype, bool isolate) {
  HuntOptions options;
  options.op = op;
  options.dtype = std::string(DTypeName(dtype));
  options.provider = provider;
  options.product = product;
  options.isolate = isolate;
  options.max_calls = kCallsPerIteration;
  options.budget_seconds = 600;
  options.output =
      (std::filesystem::temp_directory_path() / ("aclnn_bench_hunt_" + op + ".json")).string();
  int64_t candidates = 0;
  for (auto _ : state) {
    const HuntResult hunt = Hunt(options);
    candidates += hunt.candidates;
    options.seed += 1;  // a fresh search each iteration
  }
  state.counters["candidates_per_second"] =
      benchmark::Counter(static_cast<double>(candidates), benchmark::Counter::kIsRate);
}

// The operator's default case files, every point that must succeed, run in this process as
// `run --no-isolate` runs them.
void SuiteElements(benchmark::State& state, std::string provider_spec, Product product,
                   std::string folder) {
  const std::unique_ptr<Provider> provider = Provider::Load(provider_spec);
  std::vector<std::unique_ptr<CaseFile>> case_files;
  std::vector<TestPoint> points;
  for (const auto& path : FindCaseFiles({folder})) {
    case_files.push_back(std::make_unique<CaseFile>(LoadCaseFile(path)));
    for (TestPoint& point : ExpandCase(*case_files.back(), product)) {
      if (point.expected.ok()) points.push_back(std::move(point));
    }
  }
  std::vector<const TestPoint*> selected;
  for (const TestPoint& point : points) selected.push_back(&point);
  const Profiles profiles;
  RunContext context;
  context.provider = provider.get();
  context.product = product;
  context.profiles = &profiles;
  int64_t elements = 0;
  for (auto _ : state) {
    RunInProcess(*provider, context, selected, 1,
                 [&](size_t, nlohmann::json result, std::string_view) {
                   elements += ElementsJudged(result);
                 });
  }
  state.counters["elements_per_second"] =
      benchmark::Counter(static_cast<double>(elements), benchmark::Counter::kIsRate);
}

}  // namespace

void RegisterHuntCandidates(const std::string& provider, Product product,
                            const std::string& cases_root) {
  for (const Operator& op : Catalogue()) {
    if (!op.AvailableOn(product)) continue;
    const DType dtype = op.SupportedDTypes(product).front();
    const std::string prefix = "hunt_" + op.folder() + "/" + std::string(DTypeName(dtype)) + "/";
    benchmark::RegisterBenchmark((prefix + "hunt_isolated").c_str(), HuntCandidates, provider,
                                 product, op.name(), dtype, true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((prefix + "hunt_in_process").c_str(), HuntCandidates, provider,
                                 product, op.name(), dtype, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    const std::string folder = cases_root + "/" + op.folder();
    if (std::filesystem::is_directory(folder)) {
      benchmark::RegisterBenchmark((prefix + "suite_elements").c_str(), SuiteElements, provider,
                                   product, folder)
          ->Unit(benchmark::kSecond)
          ->Iterations(1)
          ->UseRealTime();
    }
  }
}

}  // namespace aclnn_check::bench
